"""Consistent copies of a SQLite database while it is being served, and their restoration.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the pages of a live database as
one consistent snapshot even while the server keeps writing (WAL mode): a write that lands during
the copy restarts it, so the copy is exactly some committed state, never a half-written one.
PostgreSQL has its own tool for this, `pg_dump` (`pg_dump_command` says how to call it).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import URL


class BackupError(RuntimeError):
    """A backup or restore that cannot be done as asked (nothing was changed)."""


def sqlite_path(engine: Engine) -> Path:
    """The file of a SQLite engine (BackupError for another backend or an in-memory database)."""
    if engine.url.get_backend_name() != "sqlite" or engine.url.database in (None, "", ":memory:"):
        raise BackupError("only a SQLite database file can be copied by Focal")
    return Path(engine.url.database or "")


def backup_sqlite(engine: Engine, target: Path) -> None:
    """Copy the engine's database into `target` (a new file), consistently, while it is in use."""
    source = sqlite_path(engine)
    if target.exists():
        raise BackupError(f"{target} exists already (a backup never overwrites a file)")
    partial = target.with_name(target.name + ".partial")
    with sqlite3.connect(source) as live, sqlite3.connect(partial) as copy:
        live.backup(copy)
    copy.close()
    live.close()
    partial.replace(target)


def restore_sqlite(engine: Engine, backup: Path) -> None:
    """Replace the engine's database by the content of `backup` (a Focal database file)."""
    target = sqlite_path(engine)
    if not backup.is_file():
        raise BackupError(f"{backup} is not a file")
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as source:
        try:
            source.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{backup} is not a Focal database ({error})") from None
        engine.dispose()  # no pooled connection may keep the old pages
        with sqlite3.connect(target) as live:
            source.backup(live)
        live.close()
    source.close()


def pg_dump_command(url: URL) -> str:
    """How to back up (and restore) a PostgreSQL database of `url` (password not shown)."""
    parsed = url.set(drivername="postgresql")
    shown = parsed.render_as_string(hide_password=True)
    return (
        f"pg_dump --format=custom --file=focal.dump '{shown}'  "
        f"(restore: pg_restore --clean --if-exists --dbname='{shown}' focal.dump)"
    )
