"""Migrations build the schema from an empty database on both backends and match the models."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from assessor import db, migrate
from assessor.models import Base

from .conftest import empty_postgres


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite'}"
    url: str = request.getfixturevalue("pg_url")
    empty_postgres(url)
    return url


def test_upgrade_from_empty_creates_every_table_and_matches_the_models(empty_url: str) -> None:
    engine = db.make_engine(empty_url)
    try:
        assert migrate.current_revision(engine) is None
        migrate.upgrade(engine)
        head = ScriptDirectory.from_config(migrate.alembic_config(engine)).get_current_head()
        assert head is not None and migrate.current_revision(engine) == head
        tables = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
        assert migrate.schema_differences(engine) == []
        migrate.upgrade(engine)  # a second run changes nothing
    finally:
        engine.dispose()


def test_downgrade_to_base_removes_every_table(empty_url: str) -> None:
    from alembic import command

    engine = db.make_engine(empty_url)
    try:
        migrate.upgrade(engine)
        config = migrate.alembic_config(engine)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
