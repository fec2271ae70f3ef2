"""`focal.evaluate` on plain TREC files through the C part's whole-file pass
(`running.article_pass`): the same frame as the article engine gives, and without `per_topic`
no topic kept, so that memory holds a block of topics (docs/python.md, "Memory")."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import focal
from focal.evaluation.api import evaluate_with
from focal.evaluation.measures.trec_eval.kernel import compiled
from focal.evaluation.running import article_pass
from focal.evaluation.running.options import EvalOptions
from tests.evaluation.cli.test_trec_eval_threads import write_files

pytestmark = pytest.mark.skipif(
    compiled() is None,
    reason="the install has no C part (or FOCAL_KERNEL chose numpy): the pass declines all",
)
MEASURES = [["AP", "nDCG@10", "P@5", "NumRet"], None, ["all_trec"], ["AP", "P(rel=2)@5"]]


@pytest.mark.parametrize("measures", MEASURES)
@pytest.mark.parametrize("per_topic", [False, True])
@pytest.mark.parametrize("complete", [False, True])
def test_the_frame_is_the_engines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  measures: list[str] | None, per_topic: bool,
                                  complete: bool) -> None:  # fmt: skip
    qrels, runs = write_files(tmp_path, 2)  # (a run topic the qrels lack)
    Path(qrels).write_text(Path(qrels).read_text() + "99 0 d1 1\n")  # (one the runs miss)
    named = {"first": runs[0], "second": runs[1]}
    found = focal.evaluate(qrels, named, measures, per_topic=per_topic, complete=complete)
    monkeypatch.setattr(article_pass, "pass_evaluation", lambda *given: None)
    expected = focal.evaluate(qrels, named, measures, per_topic=per_topic, complete=complete)
    assert len(found) > 2
    pd.testing.assert_frame_equal(found, expected, check_exact=True)


def test_without_per_topic_no_topic_is_kept(tmp_path: Path) -> None:
    qrels, runs = write_files(tmp_path, 2)
    options = EvalOptions("articles", ("map", "P.5"))
    summed = evaluate_with(qrels, runs, options, per_topic=False)
    assert all(isinstance(e, article_pass.Summarised) for e in summed.evaluations)
    assert summed.per_topic == {"run0": {}, "run1": {}}
    every = evaluate_with(qrels, runs, options)
    assert every.aggregate == summed.aggregate
    assert [len(topics) for topics in every.per_topic.values()] == [8, 8]
    assert not any(isinstance(e, article_pass.Summarised) for e in every.evaluations)
