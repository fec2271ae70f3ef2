"""The database engine of an app and one SQLAlchemy session per request.

Views call `get_session()`; the session is closed (and rolled back if still open) when the
request's app context ends. Commands use `session_scope(app)` or `make_engine(url)` directly.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from focal.assessor.store.base import json_text

if TYPE_CHECKING:
    from flask import Flask

EXTENSION = "focal_db"
DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
"""A full disk (errno 28), or a user's quota spent."""
SQLITE_FULL = 13  # sqlite3's "database or disk is full"
POSTGRES_DISK_FULL = "53100"  # PostgreSQL's SQLSTATE disk_full


def out_of_space(error: BaseException) -> bool:
    """Whether `error` says the disk is full: a file write (ENOSPC, EDQUOT) or the database's
    own (SQLite's SQLITE_FULL, PostgreSQL's disk_full), so that it is told as such, never as
    bad material."""
    if isinstance(error, OSError):
        return error.errno in DISK_FULL_ERRNOS
    cause = getattr(error, "orig", None)
    return (
        getattr(cause, "sqlite_errorcode", None) == SQLITE_FULL
        or getattr(cause, "sqlstate", None) == POSTGRES_DISK_FULL
    )


def normalise_url(url: str) -> str:
    """Accept `postgresql://` and `postgres://` URLs and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL, foreign keys and a busy timeout on every connection.

    JSON columns are written strictly (`base.json_text`): the same values on both backends.
    """
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # No pool_pre_ping: its extra round trip per request was a fifth of an operation's
        # time. A connection the server dropped fails one request, which invalidates the pool
        # (SQLAlchemy's optimistic disconnect handling); the page retries an operation with the
        # same op_id, which is idempotent. Recycling avoids servers' idle-connection timeouts.
        return create_engine(
            url, pool_size=10, max_overflow=10, pool_recycle=1800, json_serializer=json_text
        )
    engine = create_engine(
        url,
        connect_args={"timeout": 30, "check_same_thread": False},
        json_serializer=json_text,
    )

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL lets readers proceed while one writer commits; foreign keys are off by default.
        if parsed.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return engine


def init_app(app: Flask) -> None:
    """Create the app's engine and session factory and close the request session on teardown."""
    engine = make_engine(app.config["DATABASE_URL"])
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    app.extensions[EXTENSION] = factory
    app.teardown_appcontext(_close_session)


def session_factory(app: Flask) -> sessionmaker[Session]:
    """The app's session factory (bound to its engine)."""
    factory: sessionmaker[Session] = app.extensions[EXTENSION]
    return factory


def engine_of(app: Flask) -> Engine:
    """The app's engine."""
    engine = session_factory(app).kw["bind"]
    assert isinstance(engine, Engine)  # set by init_app; not an input check
    return engine


def get_session() -> Session:
    """The session of the current request (created on first use)."""
    from flask import current_app, g

    if "db_session" not in g:
        g.db_session = session_factory(current_app)()
    session: Session = g.db_session
    return session


def _close_session(_error: BaseException | None) -> None:
    from flask import g

    session = g.pop("db_session", None)
    if session is not None:
        session.close()


@contextmanager
def session_scope(app: Flask) -> Iterator[Session]:
    """A session for commands: committed on success, rolled back on error, always closed."""
    session = session_factory(app)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
