"""`focal users add|token|revoke|disable|enable|list` and `focal assign`.

The accounts themselves are `focal.assessor.campaign.people.users`: a new password, `revoke` and
`disable` end access on the server (sessions and tokens), whatever a client still holds.
"""

from __future__ import annotations

from pathlib import Path

import click

from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.users import (
    add_user,
    assign_topic,
    check_new_password,
    disable_user,
    enable_user,
    end_sessions,
    find_user,
    issue_token,
    parse_lifetime,
    revoke_tokens,
    token_record,
    unassign_topic,
)
from focal.assessor.cli import support
from focal.assessor.cli.support import friendly_errors, transaction
from focal.assessor.store.models import ROLES
from focal.evaluation.cli import numbers


@click.group("users")
def users() -> None:
    """Manage organisers and assessors."""


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.option(
    "--password-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Read the password from the first line of this file (else it is asked for).",
)
@friendly_errors
def add_user_command(name: str, role: str, password_file: Path | None) -> None:
    """Add a user (or change an existing user's role and password)."""
    if password_file is not None:
        lines = password_file.read_text(encoding="utf-8").splitlines()
        password = lines[0] if lines else ""
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    check_new_password(password)
    with transaction() as session:
        add_user(session, name, role, password)
    click.echo(f"user {name} ({role}) saved")


@users.command("token")
@click.argument("name")
@click.option(
    "--expires",
    metavar="LIFETIME",
    help="How long the token lasts: 30d, 12h or never (default: TOKEN_LIFETIME, 90d).",
)
@friendly_errors
def token_command(name: str, expires: str | None) -> None:
    """Print a new API token for NAME (use as `Authorization: Bearer <token>`).

    The token alone goes to stdout; its id (for `focal users revoke NAME --token ID`) and
    expiry go to stderr.
    """
    app = support.make_app()  # looked up when called (tests replace it)
    lifetime = parse_lifetime(expires or str(app.config["TOKEN_LIFETIME"]))
    with transaction(app) as session:
        token = issue_token(session, find_user(session, name), lifetime)
        record = token_record(session, token)
        until = (
            "never expires"
            if record.expires_at is None
            else f"expires {record.expires_at:%Y-%m-%d %H:%M} UTC"
        )
        note = f"token id {record.id} for {name}, {until}"
    click.echo(token)
    click.echo(note, err=True)


@users.command("revoke")
@click.argument("name")
@click.option(
    "--token", "token_id", type=numbers.RANK, help="Revoke only this token (else all of them)."
)
@friendly_errors
def revoke_command(name: str, token_id: int | None) -> None:
    """Revoke NAME's API tokens (one with --token ID) and end NAME's sessions."""
    with transaction() as session:
        user = find_user(session, name)
        count = revoke_tokens(session, user, token_id)
        if token_id is None:
            end_sessions(user)
    ended = "" if token_id is not None else "; sessions ended"
    click.echo(f"{count} token(s) of {name} revoked{ended}")


@users.command("disable")
@click.argument("name")
@friendly_errors
def disable_command(name: str) -> None:
    """Refuse NAME's log-in from now on; ends NAME's sessions and revokes NAME's tokens."""
    with transaction() as session:
        disable_user(session, find_user(session, name))
    click.echo(f"user {name} disabled")


@users.command("enable")
@click.argument("name")
@friendly_errors
def enable_command(name: str) -> None:
    """Let a disabled user log in again (with new sessions and new tokens)."""
    with transaction() as session:
        enable_user(find_user(session, name))
    click.echo(f"user {name} enabled")


@users.command("list")
@friendly_errors
def list_users_command() -> None:
    """List users with their roles (and `disabled` for a disabled user)."""
    with transaction() as session:
        for user in roster.users(session):
            state = "\tdisabled" if user.disabled_at is not None else ""
            click.echo(f"{user.name}\t{user.role}{state}")


@click.command("assign")
@click.argument("topic")
@click.argument("name")
@click.option("--remove", is_flag=True, help="Take the topic away (deletes that assessor's work).")
@click.option(
    "--adjudicator",
    is_flag=True,
    help="Let NAME adjudicate TOPIC (not assess it); with --remove, take that away.",
)
@friendly_errors
def assign(topic: str, name: str, remove: bool, adjudicator: bool) -> None:
    """Assign TOPIC to the assessor NAME (a topic may have two assessors)."""
    if adjudicator:
        from focal.assessor.campaign.people.adjudicators import add_adjudicator, remove_adjudicator

        with transaction() as session:
            (remove_adjudicator if remove else add_adjudicator)(session, topic, name)
        click.echo(f"{name} {'no longer adjudicates' if remove else 'adjudicates'} topic {topic}")
        return
    with transaction() as session:
        if not remove:
            assign_topic(session, topic, name)
            click.echo(f"topic {topic} assigned to {name}")
            return
        unassign_topic(session, topic, name)
    click.echo(f"topic {topic} no longer assigned to {name}")
