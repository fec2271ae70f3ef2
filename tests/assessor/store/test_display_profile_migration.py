"""Migration 0006 adds collections.display_profile: existing rows get NULL (detect per document)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from focal.assessor.store import db, migrate


def test_existing_collections_upgrade_to_null_and_downgrade_drops_the_column(
    tmp_path: Path,
) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'm.sqlite'}")
    try:
        migrate.upgrade(engine, "0005_view_events")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO collections (name, directory, imported_at) "
                    "VALUES ('old', '/x', '2026-01-01 00:00:00')"
                )
            )
        migrate.upgrade(engine, "0006_display_profiles")
        assert migrate.current_revision(engine) == "0006_display_profiles"
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, display_profile FROM collections"))
            assert rows.all() == [("old", None)]
        migrate.downgrade(engine, "0005_view_events")
        columns = {column["name"] for column in inspect(engine).get_columns("collections")}
        assert "display_profile" not in columns and "name" in columns
    finally:
        engine.dispose()
