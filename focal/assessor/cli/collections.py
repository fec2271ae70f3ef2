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
    from sqlalchemy import select

    from focal.assessor.campaign.errors import CampaignError
    from focal.assessor.campaign.setup.profiles import (
        profile_names,
        set_display_profile,
        shipped_profiles,
    )
    from focal.assessor.store.models import Collection

    with transaction() as session:
        if profile is None:
            row = session.scalars(select(Collection).where(Collection.name == name)).first()
            if row is None:
                raise CampaignError(f"no collection named {name!r}")
            click.echo(f"{name}: {row.display_profile or AUTO}")
            for known in profile_names():
                click.echo(f"  {known:12} {shipped_profiles()[known].description}")
            return
        set_display_profile(session, name, None if profile == AUTO else profile)
    click.echo(f"{name}: display profile {profile}")
