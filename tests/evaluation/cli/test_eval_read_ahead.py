"""`focal eval --task focused` reads its first runs while it reads the qrels (`reading_ahead`),
and prints exactly what it prints without reading ahead; a bad qrels file is still the error."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaluation.cli.eval import eval_command
from evaluation.formats import fol_arrow, qrels
from evaluation.formats.records import Qrels

QRELS = "1 Q0 100 50 1000 10 10:50\n1 Q0 200 0 800\n2 Q0 300 20 500 0 0:20\n"
RUNS = (
    "1 Q0 100 1 0.9 a 0 100\n1 Q0 200 2 0.8 a 0 300\n2 Q0 300 1 0.7 a 0 40\n",
    "1 Q0 200 1 0.9 b 0 100\n1 Q0 100 2 0.8 b 20 300\n2 Q0 300 1 0.7 b 5 10\n",
    "1 Q0 100 1 0.9 c 0 30\n2 Q0 300 1 0.7 c 0 20\n",
)


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    (tmp_path / "q.qrels").write_text(QRELS)
    paths = [str(tmp_path / "q.qrels")]
    for number, text in enumerate(RUNS):
        (tmp_path / f"r{number}.run").write_text(text)
        paths.append(str(tmp_path / f"r{number}.run"))
    return paths


def test_runs_are_read_while_the_qrels_are(
    files: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = CliRunner().invoke(eval_command, ["-j", "1", *files])
    assert serial.exit_code == 0, serial.output
    run_read = threading.Event()
    read_table, read_qrels = fol_arrow.read_fol_table, qrels.read_qrels
    waited: list[bool] = []

    def reading_table(data: bytes, passages: bool = False) -> fol_arrow.FolTable | None:
        run_read.set()
        return read_table(data, passages=passages)

    def reading_qrels(path: str | Path) -> Qrels:
        waited.append(run_read.wait(timeout=10))  # a run is read before the qrels are done
        return read_qrels(path)

    monkeypatch.setattr(fol_arrow, "read_fol_table", reading_table)
    monkeypatch.setattr(qrels, "read_qrels", reading_qrels)
    ahead = CliRunner().invoke(eval_command, ["-j", "2", *files, files[1]])
    assert ahead.exit_code == 0, ahead.output
    assert waited == [True]
    first = serial.stdout.split("<eval", 2)[1]  # the first run, evaluated twice, is the same
    assert ahead.stdout.count(first) == 2
    assert ahead.stdout.startswith(serial.stdout)


def test_a_bad_qrels_file_is_the_error_while_runs_are_read(files: list[str]) -> None:
    Path(files[0]).write_text(QRELS + "3 Q0 400 x 100\n")
    result = CliRunner().invoke(eval_command, ["-j", "2", *files])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"focal eval: {files[0]}:4:")
