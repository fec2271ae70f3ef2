"""trec_eval's measures on spawned worker processes (`running.article_workers.on_processes`
where `FOCAL_START_METHOD=spawn`): each worker is given the qrels' path and reads them again
(`running.articles.ArticleSteps`), and the output is the serial output, byte for byte."""

from __future__ import annotations

import multiprocessing
import pickle
from pathlib import Path
from typing import Any

import pytest

from focal.evaluation.cli.trec_eval.articles import run_trec_eval
from focal.evaluation.measures.trec_eval.engine.run import TrecOptions
from focal.evaluation.measures.trec_eval.engine.vocabulary import select
from focal.evaluation.running import article_pass
from focal.evaluation.running import article_workers as workers
from focal.evaluation.running.articles import ArticleSteps
from tests.evaluation.cli.test_trec_eval_threads import MEASURES, write_files


@pytest.fixture(autouse=True)
def engine_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run through the article engine's workers: the C part's whole-file pass would
    answer these plain files (tests/evaluation/running/test_article_pass.py)."""
    monkeypatch.setattr(article_pass, "pass_evaluation", lambda *given: None)


def test_the_steps_pickle_as_the_qrels_path_and_read_them_again(tmp_path: Path) -> None:
    qrels, _ = write_files(tmp_path, 1)
    steps = ArticleSteps(qrels, select(MEASURES), TrecOptions(level=2))
    copy = pickle.loads(pickle.dumps(steps))
    assert copy.qrels_path == qrels and copy.options == TrecOptions(level=2)
    assert copy.index is not steps.index and copy.index.topics == steps.index.topics
    Path(qrels).write_text("77 0 d1 1\n")  # the file, not the table, is what goes
    assert pickle.loads(pickle.dumps(steps)).index.topics == ["77"]


def test_spawned_workers_give_the_serial_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = write_files(tmp_path, 4)
    run_trec_eval(qrels, runs, MEASURES, TrecOptions(), True, "trec", 1)
    serial = capsys.readouterr().out
    assert serial.count("\tall\t") == 4 * len(MEASURES)
    monkeypatch.setenv("FOCAL_START_METHOD", "spawn")
    monkeypatch.setattr(workers, "FEW_BYTES", 0)  # a few kilobytes: workers all the same
    monkeypatch.setattr(workers, "forking", lambda: True)  # processes, though spawned
    asked: list[Any] = []
    real = multiprocessing.get_context
    monkeypatch.setattr(multiprocessing, "get_context", lambda m=None: asked.append(m) or real(m))
    run_trec_eval(qrels, runs, MEASURES, TrecOptions(), True, "trec", 2)
    assert capsys.readouterr().out == serial
    assert asked == ["spawn"]
