"""Migrations build the schema from an empty database on both backends and match the models."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from focal.assessor.store import db, migrate
from focal.assessor.store.models import Base

from ..conftest import empty_postgres


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
    engine = db.make_engine(empty_url)
    try:
        migrate.upgrade(engine)
        migrate.downgrade(engine, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()


def _placeholder_rows() -> dict[str, list[dict[str, object]]]:
    """A judged article stored the 0002 way (file and hash ""), and one with a file."""
    return {
        "collections": [{"id": 1, "name": "qrels: id and length only", "directory": ""}],
        "documents": [
            {"id": "9999", "collection_id": 1, "file": "", "text_length": 500, "text_sha256": ""},
            {"id": "1001", "collection_id": 1, "file": "/a.xml", "text_length": 5},
        ],
        "topics": [{"id": "3", "ct_no": None, "title": ""}],
        "pools": [{"id": 1, "topic_id": "3", "method": "qrels", "parameters": {}}],
        "pool_entries": [{"pool_id": 1, "article": "9999", "position": 0, "pool_rank": 1}],
        "users": [{"id": 1, "name": "erin", "role": "assessor", "password_hash": None}],
        "assignments": [{"id": 1, "topic_id": "3", "user_id": 1}],
        "judgements": [
            {"assignment_id": 1, "article": "9999", "status": "relevant", "passages": [[0, 4]]}
        ],
    }


def test_upgrade_turns_placeholders_into_null_and_keeps_what_refers_to_them(
    empty_url: str,
) -> None:
    from sqlalchemy import MetaData, Table, insert, select, text

    engine = db.make_engine(empty_url)
    try:
        migrate.upgrade(engine, "0002_elements")
        rows = _placeholder_rows()
        rows["documents"][1]["text_sha256"] = "ab" * 32
        with engine.begin() as connection:
            for table, values in rows.items():
                # The model's columns that exist at 0002 (later revisions add some), with
                # their Python-side defaults.
                present = set(Table(table, MetaData(), autoload_with=connection).c.keys())
                model = Base.metadata.tables[table]
                columns = [c._copy() for c in model.columns if c.name in present]
                then = Table(table, MetaData(), *columns)
                connection.execute(insert(then), values)
        migrate.upgrade(engine)  # documents is re-created on SQLite: others refer to it
        documents = Base.metadata.tables["documents"]
        query = select(documents.c.id, documents.c.file, documents.c.text_sha256)
        with engine.connect() as connection:
            stored = {row[0]: (row[1], row[2]) for row in connection.execute(query)}
            assert stored == {"9999": (None, None), "1001": ("/a.xml", "ab" * 32)}
            referring = "SELECT article FROM judgements UNION ALL SELECT article FROM pool_entries"
            assert [row[0] for row in connection.execute(text(referring))] == ["9999", "9999"]
            if engine.dialect.name == "sqlite":  # enforcement is back on after the migration
                assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        migrate.downgrade(engine, "0002_elements")
        with engine.connect() as connection:
            stored = {row[0]: (row[1], row[2]) for row in connection.execute(query)}
            assert stored == {"9999": ("", ""), "1001": ("/a.xml", "ab" * 32)}
    finally:
        engine.dispose()
