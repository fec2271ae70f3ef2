"""What every assessor command shares: the configured app, one transaction, friendly errors."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy.orm import Session

P = ParamSpec("P")
R = TypeVar("R")


class CommandError(click.ClickException):
    """A user-fixable problem: one line on stderr, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"focal: {self.format_message()}", err=True)


def friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn input errors (FormatError, CampaignError, lookups, files) into CommandError."""

    @functools.wraps(command)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        from assessor.campaign.errors import CampaignError
        from evaluation.errors import FormatError

        try:
            return command(*args, **kwargs)
        except (FormatError, CampaignError, LookupError, OSError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else error
            raise CommandError(str(message)) from error

    return wrapped


def make_app(migrated: bool = True) -> Flask:
    """The app of the configured database; refuses to go on when it was never initialised."""
    from assessor.store import db, migrate
    from assessor.web.app import create_app

    app = create_app()
    if migrated and migrate.current_revision(db.engine_of(app)) is None:
        raise CommandError("the database has no tables yet: run `focal init-db` first")
    return app


@contextmanager
def transaction(app: Flask | None = None) -> Iterator[Session]:
    """One committed transaction on the configured database."""
    from assessor.store import db

    with db.session_scope(app or make_app()) as session:
        yield session
