"""The `all` rows of ric, bic and t2i sum num_rel and rel_size over every qrels topic, with or
without -c, as the official program 3.1 does; focused and thorough sum over the topics averaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.records import Judgement, Result, Run
from focal.evaluation.measures.evaluate import aggregate, evaluate

from ...conftest import shared_path

# Topic 1: article a, 10 relevant characters of 100; topic 2: articles c (20 of 40) and d (5 of
# 50); topic 3: judged, nothing relevant. The run answers topic 1 only.
QRELS = {
    "1": {"a": Judgement("1", "a", 10, 100, 0, ((0, 10),), 1)},
    "2": {
        "c": Judgement("2", "c", 20, 40, 0, ((0, 20),), 2),
        "d": Judgement("2", "d", 5, 50, 0, ((5, 5),), 3),
    },
    "3": {"e": Judgement("3", "e", 0, 30, None, (), 4)},
}
RUN = Run("r", "r.run", "fol", {"1": [Result("1", "a", 1, 1.0, 1, start=0, length=20)]})


@pytest.mark.parametrize("task", ["ric", "bic", "t2i"])
@pytest.mark.parametrize("complete", [False, True])
def test_in_context_totals_cover_every_qrels_topic(task: str, complete: bool) -> None:
    rows = aggregate(evaluate(QRELS, RUN, task, complete=complete))
    # every qrels topic: 1 + 2 + 0 relevant articles, 10 + 20 + 5 relevant characters
    assert (rows["num_rel"], rows["rel_size"]) == (3, 35)
    assert rows["num_q"] == (3 if complete else 1)


@pytest.mark.parametrize("task", ["focused", "thorough"])
def test_focused_totals_cover_the_averaged_topics(task: str) -> None:
    rows = aggregate(evaluate(QRELS, RUN, task))
    assert (rows["num_rel"], rows["rel_size"]) == (1, 10)  # topic 1 only
    rows = aggregate(evaluate(QRELS, RUN, task, complete=True))
    assert (rows["num_rel"], rows["rel_size"]) == (3, 35)


@pytest.mark.parametrize(("task", "suffix"), [("ric", "ric"), ("bic", "bic"), ("t2i", "ric")])
def test_official_totals_on_a_run_that_skips_two_topics(task: str, suffix: str) -> None:
    # bert-passages answers 50 of the 52 INEX 2010 topics; the official program prints the
    # whole qrels' 5471 relevant articles and 17,641,119 relevant characters (the focused rows
    # of the same run, over its 50 topics, are 5452 and 17,596,598).
    folder = shared_path("inex2010")
    qrels = read_qrels(folder / "inex2010.qrels")
    run = read_run_columns(Path(folder, "runs", f"bert-passages.{suffix}.run"))
    rows = aggregate(evaluate(qrels, run, task))
    assert (rows["num_q"], rows["num_rel"], rows["rel_size"]) == (50, 5471, 17_641_119)
    focused = aggregate(evaluate(qrels, read_run_columns(folder / "runs/bert-passages.fol.run")))
    assert (focused["num_rel"], focused["rel_size"]) == (5452, 17_596_598)
