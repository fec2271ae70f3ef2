"""What every assessor command shares: the configured app, one transaction, friendly errors."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import click

from focal import settings

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
    """Turn input errors (FormatError, CampaignError, lookups, files) and a database whose disk
    is full into CommandError."""

    @functools.wraps(command)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        from focal.assessor.campaign.errors import CampaignError
        from focal.evaluation.errors import FormatError

        try:
            return command(*args, **kwargs)
        except (FormatError, CampaignError, LookupError, OSError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else error
            raise CommandError(str(message)) from error
        except Exception as error:  # the database's own full disk, said as such
            from focal.assessor.store.db import out_of_space

            if not out_of_space(error):
                raise
            cause = _first_line(getattr(error, "orig", error))
            raise CommandError(f"no space left on device for the database ({cause})") from error

    return wrapped


def make_app(migrated: bool = True) -> Flask:
    """The app of the configured database; refuses to go on when it was never initialised.

    Only `focal init-db` (`migrated=False`) may create a database: any other command refuses a
    SQLite file that does not exist rather than leave an empty one behind. A URL that names no
    database Focal can use, or a server that does not answer, is one line naming the URL
    without its password.
    """
    from sqlalchemy.exc import ArgumentError, DatabaseError, NoSuchModuleError

    from focal.assessor.store import db, migrate
    from focal.assessor.web.app import create_app

    try:
        app = create_app()
    except (ArgumentError, NoSuchModuleError) as error:
        url = shown_url(str(settings.value("FOCAL_DATABASE_URL") or ""))
        raise CommandError(f"cannot use the database URL {url}: {_first_line(error)}") from None
    engine = db.engine_of(app)
    url = engine.url.render_as_string(hide_password=True)
    path = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if migrated and path and path != ":memory:" and not Path(path).exists():
        raise CommandError(f"no database at {path}: run `focal init-db` first")
    try:
        revision = migrate.current_revision(engine)
    except DatabaseError as error:  # no server, or a file that is not a database
        raise CommandError(f"cannot open the database {url}: {_first_line(error.orig)}") from None
    if migrated and revision is None:
        raise CommandError(f"the database {url} has no tables yet: run `focal init-db` first")
    return app


shown_url = settings.hide_password  # `url` with any password replaced by `***` (for messages)


def refuse_unanswered_redis(timeout: float = 2.0) -> None:
    """With `FOCAL_REDIS_URL` set, one line and exit code 2 unless Redis answers a PING within
    about `timeout` seconds: `focal serve`, `demo` and `worker` check it as they start, since a
    server would otherwise count log-ins in each process's memory and its imports would wait on
    a queue that no one reads (docs/deploy.md). Without the redis client the app, as it is
    made, names the missing extra instead."""
    url = settings.value("FOCAL_REDIS_URL")
    if not isinstance(url, str):
        return
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ModuleNotFoundError:
        return
    client = redis.Redis.from_url(
        url, socket_connect_timeout=timeout, socket_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        raise CommandError(
            f"FOCAL_REDIS_URL={shown_url(url)!r}: Redis does not answer there "
            f"({_first_line(error)}); start it, or correct or remove the setting"
        ) from None
    finally:
        client.close()


def _first_line(error: BaseException | None) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


@contextmanager
def transaction(app: Flask | None = None) -> Iterator[Session]:
    """One committed transaction on the configured database."""
    from focal.assessor.store import db

    with db.session_scope(app or make_app()) as session:
        yield session
