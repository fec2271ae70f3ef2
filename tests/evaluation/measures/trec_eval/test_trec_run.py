"""trec_eval article measures: with --trec-version 9 every measure equals pytrec_eval (trec_eval
9.0.x compiled) to 1e-12 on random qrels and runs read from files; the 10.0 differences on
hand-worked cases."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.measures.registry.names import parse_trec
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import TrecOptions, evaluate_trec
from focal.evaluation.measures.trec_eval.families.interpolated import recall_cutoff
from focal.evaluation.running.articles import load_index, load_run

DOCS = [f"d{i}" for i in range(12)] + ["D5", "d10a", "x"]
TOPICS = ["1", "2", "10", "3b"]

grades = st.sampled_from([-1, 0, 0, 1, 1, 2, 3])
scores = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25, -1.0, 3.0])  # few values: many ties


@st.composite
def collections(draw: st.DrawFn) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for topic in TOPICS:
        if draw(st.booleans()):
            judged = draw(st.dictionaries(st.sampled_from(DOCS), grades, min_size=1, max_size=10))
            if all(g < 0 for g in judged.values()):
                # pytrec_eval (like trec_eval 9) never returns on a topic whose every judgement
                # is negative; Focal scores it 0 (tested below), the comparison needs a judged doc
                judged[DOCS[0]] = 0
            qrels[topic] = judged
        if draw(st.booleans()):
            run[topic] = draw(st.dictionaries(st.sampled_from(DOCS), scores, min_size=1))
    return qrels, run


def write_files(
    folder: str, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]
) -> tuple[str, str]:
    qrels_path, run_path = Path(folder) / "q.txt", Path(folder) / "r.txt"
    # a comment sends the qrels through the line reader, none through the columnar fast path
    lines = ["# judged by hand\n"] if len(qrels) % 2 else []
    lines += [f"{t} 0 {d} {g}\n" for t, js in qrels.items() for d, g in js.items()]
    qrels_path.write_text("".join(lines))
    # ranks written in file order, deliberately not the trec_eval order: the rank column is ignored
    rows = [
        f"{t} Q0 {d} {i} {s!r} sys\n"
        for t, ds in run.items()
        for i, (d, s) in enumerate(ds.items())
    ]
    run_path.write_text("".join(rows) if rows else "")
    return str(qrels_path), str(run_path)


def trec_order(scored: dict[str, float]) -> list[str]:
    """Score descending, then document id descending (byte order) - written out independently."""
    return [
        d for d, _ in sorted(scored.items(), key=lambda ds: (ds[1], ds[0].encode()), reverse=True)
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    collections(),
    st.sampled_from([1, 2]),
    st.one_of(st.none(), st.integers(1, 4)),
    st.booleans(),
)
def test_version_9_equals_pytrec_eval(
    collection: tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]],
    level: int,
    max_docs: int | None,
    complete: bool,
) -> None:
    qrels, run = collection
    answered = sorted(t for t in run if t in qrels)
    if not run:
        return
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = write_files(folder, qrels, run)
        index = load_index(qrels_path)
        options = TrecOptions(level=level, max_docs=max_docs, complete=complete, version=9)
        got = evaluate_trec(index, load_run(run_path), parse_trec(["all_trec"]), options)
    cut = {t: {d: run[t][d] for d in trec_order(run[t])[:max_docs]} for t in run}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"all_trec"}, relevance_level=level)
    want = evaluator.evaluate({t: cut[t] for t in answered}) if answered else {}
    assert got.topics == answered
    assert set(got.values) - {"relstring"} == set(got.summary) - {"num_q"}  # no `all` row
    # 9.0.x (pytrec_eval) has no rbp, rbp_resid or unj_k, and returns no relstring: compared
    # wherever pytrec_eval computes the measure.
    some = next(iter(want.values()), {})
    computed = [name for name in got.values if name != "relstring" and (not want or name in some)]
    for i, topic in enumerate(got.topics):
        for name in computed:
            column = got.values[name]
            assert column[i] == pytest.approx(want[topic][name], abs=1e-12), (topic, name)
    divisor = len(qrels) if complete else len(answered)
    assert got.summary["num_q"] == divisor  # with -c 9.0.7 counts the qrels topics (m_num_q.c)
    for name in computed:
        column = [want[t][name] for t in answered]
        if name == "num_rel" and complete:  # every qrels grade above 0 (m_num_rel.c)
            expected = sum(g > 0 for judged in qrels.values() for g in judged.values())
        elif name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"):
            expected = sum(column)
        elif name in ("gm_map", "gm_bpref"):  # -c: a missing topic counts as 1e-5
            logs = sum(column) + (divisor - len(answered)) * math.log(1e-5)
            expected = math.exp(logs / divisor) if divisor else 0.0
        else:
            expected = sum(column) / divisor if divisor else 0.0
        assert got.summary[name] == pytest.approx(expected, abs=1e-12), name


def _index(grades: dict[str, int]) -> GradeTable:
    return GradeTable.from_mapping({"1": {d.encode(): g for d, g in grades.items()}})


def _run(path: Path, docs_scores: list[tuple[str, float]]) -> str:
    path.write_text("".join(f"1 Q0 {d} 1 {s} r\n" for d, s in docs_scores))
    return str(path)


def test_ten_percent_recall_of_three_relevant(tmp_path: Path) -> None:
    """3 relevant documents (a, b, c) and n1 judged non-relevant; the run ranks n1 then a
    (precision 0/1, 1/2). A recall level p needs (long)(3p + 0.9) relevant documents in 9.x and
    lround(3p) in 10.0; iprec is the best precision at or below the rank where that many were
    found (1/2 once a is found at rank 2), 0 if the run never finds that many.
    10 %: 9.x needs 1, 10.0 needs 0 - both 1/2 here (0 relevant is met where 1 is: trec_eval's
    loop ends at the first relevant document). 30 %: (long)1.8 = 1, lround(0.9) = 1: both 1/2.
    40 %: (long)2.1 = 2 -> 0 in 9.x; lround(1.2) = 1 -> 1/2 in 10.0. 50 %: 2 and 2: both 0."""
    assert (recall_cutoff(0.1, 3, 9), recall_cutoff(0.1, 3, 10)) == (1, 0)
    index = _index({"a": 1, "b": 1, "c": 1, "n1": 0})
    selection = parse_trec(["iprec_at_recall.0.1,0.3,0.4,0.5", "11pt_avg"])
    run = load_run(_run(tmp_path / "r", [("n1", 2.0), ("a", 1.0)]))
    old = evaluate_trec(index, run, selection, TrecOptions(version=9))
    new = evaluate_trec(index, run, selection, TrecOptions(version=10))
    names = ["iprec_at_recall_0.10", "iprec_at_recall_0.30", "iprec_at_recall_0.40"]
    assert [old.values[n][0] for n in names] == [0.5, 0.5, 0.0]
    assert [new.values[n][0] for n in names] == [0.5, 0.5, 0.5]
    assert old.values["iprec_at_recall_0.50"][0] == new.values["iprec_at_recall_0.50"][0] == 0.0
    # 11pt_avg: 9.x cut-offs (0.9 added) 0,1,1,1,2,2,2,3,3,3,3 -> levels 0.0-0.3 reach 1/2;
    # 10.0 (rounded) 0,0,1,1,1,2,2,2,2,3,3 -> levels 0.0-0.4 reach 1/2
    assert old.values["11pt_avg"][0] == pytest.approx(4 * 0.5 / 11, abs=1e-15)
    assert new.values["11pt_avg"][0] == pytest.approx(5 * 0.5 / 11, abs=1e-15)


def test_complete_in_ten_evaluates_missing_topics(tmp_path: Path) -> None:
    """Qrels topics 1 (2 relevant) and 2 (1 relevant); the run answers topic 1 only, finding
    one relevant document at rank 1: AP = 1/2. With -c both versions average over 2 topics
    (map 0.25); 10.0 also lists topic 2 (num_ret 0, num_rel 1, map 0) and counts it in num_q
    and num_rel; 9.x has num_q 2 too (`m_num_q.c` counts the qrels topics), without the rows
    of topic 2. num_rel's `all` row is 3 in both: with -c trec_eval counts
    every qrels grade above 0 (m_num_rel.c)."""
    index = GradeTable.from_mapping({"1": {b"a": 1, b"b": 1}, "2": {b"c": 1}})
    run = load_run(_run(tmp_path / "r", [("a", 1.0)]))
    selection = parse_trec(["num_q", "num_ret", "num_rel", "map"])
    old = evaluate_trec(index, run, selection, TrecOptions(complete=True, version=9))
    new = evaluate_trec(index, run, selection, TrecOptions(complete=True, version=10))
    assert old.topics == ["1"] and new.topics == ["1", "2"]
    assert new.values == {"num_ret": [1, 0], "num_rel": [2, 1], "map": [0.5, 0.0]}
    assert (old.summary["num_q"], old.summary["num_rel"], old.summary["map"]) == (2, 3, 0.25)
    assert (new.summary["num_q"], new.summary["num_rel"], new.summary["map"]) == (2, 3, 0.25)


def test_ties_rank_by_document_id_descending_whatever_the_rank_column(tmp_path: Path) -> None:
    """b, c and a all score 1.0; trec_eval ranks c, b, a. Only a is relevant: rank 3, AP 1/3."""
    run = load_run(_run(tmp_path / "r", [("b", 1.0), ("a", 1.0), ("c", 1.0)]))
    got = evaluate_trec(_index({"a": 1}), run, parse_trec(["map"]), TrecOptions())
    assert got.values["map"] == [pytest.approx(1 / 3, abs=1e-15)]


def test_only_negative_judgements_score_zero(tmp_path: Path) -> None:
    """A topic whose judgements are all negative has no relevant document: every measure 0
    (pytrec_eval does not return on such a topic). gm_map's and gm_bpref's per-topic values are
    ln(1e-5)."""
    run = load_run(_run(tmp_path / "r", [("a", 1.0)]))
    got = evaluate_trec(_index({"a": -1}), run, parse_trec(["all_trec"]), TrecOptions())
    values = {name: column[0] for name, column in got.values.items()}
    assert values.pop("num_ret") == 1
    assert values.pop("utility") == -1.0  # one document retrieved, not relevant: -1 by default
    # the one document is pooled but unjudged: unj_k = 1/k, rbp_resid = 0.9 + 0.1 * 1 = 1,
    # relstring '.'
    assert [values.pop(f"unj_{k}") for k in (5, 10, 20)] == [1 / 5, 1 / 10, 1 / 20]
    assert values.pop("rbp_resid") == pytest.approx(1.0) and values.pop("relstring") == "."
    assert values.pop("gm_map") == values.pop("gm_bpref") == math.log(1e-5)  # ln of 0 floored
    assert all(v == 0 for v in values.values()) and not np.isnan(list(values.values())).any()


PARAMETERS = ["P.3,7", "recall.2", "ndcg_cut.2,4", "map_cut.3", "success.2", "set_F.0.5",
              "iprec_at_recall.0.25,0.5", "11pt_avg.0.2,0.5"]  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from([1, 2]))
def test_parameters_as_trec_eval_takes_them(
    collection: tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]], level: int
) -> None:
    """`-m P.3,7` and friends equal pytrec_eval given the same strings (which names set_F and
    11pt_avg without their parameters, where trec_eval's layout appends them)."""
    qrels, run = collection
    answered = sorted(t for t in run if t in qrels)
    if not answered:
        return
    index = GradeTable.from_mapping(
        {t: {d.encode(): g for d, g in js.items()} for t, js in qrels.items()}
    )
    with tempfile.TemporaryDirectory() as folder:
        run_path = write_files(folder, qrels, run)[1]
        got = evaluate_trec(
            index,
            load_run(run_path),
            parse_trec(PARAMETERS),
            TrecOptions(level=level, version=9),
        )
    want = pytrec_eval.RelevanceEvaluator(qrels, set(PARAMETERS), relevance_level=level).evaluate(
        run
    )
    assert set(got.values) == {"P_3", "P_7", "recall_2", "ndcg_cut_2", "ndcg_cut_4", "map_cut_3",
                               "success_2", "set_F_0.5", "iprec_at_recall_0.25",
                               "iprec_at_recall_0.50", "11pt_avg_0.2,0.5"}  # fmt: skip
    for i, topic in enumerate(got.topics):
        for name, column in got.values.items():
            theirs = name.split("_0.")[0] if name.startswith(("set_F", "11pt")) else name
            assert column[i] == pytest.approx(want[topic][theirs], abs=1e-12), (topic, name)
