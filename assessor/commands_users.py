"""`focal users add|token|list` and `focal assign`."""

from __future__ import annotations

from pathlib import Path

import click
from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor.cli_support import CommandError, friendly_errors, transaction
from assessor.models import ROLES, Assignment, Topic, User


def find_user(session: Session, name: str) -> User:
    """The user called `name` (LookupError naming it otherwise)."""
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        raise LookupError(f"no user {name!r} (add one with `focal users add`)")
    return user


def add_user(session: Session, name: str, role: str, password: str | None) -> User:
    """Create a user, or update the role and password of an existing one."""
    from assessor.auth import hash_password

    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    user = session.scalars(select(User).where(User.name == name)).first()
    if user is None:
        user = User(name=name, role=role)
        session.add(user)
    user.role = role
    if password is not None:
        user.password_hash = hash_password(password)
    session.flush()
    return user


def assign_topic(session: Session, topic_id: str, user_name: str) -> Assignment:
    """Give a topic to an assessor (idempotent)."""
    user = find_user(session, user_name)
    if session.get(Topic, topic_id) is None:
        raise LookupError(f"no topic {topic_id!r} (import topics first)")
    if user.role != "assessor":
        raise CommandError(f"{user_name} is an {user.role}, not an assessor")
    assignment = session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assignment is None:
        assignment = Assignment(topic_id=topic_id, user_id=user.id)
        session.add(assignment)
        session.flush()
    return assignment


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
    from assessor.auth import issue_token

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
        user = find_user(session, name)
        assignment = session.scalars(
            select(Assignment).where(Assignment.topic_id == topic, Assignment.user_id == user.id)
        ).first()
        if assignment is None:
            raise LookupError(f"topic {topic} is not assigned to {name}")
        session.delete(assignment)
    click.echo(f"topic {topic} no longer assigned to {name}")
