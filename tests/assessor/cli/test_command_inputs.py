"""Command-line inputs checked before they are read or used: a named pipe given as qrels or a
pool file is refused at once (it would block the reader forever), and a port outside 1-65535
is one line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main

from ...conftest import DEMO

FOCAL = Path(sys.executable).with_name("focal")
RUN = DEMO / "runs" / "bm25-articles.run"
QRELS = DEMO / "qrels" / "demo.qrels"


@pytest.mark.parametrize(
    "arguments",
    [
        ["eval", "--task", "articles", "{fifo}", str(RUN)],
        ["eval", "{fifo}", str(RUN)],
        ["eval", str(QRELS), "{fifo}"],
        ["pool", "stats", "{fifo}", str(RUN)],
    ],
)
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path, arguments: list[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    command = [str(FOCAL), *(a.format(fifo=fifo) for a in arguments)]
    # Nobody ever writes to the pipe: a reader that opened it would wait until the timeout.
    ended = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert ended.returncode == 2, ended.stderr
    assert ended.stderr.strip().endswith("pipe: is not a regular file (a FIFO, device or folder)")
    assert "Traceback" not in ended.stderr


@pytest.mark.parametrize("kernel", ["auto", "numpy"])
@pytest.mark.parametrize("fifo_is", ["qrels", "run"])
def test_trec_eval_refuses_a_named_pipe_on_both_paths(tmp_path: Path, kernel: str,
                                                      fifo_is: str) -> None:  # fmt: skip
    """The whole-file passes (C and numpy) look at each file before they open it: plain TREC
    qrels beside a pipe, so that the pass reaches the pipe instead of declining first."""
    fifo, qrels = tmp_path / "pipe", tmp_path / "plain.qrels"
    os.mkfifo(fifo)
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    files = [fifo, RUN] if fifo_is == "qrels" else [qrels, fifo]
    environment = {**os.environ, "FOCAL_KERNEL": kernel}
    ended = subprocess.run([str(FOCAL), "trec_eval", *map(str, files)], capture_output=True,
                           text=True, timeout=120, check=False, env=environment)  # fmt: skip
    assert ended.returncode == 2, ended.stderr
    assert ended.stderr.strip().endswith("pipe: is not a regular file (a FIFO, device or folder)")
    assert "Traceback" not in ended.stderr


@pytest.mark.parametrize("port", ["-1", "0", "65536", str(65536 + 8080)])
def test_a_port_outside_1_to_65535_is_one_line(
    port: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No database there: had the port been taken, `serve` would stop at the database instead.
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'none.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    result = CliRunner().invoke(main, ["serve", "--port", port])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert errors == [f"Error: Invalid value for '--port': {port} is not in the range 1<=x<=65535."]
    assert "Traceback" not in result.output
