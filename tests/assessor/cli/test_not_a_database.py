"""A `FOCAL_DATABASE_URL` naming a file that is not a database is one line naming the URL and
what is wrong, exit code 2, whichever command opens the database (`cli.support.make_app`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main


@pytest.mark.parametrize("command", [["users", "list"], ["init-db"], ["report"]])
def test_a_file_that_is_not_a_database_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database, but a file of notes\n" * 100, encoding="utf-8")
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{text}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    monkeypatch.setenv("FOCAL_INSTANCE", str(tmp_path / "instance"))
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"cannot open the database sqlite:///{text}: file is not a database" in lines[0]
    assert text.read_text(encoding="utf-8").startswith("not a database")  # left as it was
