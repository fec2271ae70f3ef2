"""Alembic configured in code: `focal init-db` is `alembic upgrade head` on the app's database."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from assessor.models import Base

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic config that runs the shipped migrations on `engine`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # '%' must be doubled for configparser; the URL may carry a password.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema to `revision` (creates every table on an empty database)."""
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


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
