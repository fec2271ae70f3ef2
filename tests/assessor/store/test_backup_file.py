"""A backup file appears whole or not at all, and only its owner may read it: it holds every
account's password hash (`focal.assessor.store.backup`, through
`focal.evaluation.output.files.replacing`)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from focal.assessor.store.backup import backup_sqlite


def test_a_backup_is_the_database_private_with_nothing_beside_it(tmp_path: Path) -> None:
    source = tmp_path / "live" / "focal.sqlite"
    source.parent.mkdir()
    with sqlite3.connect(source) as live:
        live.execute("CREATE TABLE judged (article TEXT)")
        live.executemany("INSERT INTO judged VALUES (?)", [("1001",), ("1002",)])
    live.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    engine = create_engine(f"sqlite:///{source}")
    backup_sqlite(engine, folder / "copy.sqlite")
    engine.dispose()
    assert [path.name for path in folder.iterdir()] == ["copy.sqlite"]
    assert stat.S_IMODE((folder / "copy.sqlite").stat().st_mode) & 0o077 == 0
    with sqlite3.connect(folder / "copy.sqlite") as copy:
        rows = copy.execute("SELECT article FROM judged ORDER BY article").fetchall()
    copy.close()
    assert rows == [("1001",), ("1002",)]


def test_a_failed_backup_leaves_no_file(tmp_path: Path) -> None:
    source = tmp_path / "broken.sqlite"
    source.write_bytes(b"not a database at all, just bytes" * 100)
    folder = tmp_path / "backups"
    folder.mkdir()
    engine = create_engine(f"sqlite:///{source}")
    with pytest.raises(sqlite3.DatabaseError):
        backup_sqlite(engine, folder / "copy.sqlite")
    engine.dispose()
    assert list(folder.iterdir()) == []
