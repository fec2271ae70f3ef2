"""`run_trec_eval` on worker threads: small runs are read side by side, large ones (read in
batches from their path) one at a time; either way the output is the serial output, byte for
byte, and a bad file is still reported by name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from evaluation.cli import trec_eval
from evaluation.cli.trec_eval import is_large, run_trec_eval
from evaluation.measures.engines.trec_run import TrecOptions

MEASURES = ("map", "P.10", "ndcg_cut.10", "num_ret")


def write_files(folder: Path, runs: int) -> tuple[str, list[str]]:
    rng = random.Random(5)
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 d{d} {rng.randint(0, 2)}\n" for t in range(1, 9)
                             for d in range(40)))  # fmt: skip
    paths = []
    for r in range(runs):
        lines = [
            f"{t} Q0 d{d} {rank} {rng.randint(0, 30) / 10} run{r}\n"
            for t in range(1, 10)  # topic 9 is not in the qrels
            for rank, d in enumerate(rng.sample(range(60), 25), start=1)
        ]
        path = folder / f"run{r}.txt"
        path.write_text("".join(lines))
        paths.append(str(path))
    return str(qrels), paths


def output(capsys: pytest.CaptureFixture[str], qrels: str, runs: list[str], jobs: int) -> str:
    run_trec_eval(qrels, runs, MEASURES, TrecOptions(), True, "trec", jobs)
    return capsys.readouterr().out


@pytest.mark.parametrize("large", [False, True])
def test_threads_give_the_serial_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    large: bool,
) -> None:  # fmt: skip
    qrels, runs = write_files(tmp_path, 6)
    if large:
        monkeypatch.setattr(trec_eval, "SMALL_FILE", 10)  # every run taken in turn
    assert all(is_large(path) == large for path in runs)
    serial = output(capsys, qrels, runs, 1)
    assert serial.count("\tall\t") == 6 * len(MEASURES)
    assert output(capsys, qrels, runs, 2) == serial


def test_a_file_that_cannot_be_sized_is_taken_in_turn_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels, runs = write_files(tmp_path, 2)
    missing = str(tmp_path / "absent.txt")
    assert is_large(missing)
    with pytest.raises(SystemExit) as stopped:
        run_trec_eval(qrels, [*runs, missing], MEASURES, TrecOptions(), False, "trec", 2)
    assert stopped.value.code == 2
    assert "absent.txt" in capsys.readouterr().err
