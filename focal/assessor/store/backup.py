"""Consistent copies of a SQLite database while it is being served, and their restoration.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the pages of a live database as
one consistent snapshot even while the server keeps writing (WAL mode): a write that lands during
the copy restarts it, so the copy is exactly some committed state, never a half-written one.
PostgreSQL has its own tool for this, `pg_dump` (`pg_dump_command` says how to call it).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import URL

from focal.evaluation.output.files import replacing

SHM_DMS_BYTE = 128


class BackupError(RuntimeError):
    """A backup or restore that cannot be done as asked (nothing was changed)."""


def sqlite_path(engine: Engine) -> Path:
    """The file of a SQLite engine (BackupError for another backend or an in-memory database)."""
    if engine.url.get_backend_name() != "sqlite" or engine.url.database in (None, "", ":memory:"):
        raise BackupError("only a SQLite database file can be copied by Focal")
    return Path(engine.url.database or "")


def backup_sqlite(engine: Engine, target: Path) -> None:
    """Copy the engine's database into `target` (a new file), consistently, while it is in use.

    The copy is written beside `target` and renamed once complete
    (`focal.evaluation.output.files.replacing`): `target` appears whole or not at all, and a
    failed copy leaves nothing behind. It is readable by its owner only (mode 0600), since it
    holds every account's password hash and token digests.
    """
    source = sqlite_path(engine)
    if target.exists():
        raise BackupError(f"{target} exists already (a backup never overwrites a file)")
    with (
        replacing(target, private=True) as temporary,
        closing(sqlite3.connect(source)) as live,
        closing(sqlite3.connect(temporary)) as copy,
    ):
        live.backup(copy)


def in_use(database: Path) -> bool:
    """Whether another process has the SQLite database open (a running `focal serve`).

    In WAL mode every open connection holds a shared lock on one byte of the `-shm` file
    (SQLite's "dead man switch", byte 128: `UNIX_SHM_DMS` in SQLite's os_unix.c); if an
    exclusive lock on it cannot be taken at once, someone else has the database open. Call it
    with no connection of this process open (POSIX locks belong to the process: unlocking would
    drop the lock of one of ours). Without POSIX locks (Windows) the answer is False.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover (not POSIX)
        return False
    shm = database.with_name(database.name + "-shm")
    try:
        descriptor = os.open(shm, os.O_RDWR)
    except FileNotFoundError:
        return False  # no WAL connection is open: the last one to close removes the file
    try:
        fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_BYTE, os.SEEK_SET)
    except OSError:
        return True
    finally:
        os.close(descriptor)  # closing releases the lock, if it was taken
    return False


def restore_sqlite(engine: Engine, backup: Path, force: bool = False) -> Path:
    """Replace the engine's database by the content of `backup` (a Focal database file); the
    path of a consistent copy of what it replaced, kept beside it.

    BackupError, before anything is changed, while another process has the database open
    (`in_use`), unless `force`: the server would go on with pages from before the restore.
    """
    target = sqlite_path(engine)
    if not backup.is_file():
        raise BackupError(f"{backup} is not a file")
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as source:
        try:
            source.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{backup} is not a Focal database ({error})") from None
        engine.dispose()  # no pooled connection may keep the old pages
        if not force and in_use(target):
            raise BackupError(
                f"{target} is in use by another process (is `focal serve` running?): stop it "
                "first, or give --force; nothing was changed"
            )
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        kept = target.with_name(f"{target.name}.before-restore-{stamp}")
        backup_sqlite(engine, kept)
        engine.dispose()
        with sqlite3.connect(target) as live:
            source.backup(live)
        live.close()
    source.close()
    return kept


def pg_dump_command(url: URL) -> str:
    """How to back up (and restore) a PostgreSQL database of `url` (password not shown)."""
    parsed = url.set(drivername="postgresql")
    shown = parsed.render_as_string(hide_password=True)
    return (
        f"pg_dump --format=custom --file=focal.dump '{shown}'  "
        f"(restore: pg_restore --clean --if-exists --dbname='{shown}' focal.dump)"
    )
