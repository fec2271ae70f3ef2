"""`focal backup` copies a database in use, consistently; `focal restore` brings every
judgement of that moment back."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from focal.assessor.cli.main import main
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Judgement
from focal.assessor.web.app import create_app

from ..conftest import seed


@pytest.fixture
def focal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_sqlite: Path) -> Any:
    database = tmp_path / "live.sqlite"
    database.write_bytes(migrated_sqlite.read_bytes())
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")

    def invoke(*args: str, code: int = 0) -> Result:
        result = CliRunner().invoke(main, list(args))
        assert result.exit_code == code, (result.output, result.stderr)
        return result

    return invoke


def _judged(app: Any) -> dict[tuple[int, str], tuple[str, list[list[int]], int]]:
    with db.session_scope(app) as session:
        rows = session.scalars(select(Judgement)).all()
        return {(j.assignment_id, j.article): (j.status, j.passages, j.version) for j in rows}


def test_a_backup_taken_while_writing_restores_every_judgement_of_its_moment(
    focal: Any, tmp_path: Path
) -> None:
    app = create_app()
    seeded = seed(app, tmp_path)
    text = seeded.text("1001")
    with db.session_scope(app) as session:
        assignment = session.get(Assignment, seeded.alice)
        assert assignment is not None
        judgements.highlight(session, assignment, "1001", "h1", 0, 5, text[0:5])
        judgements.mark_nonrelevant(session, assignment, "1002", "n1")
    # A writer keeps judging while the copy is taken: the copy is one committed state.
    stop = threading.Event()

    def keep_writing() -> None:
        with db.session_scope(app) as session:
            other = session.get(Assignment, seeded.bob)
            assert other is not None
            # One character a step, spaces left out (the server refuses a highlight of spaces
            # only; the space between two highlighted words is joined to them).
            letters = [at for at in range(40) if not text[at].isspace()]
            for step, at in enumerate(letters):
                if stop.is_set():
                    break
                judgements.highlight(session, other, "1001", f"b{step}", at, at + 1, text[at])

    writer = threading.Thread(target=keep_writing)
    writer.start()
    backup = tmp_path / "copy.sqlite"
    assert "copied to" in focal("backup", str(backup)).stdout
    stop.set()
    writer.join()
    copied = _judged(create_app({"DATABASE_URL": f"sqlite:///{backup}"}))
    assert copied[(seeded.alice, "1001")] == ("relevant", [[0, 5]], 1)
    assert copied[(seeded.alice, "1002")][0] == "nonrelevant"
    bob = copied.get((seeded.bob, "1001"))
    if bob is not None:  # whatever bob had at that moment, consistently: one letter per step
        ((start, end),) = bob[1]
        assert start == 0 and bob[2] == sum(1 for char in text[:end] if not char.isspace())
    # Later work is lost on restore; the backup's work is all back.
    with db.session_scope(app) as session:
        assignment = session.get(Assignment, seeded.alice)
        assert assignment is not None
        judgements.mark_nonrelevant(session, assignment, "1003", "n3")
    db.engine_of(app).dispose()
    focal("restore", "--yes", str(backup))
    assert _judged(create_app()) == copied
    assert "exists already" in focal("backup", str(backup), code=2).stderr


def test_restore_refuses_a_file_that_is_not_a_focal_database(focal: Any, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_bytes(b"not a database at all, just bytes" * 100)
    assert "not a Focal database" in focal("restore", "--yes", str(bogus), code=2).stderr


def test_postgresql_gets_pg_dump_guidance_without_the_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FOCAL_DATABASE_URL", "postgresql://focal:hunter22@127.0.0.1:1/campaign")
    result = CliRunner().invoke(main, ["backup", "x.dump"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "pg_dump --format=custom" in result.stderr and "pg_restore" in result.stderr
    assert "postgresql://focal:***@127.0.0.1:1/campaign" in result.stderr
    assert "hunter22" not in result.stderr
