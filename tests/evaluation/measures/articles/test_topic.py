"""Article measures agree with ir_measures / pytrec_eval (trec_eval) on the shared runs."""

from __future__ import annotations

from pathlib import Path

import ir_measures
import pytest
import pytrec_eval
from ir_measures import AP, Bpref, P, Rprec

from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.records import Judgement, Result, Run
from focal.evaluation.measures.articles import topic as articles
from focal.evaluation.measures.articles.topic import ArticleJudgements, article_ranking
from focal.evaluation.measures.engines import article_topics
from focal.evaluation.measures.evaluate import aggregate, evaluate
from focal.evaluation.measures.registry.names import parse

RUNS = [
    "indri-articles.trec.run",
    "indri-passages.fol.run",
    "bert-passages.fol.run",
    "bert-passages-half.fol.run",
    "indri-passages-b.fol.run",
]
MEASURES = {"MAP": AP, "P@5": P @ 5, "P@10": P @ 10, "Rprec": Rprec, "bpref": Bpref}


def _article_run(run: Run) -> dict[str, dict[str, float]]:
    """The run as trec_eval sees it once reduced to articles (best score per article)."""
    reduced: dict[str, dict[str, float]] = {}
    for topic, results in run.topics.items():
        best = reduced.setdefault(topic, {})
        for result in results:
            best[result.article] = max(best.get(result.article, result.score), result.score)
    return reduced


@pytest.mark.parametrize("run_file", RUNS)
def test_binary_measures_equal_ir_measures(inex2010: Path, run_file: str) -> None:
    qrels = read_qrels(inex2010 / "inex2010.qrels")
    run = read_run(inex2010 / "runs" / run_file)
    binary = {t: {a: int(j.rel_chars > 0) for a, j in js.items()} for t, js in qrels.items()}
    expected = {
        (m.query_id, str(m.measure)): m.value
        for m in ir_measures.iter_calc(list(MEASURES.values()), binary, _article_run(run))
    }
    evaluation = evaluate(qrels, run, "articles", measures=tuple(MEASURES))
    assert evaluation.topics
    for topic in evaluation.topics:
        for name, measure in MEASURES.items():
            want = expected[(topic.topic, str(measure))]
            assert topic.values[name] == pytest.approx(want, abs=1e-9), (topic.topic, name)
    # ir_measures averages over every qrels topic, a missing one scoring 0: that is -c
    complete = aggregate(evaluate(qrels, run, "articles", measures=("MAP",), complete=True))
    want_map = ir_measures.calc_aggregate([AP], binary, _article_run(run))[AP]
    assert complete["MAP"] == pytest.approx(want_map, abs=1e-9)
    answered = [v for (t, m), v in expected.items() if m == str(AP) and t in run.topics]
    assert aggregate(evaluation)["MAP"] == pytest.approx(sum(answered) / len(answered), abs=1e-9)


@pytest.mark.parametrize("run_file", RUNS[:2])
def test_ndcg_equals_trec_eval_with_integer_gains(inex2010: Path, run_file: str) -> None:
    """nDCG is checked with gains = rel_chars (integers trec_eval accepts); the graded gain
    `rel_chars / article_chars` goes through the same function."""
    qrels = read_qrels(inex2010 / "inex2010.qrels")
    run = read_run(inex2010 / "runs" / run_file)
    graded = {t: {a: j.rel_chars for a, j in js.items()} for t, js in qrels.items()}
    reduced = _article_run(run)
    evaluator = pytrec_eval.RelevanceEvaluator(graded, {"ndcg_cut.10"})
    expected = evaluator.evaluate(reduced)
    for topic, results in run.topics.items():
        if topic not in qrels:
            continue
        gains = {a: float(g) for a, g in graded[topic].items() if g > 0}
        ours = articles.ndcg_at(article_ranking(results), gains, 10)
        assert ours == pytest.approx(expected[topic]["ndcg_cut_10"], abs=1e-9), topic


def test_ties_are_broken_by_article_id_descending() -> None:
    results = [Result("1", a, i, 1.0, i) for i, a in enumerate(["10", "9", "11"], 1)]
    assert article_ranking(results) == ["9", "11", "10"]  # string order, as strcmp


def test_graded_gain_is_the_relevant_fraction() -> None:
    judged = ArticleJudgements.from_qrels(
        {
            "a": Judgement("1", "a", 50, 100, 0, ((0, 50),), 1),
            "b": Judgement("1", "b", 10, 10, 0, ((0, 10),), 2),
            "n": Judgement("1", "n", 0, 10, None, (), 3),
        }
    )
    assert judged.gains == {"a": 0.5, "b": 1.0}
    assert judged.nonrelevant == frozenset({"n"})
    names = ("nDCG(gain=fraction)@10", "bpref", "P@2")
    values = article_topics.topic_values(["a", "n", "b"], judged, names)
    ideal = 1.0 + 0.5 / 1.584962500721156
    assert values["nDCG(gain=fraction)@10"] == pytest.approx((0.5 + 1.0 / 2) / ideal, abs=1e-12)
    assert values["bpref"] == pytest.approx((1 + (1 - 1 / 1)) / 2, abs=1e-12)
    assert values["P@2"] == 0.5


def test_unknown_article_measure_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown article measure"):
        parse("MRR", "articles")
