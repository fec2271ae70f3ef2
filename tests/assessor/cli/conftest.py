"""What the command tests share: `focal` run in-process on a database of the test's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from focal.assessor.cli.main import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`cli(*args, code=0)`: run `focal` on a fresh SQLite file (not yet initialised) and
    require its exit code; the result carries output and stderr."""
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    monkeypatch.setenv("FOCAL_INSTANCE", str(tmp_path / "instance"))
    runner = CliRunner()

    def invoke(*args: str, code: int = 0) -> Result:
        result = runner.invoke(main, list(args))
        assert result.exit_code == code, (result.output, result.stderr)
        return result

    return invoke
