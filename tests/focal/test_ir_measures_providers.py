"""trectools' `RBP(p=…, rel=…)@k` and the compat provider's `Compat(p=…, normalize=…)` through
`focal.evaluate`, per topic equal to ir_measures to 1e-12 (docs/measures.md, "ir_measures'
measures"): on generated graded qrels and runs full of tied scores (within a topic, across
topics, at the cut-off; negative grades, topics only one side has), and on INEX 2010 converted
to graded TREC qrels when the shared data is there.

ir_measures leaves its trectools provider out of its default pipeline, so the comparison asks
`ir_measures.trectools` and `ir_measures.compat` themselves. That provider refuses `rel=`: the
comparison of `RBP(rel=g)` is trectools' RBP on the qrels binarised at g (grade g or more: 1),
which is what ir_measures' `rel` means.
"""

from __future__ import annotations

import math
import tempfile
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import focal

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("trectools", reason="trectools (ir_measures' RBP provider) is not installed")
M = ir_measures.measures

RBPS = [M.RBP, M.RBP(p=0.9), M.RBP @ 3, M.RBP(p=0.5) @ 2, M.RBP(p=0.95) @ 1]
COMPATS = [M.Compat, M.Compat(p=0.8), M.Compat(normalize=False), M.Compat(p=0.5, normalize=False)]
LEVELS = (1, 2)  # RBP(rel=g)@k compared for these g


def theirs(measures: Iterable[Any], qrels: list[Any], run: list[Any]) -> dict[tuple[str, str],
                                                                             float]:  # fmt: skip
    """ir_measures' per-topic values, each measure through the provider that computes it: the
    Compats in one call, each RBP in a call of its own (the trectools provider's invocations
    all read the last RBP's p and cut-off when given several at once)."""
    values = {}
    compats = [m for m in measures if m.NAME == "Compat"]
    calls = [(ir_measures.compat, compats)] if compats else []
    calls += [(ir_measures.trectools, [m]) for m in measures if m.NAME != "Compat"]
    with warnings.catch_warnings():  # (pandas' notices about trectools' own code)
        warnings.simplefilter("ignore")
        for provider, given in calls:
            for metric in provider.iter_calc(given, qrels, run):
                values[(str(metric.measure), metric.query_id)] = metric.value
    return values


def ours(qrels_path: str, run_path: str, names: list[Any]) -> dict[tuple[str, str], float]:
    frame = focal.evaluate(qrels_path, {"r": run_path}, names, per_topic=True, complete=True)
    return {(row.measure, row.topic): row.value for row in frame.itertuples()}


def binarised(qrels: list[Any], level: int) -> list[Any]:
    return [q._replace(relevance=int(q.relevance >= level)) for q in qrels]


def assert_equal(qrels_path: str, run_path: str, ranks: int | None = None) -> int:
    """Every measure of RBPS and COMPATS, by object and by name, and `RBP(rel=g)` (its @k too),
    equal to ir_measures per topic; the number of values compared."""
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    run = list(ir_measures.read_trec_run(run_path))
    asked = [*RBPS, *COMPATS]
    expected = theirs(asked, qrels, run)
    k = ranks or 5
    for level in LEVELS:
        for plain, graded in (
            (M.RBP, M.RBP(rel=level)),
            (M.RBP(p=0.7) @ k, M.RBP(p=0.7, rel=level) @ k),
        ):
            asked.append(graded)
            for (_, topic), value in theirs([plain], binarised(qrels, level), run).items():
                expected[(str(graded), topic)] = value
    topics = {q.query_id for q in qrels}
    assert len(expected) == len(asked) * len(topics)
    by_object = ours(qrels_path, run_path, asked)
    by_name = ours(qrels_path, run_path, [str(measure) for measure in asked])
    for key, value in expected.items():
        assert math.isclose(by_name[key], value, rel_tol=0.0, abs_tol=1e-12), (key, value)
        assert math.isclose(by_object[key], value, rel_tol=0.0, abs_tol=1e-12), (key, value)
    return len(expected)


TOPICS = st.sampled_from(["1", "2", "10", "q3"])  # (string order is not numeric order)
DOCS = st.sampled_from([f"d{i}" for i in range(8)])
SCORES = st.sampled_from([2.5, 1.0, 0.5, 0.0, -1.0, 0.25])  # few values: ties everywhere


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(TOPICS, DOCS, st.integers(-1, 3)), min_size=1, max_size=25,
             unique_by=lambda row: row[:2]),
    st.lists(st.tuples(TOPICS, DOCS, SCORES), min_size=1, max_size=30,
             unique_by=lambda row: row[:2]),
)  # fmt: skip
def test_generated_qrels_and_runs_equal_ir_measures(
    judged: list[tuple[str, str, int]], ranked: list[tuple[str, str, float]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = Path(folder) / "q.qrels", Path(folder) / "r.run"
        qrels_path.write_text("".join(f"{t} 0 {d} {g}\n" for t, d, g in judged))
        run_path.write_text("".join(f"{t} Q0 {d} 0 {s!r} r\n" for t, d, s in ranked))
        assert assert_equal(str(qrels_path), str(run_path), ranks=2) > 0


def test_ties_across_topics_share_their_weights_as_trectools_shares_them(tmp_path: Path) -> None:
    """trectools averages the weights of a stretch of equal scores on the whole sorted table:
    topic 1's last score equal to topic 2's first joins them (Focal follows, to equal it)."""
    qrels, run, apart = tmp_path / "q", tmp_path / "r", tmp_path / "r2"
    qrels.write_text("1 0 a 1\n2 0 x 1\n")
    run.write_text("1 Q0 a 0 1.0 r\n1 Q0 b 0 0.5 r\n2 Q0 x 0 0.5 r\n")  # b (rank 2) ties x
    apart.write_text("1 Q0 a 0 1.0 r\n1 Q0 b 0 0.5 r\n2 Q0 x 0 0.25 r\n")
    p = 0.8  # ir_measures' default
    tied, alone = ours(str(qrels), str(run), ["RBP"]), ours(str(qrels), str(apart), ["RBP"])
    assert tied[("RBP", "1")] == alone[("RBP", "1")] == pytest.approx(1 - p)
    assert alone[("RBP", "2")] == pytest.approx(1 - p)
    assert tied[("RBP", "2")] == pytest.approx(((1 - p) + (1 - p) * p) / 2)  # ranks 1 and 2
    assert assert_equal(str(qrels), str(run)) > 0


def test_inex2010_graded_equals_ir_measures(inex2010: Path, tmp_path: Path) -> None:
    qrels = tmp_path / "graded.qrels"
    lines = []
    for line in (inex2010 / "inex2010.qrels").read_text().splitlines():
        topic, _, article, rel_chars, article_chars = line.split()[:5]
        fraction = int(rel_chars) / max(int(article_chars), 1)
        lines.append(f"{topic} 0 {article} {0 if not fraction else min(3, 1 + int(3 * fraction))}")
    qrels.write_text("\n".join(lines) + "\n")
    for path in sorted((inex2010 / "runs").glob("*.fol.run"))[:2]:
        run = focal.read_run(str(path)).groupby(["query_id", "doc_id"], as_index=False)["score"]
        out = tmp_path / path.name
        out.write_text("".join(f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in run.max().itertuples(
            False)))  # fmt: skip
        assert assert_equal(str(qrels), str(out), ranks=10) >= 50 * 10


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("RBP(p=1.5)", "p= takes a persistence from 0 to 1"),
        ("RBP(beta=2)", "argument beta= is not one this measure takes"),
        ("RBP(rel=x)", "rel= takes a grade"),
        ("Compat@10", "Compat takes no cut-off"),
        ("Compat(normalize=yes)", "normalize= takes True or False"),
        ("Compat(rel=2)", "argument rel= is not one this measure takes"),
    ],
)
def test_bad_parameters_say_what_is_expected(tmp_path: Path, name: str, expected: str) -> None:
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("1 0 a 1\n")
    run.write_text("1 Q0 a 0 0.5 r\n")
    with pytest.raises(ValueError, match=expected):
        focal.evaluate(str(qrels), {"r": str(run)}, [name])


@pytest.mark.parametrize("name", ["RBP", "Compat"])
def test_trec_eval_command_refuses_them_saying_where_they_are(name: str) -> None:
    """`focal trec_eval` keeps trec_eval 10.0's own vocabulary (its `rbp` is not trectools'
    RBP): the refusal says which of Focal's entry points computes the name."""
    from focal.evaluation.measures.grammar import NotProvided
    from focal.evaluation.measures.trec_eval.names import parse_name

    with pytest.raises(NotProvided, match=r"focal\.evaluate` or `focal eval --task articles"):
        parse_name(name)
