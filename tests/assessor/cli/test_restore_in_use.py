"""`focal restore` refuses while another process has the database open (unless `--force`) and
keeps a copy of what it replaces, so a user added after the backup is never silently lost."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text

from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.web.app import create_app

from ..conftest import seed

HOLD_OPEN = (
    "import sqlite3, sys\n"
    "connection = sqlite3.connect(sys.argv[1])\n"
    "connection.execute('SELECT count(*) FROM users').fetchall()\n"
    "print('open', flush=True)\n"
    "sys.stdin.read()\n"
)


@contextmanager
def held_open(database: Path) -> Iterator[None]:
    """Another process with the database open (as a running server has), until the end."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_OPEN, str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stdout.readline().strip() == "open"
        try:
            yield
        finally:
            assert process.stdin is not None
            process.stdin.close()  # it reads to the end of its input, then ends
            process.wait(timeout=30)


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_sqlite: Path) -> Path:
    path = tmp_path / "live.sqlite"
    path.write_bytes(migrated_sqlite.read_bytes())
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    return path


def _focal(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, (result.output, result.stderr)
    return result


def _names(database: Path) -> set[str]:
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as connection:
        names = {row[0] for row in connection.execute(text("SELECT name FROM users"))}
    engine.dispose()
    return names


def test_restore_refuses_while_the_database_is_in_use_then_keeps_what_it_replaces(
    database: Path, tmp_path: Path
) -> None:
    app = create_app()
    seed(app, tmp_path)
    db.engine_of(app).dispose()
    backup = tmp_path / "copy.sqlite"
    _focal("backup", str(backup))
    _focal("users", "add", "zoe", "--role", "assessor", "--password-file", str(_secret(tmp_path)))
    assert "zoe" in _names(database)
    with held_open(database):
        refused = _focal("restore", "--yes", str(backup), code=2)
        assert "is in use by another process" in refused.stderr
        assert "--force" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
        assert "zoe" in _names(database)  # nothing was changed
        forced = _focal("restore", "--yes", "--force", str(backup))
    assert "zoe" not in _names(database)
    kept = [path for path in tmp_path.iterdir() if ".before-restore-" in path.name]
    assert len(kept) == 1 and str(kept[0]) in forced.stdout
    assert "zoe" in _names(kept[0])


def test_restore_with_nobody_else_using_the_database_needs_no_force(
    database: Path, tmp_path: Path
) -> None:
    backup = tmp_path / "copy.sqlite"
    _focal("backup", str(backup))
    assert "restored from" in _focal("restore", "--yes", str(backup)).stdout


def _secret(tmp_path: Path) -> Any:
    path = tmp_path / "password"
    path.write_text("a long enough password\n", encoding="utf-8")
    return path
