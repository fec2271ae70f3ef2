"""`focal users add|token|list` and `focal assign` (accounts in `assessor.campaign.users`)."""

from __future__ import annotations

from pathlib import Path

import click
from sqlalchemy import select

from assessor.campaign.users import add_user, assign_topic, find_user, issue_token, unassign_topic
from assessor.cli.support import CommandError, friendly_errors, transaction
from assessor.store.models import ROLES, User


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
    if len(password) < 8:
        raise CommandError("the password must have at least 8 characters")
    with transaction() as session:
        add_user(session, name, role, password)
    click.echo(f"user {name} ({role}) saved")


@users.command("token")
@click.argument("name")
@friendly_errors
def token_command(name: str) -> None:
    """Print a new API token for NAME (use as `Authorization: Bearer <token>`)."""
    with transaction() as session:
        token = issue_token(session, find_user(session, name))
    click.echo(token)


@users.command("list")
@friendly_errors
def list_users_command() -> None:
    """List users with their roles."""
    with transaction() as session:
        for user in session.scalars(select(User).order_by(User.name)):
            click.echo(f"{user.name}\t{user.role}")


@click.command("assign")
@click.argument("topic")
@click.argument("name")
@click.option("--remove", is_flag=True, help="Take the topic away (deletes that assessor's work).")
@friendly_errors
def assign(topic: str, name: str, remove: bool) -> None:
    """Assign TOPIC to the assessor NAME (a topic may have two assessors)."""
    with transaction() as session:
        if not remove:
            assign_topic(session, topic, name)
            click.echo(f"topic {topic} assigned to {name}")
            return
        unassign_topic(session, topic, name)
    click.echo(f"topic {topic} no longer assigned to {name}")
