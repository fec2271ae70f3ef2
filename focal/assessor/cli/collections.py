"""`focal collection profile NAME [PROFILE]`: how the assessment screen presents a collection.

The use case is `focal.assessor.campaign.setup.profiles.set_display_profile` (the organiser's
screens call the same function); docs/profiles.md describes the profiles.
"""

from __future__ import annotations

import click

from focal.assessor.cli.support import friendly_errors, transaction

AUTO = "auto"


@click.group("collection")
def collection() -> None:
    """Settings of an imported collection."""


@collection.command("profile")
@click.argument("name")
@click.argument("profile", required=False)
@friendly_errors
def profile_command(name: str, profile: str | None) -> None:
    """Show or set the display profile of collection NAME.

    PROFILE is a shipped profile, or `auto` to detect one from each document's root element.
    Without PROFILE, prints the current choice and the profiles there are.
    """
    from focal.assessor.campaign.setup.profiles import (
        display_profile_of,
        profile_names,
        set_display_profile,
        shipped_profiles,
    )

    if profile is not None:
        with transaction() as session:
            set_display_profile(session, name, None if profile == AUTO else profile)
        click.echo(f"{name}: display profile {profile}")
        return
    with transaction() as session:
        chosen = display_profile_of(session, name)
    click.echo(f"{name}: {chosen or AUTO}")
    for known in profile_names():
        click.echo(f"  {known:12} {shipped_profiles()[known].description}")
