"""`run_trec_eval` on several workers: forked processes, or threads where processes cannot be
forked (large runs read one at a time), a few kilobytes in all in turn; every way the output is
the serial output, byte for byte, and a bad file is still reported by name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval.articles import run_trec_eval
from focal.evaluation.measures.trec_eval.engine.run import TrecOptions
from focal.evaluation.running import article_pass
from focal.evaluation.running import article_workers as workers
from focal.evaluation.running.article_workers import is_large

MEASURES = ("map", "P.10", "ndcg_cut.10", "num_ret")


@pytest.fixture(autouse=True)
def engine_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run through the article engine's workers: the C part's whole-file pass would
    answer these plain files (tests/evaluation/running/test_article_pass.py)."""
    monkeypatch.setattr(article_pass, "pass_evaluation", lambda *given: None)


def write_files(
    folder: Path, runs: int, topics: int = 8, judged: int = 40, ranked: int = 25,
    documents: int = 60, scores: tuple[int, int] = (30, 10), seed: int = 5,
) -> tuple[str, list[str]]:  # fmt: skip
    """TREC qrels of `topics` topics (`judged` documents each, grades 0-2) and `runs` runs of
    `ranked` of `documents` documents a topic, scores k / scores[1] for k up to scores[0] (ties),
    one topic more than the qrels know."""
    rng = random.Random(seed)
    qrels = folder / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 d{d} {rng.randint(0, 2)}\n" for t in range(1, topics + 1)
                             for d in range(judged)))  # fmt: skip
    paths = []
    for r in range(runs):
        lines = [
            f"{t} Q0 d{d} {rank} {rng.randint(0, scores[0]) / scores[1]} run{r}\n"
            for t in range(1, topics + 2)  # the last topic is not in the qrels
            for rank, d in enumerate(rng.sample(range(documents), ranked), start=1)
        ]
        path = folder / f"run{r}.txt"
        path.write_text("".join(lines))
        paths.append(str(path))
    return str(qrels), paths


def output(capsys: pytest.CaptureFixture[str], qrels: str, runs: list[str], jobs: int) -> str:
    run_trec_eval(qrels, runs, MEASURES, TrecOptions(), True, "trec", jobs)
    return capsys.readouterr().out


@pytest.mark.parametrize("fork", [True, False])
def test_workers_give_the_serial_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    fork: bool,
) -> None:  # fmt: skip
    qrels, runs = write_files(tmp_path, 6)
    monkeypatch.setattr(workers, "FEW_BYTES", 0)  # a few kilobytes: workers all the same
    if not fork:  # threads, every run taken as large: read in turn
        monkeypatch.setattr(workers, "forking", lambda: False)
        monkeypatch.setattr(workers, "SMALL_FILE", 10)
        assert all(is_large(path) for path in runs)
    forked: list[int] = []
    real = workers.on_processes
    monkeypatch.setattr(workers, "on_processes", lambda *a: forked.append(1) or real(*a))
    serial = output(capsys, qrels, runs, 1)
    assert serial.count("\tall\t") == 6 * len(MEASURES)
    assert output(capsys, qrels, runs, 2) == serial
    assert forked == ([1] if fork else [])


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


def test_a_bad_run_on_a_worker_process_is_reported_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels, runs = write_files(tmp_path, 3)
    Path(runs[1]).write_text("1 Q0 d1 1 not-a-score run1\n")
    with pytest.raises(SystemExit) as stopped:
        run_trec_eval(qrels, runs, MEASURES, TrecOptions(), False, "trec", 2)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "run1.txt:1" in err and "Traceback" not in err


def test_a_few_kilobytes_of_runs_are_evaluated_in_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = write_files(tmp_path, 3)
    serial = output(capsys, qrels, runs, 1)
    monkeypatch.setattr(workers, "on_processes", lambda *a: pytest.fail("forked for 3 small runs"))
    assert output(capsys, qrels, runs, 2) == serial
