"""Alembic configured in code: `focal init-db` is `alembic upgrade head` on the app's database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine

from focal.assessor.store.models import Base

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


class MigrationError(RuntimeError):
    """A migration that would leave the database inconsistent (nothing was committed)."""


def alembic_config(engine: Engine) -> Config:
    """An Alembic config that runs the shipped migrations on `engine`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # '%' must be doubled for configparser; the URL may carry a password.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


@contextmanager
def _migrating(engine: Engine) -> Iterator[tuple[Config, Connection]]:
    """An Alembic config bound to one connection, in one transaction.

    SQLite cannot ALTER a column, so batch migrations copy the table, drop the old one and
    rename the copy; with foreign keys enforced, dropping a table that other rows refer to
    fails. As SQLite's documentation prescribes, enforcement is switched off (which works only
    outside a transaction), every foreign key is checked before the commit, and enforcement is
    switched on again whatever happens.
    """
    config = alembic_config(engine)
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                yield config, connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise MigrationError(f"foreign keys broken by the migration: {broken}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema to `revision` (creates every table on an empty database)."""
    with _migrating(engine) as (config, _connection):
        command.upgrade(config, revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database schema back to `revision` ("base": no tables)."""
    with _migrating(engine) as (config, _connection):
        command.downgrade(config, revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None when it has never been migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def schema_differences(engine: Engine) -> list[object]:
    """What autogenerate would change: empty when the migrations match the models."""
    from alembic.autogenerate import compare_metadata

    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        return list(compare_metadata(context, Base.metadata))
