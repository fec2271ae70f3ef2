"""`focal export qrels` (and its old spelling `focal export-qrels`): an unknown topic is an
error naming it (exit code 2); nothing judged yet is a warning, the empty file written and exit
code 0 (docs/assessor.md, "Export")."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from focal.assessor.cli.main import main

from ..conftest import Seeded


@pytest.fixture
def database(seeded: Seeded, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    monkeypatch.setenv("FOCAL_DATABASE_URL", seeded.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    return seeded


def focal(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("spelling", [["export", "qrels"], ["export-qrels"]])
def test_an_unknown_topic_is_named_and_nothing_is_written(
    database: Seeded, tmp_path: Path, spelling: list[str]
) -> None:
    target = tmp_path / "y.qrels"
    refused = focal(*spelling, "--topic", "424242", "-o", str(target))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "--topic 424242" in refused.stderr and "no such topic" in refused.stderr
    assert "Traceback" not in refused.output and not target.exists()


def test_nothing_judged_yet_is_a_warning_and_an_empty_file(
    database: Seeded, tmp_path: Path
) -> None:
    target = tmp_path / "empty.qrels"
    exported = focal("export", "qrels", "--topic", "1", "-o", str(target))
    assert exported.exit_code == 0, exported.output
    assert "warning: nothing judged yet --topic 1" in exported.stderr
    assert target.read_text(encoding="utf-8") == ""


def test_the_old_spelling_is_hidden_but_answers(database: Seeded) -> None:
    listing = focal("--help").stdout
    assert "export-qrels" not in listing and "export " in listing
    assert focal("export-qrels", "--help").exit_code == 0
