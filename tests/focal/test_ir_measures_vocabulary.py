"""Every measure of ir_measures' pytrec_eval, gdeval and trectools providers through
`focal.evaluate`, by name and as an ir_measures object, per topic equal to ir_measures on INEX
2010 converted to graded TREC qrels (docs/measures.md, "ir_measures' measures").

ir_measures' pytrec_eval provider is trec_eval 9.0.x, so the call asks for `trec_version=9`
(10.0 rounds IPrec's recall cut-offs differently; docs/trec_eval.md, "The two versions"). The
qrels grade an article by its relevant fraction (0 none, 1 up to a third, 2 up to two
thirds, 3 more); each run is the best score of each article. gdeval.pl prints five decimals, so
its two measures agree to half a unit of the fifth; every other to 1e-12. trectools' RBP and
the compat provider's Compat are compared in tests/focal/test_ir_measures_providers.py; the
measures no provider of these computes are refused, saying which package does.
"""

from __future__ import annotations

import glob
import math
from pathlib import Path
from typing import Any

import pytest

import focal

ir_measures = pytest.importorskip("ir_measures")
M = ir_measures.measures


def measures() -> list[Any]:
    """ir_measures' objects, parameters included (`rel`, `judged_only`, `gains`, `dcg`,
    `relative`, `beta`, cut-offs, IPrec's recall levels)."""
    gains = {0: 0, 1: 1, 2: 3, 3: 7}
    return [
        M.P @ 10, M.P(rel=2) @ 5, M.P(judged_only=True) @ 10, M.RR, M.RR(rel=2),
        M.RR(judged_only=True), M.Rprec, M.Rprec(rel=2), M.AP, M.AP @ 100, M.AP(rel=2),
        M.AP(judged_only=True), M.nDCG, M.nDCG @ 10, M.nDCG(gains=gains) @ 10,
        M.nDCG(gains=gains), M.nDCG(judged_only=True) @ 10, M.R @ 100,
        M.R(judged_only=True) @ 50, M.Bpref, M.Bpref(rel=2), M.NumRet, M.NumRet(rel=2),
        M.NumRelRet, M.NumQ, M.NumRel, M.SetAP, M.SetAP(rel=2), M.SetF, M.SetF(beta=0.5),
        M.SetF(rel=2), M.SetP, M.SetP(relative=True), M.SetR, M.SetR(rel=2), M.Success @ 5,
        M.Success(rel=2) @ 10, M.IPrec @ 0.0, M.IPrec @ 0.1, M.IPrec @ 0.5, M.IPrec @ 1.0,
        M.infAP, M.nDCG(dcg="exp-log2") @ 10, M.ERR @ 20,
    ]  # fmt: skip


GDEVAL = ("ERR", "nDCG(dcg='exp-log2')")


def tolerance(measure: Any) -> float:
    return 5e-6 + 1e-12 if str(measure).startswith(GDEVAL) else 1e-12  # (a half rounds up)


@pytest.fixture(scope="module")
def graded(inex2010: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    folder = tmp_path_factory.mktemp("graded")
    qrels = folder / "graded.qrels"
    lines = []
    for line in (inex2010 / "inex2010.qrels").read_text().splitlines():
        topic, _, article, rel_chars, article_chars = line.split()[:5]
        fraction = int(rel_chars) / max(int(article_chars), 1)
        lines.append(f"{topic} 0 {article} {0 if not fraction else min(3, 1 + int(3 * fraction))}")
    qrels.write_text("\n".join(lines) + "\n")
    runs = []
    for path in sorted(glob.glob(str(inex2010 / "runs" / "*.fol.run")))[:3]:
        run = focal.read_run(path).groupby(["query_id", "doc_id"], as_index=False)["score"].max()
        out = folder / Path(path).name
        out.write_text("".join(f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in run.itertuples(False)))
        runs.append(str(out))
    return str(qrels), runs


@pytest.mark.parametrize("form", ["object", "name"])
def test_every_measure_equals_ir_measures_per_topic(
    graded: tuple[str, list[str]], form: str
) -> None:
    qrels_path, runs = graded
    asked = measures()
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    for path in runs:
        names = asked if form == "object" else [str(m) for m in asked]
        frame = focal.evaluate(
            qrels_path, {"r": path}, names, per_topic=True, complete=True, trec_version=9
        )  # ir_measures' pytrec_eval is trec_eval 9.0.x
        ours = {(row.measure, row.topic): row.value for row in frame.itertuples()}
        run = list(ir_measures.read_trec_run(path))
        answered = {row.query_id for row in run}
        compared = 0
        # one measure a call: given together, ir_measures' pytrec_eval provider may compute a
        # measure without options (NumRet) in the invocation of another's (judged_only=True)
        every = (
            metric for measure in asked for metric in ir_measures.iter_calc([measure], qrels, run)
        )
        for metric in every:
            if metric.query_id not in answered:  # (test_unanswered_topics_...)
                continue
            got = ours[(str(metric.measure), metric.query_id)]
            assert math.isclose(got, metric.value, abs_tol=tolerance(metric.measure)), (
                metric, got)  # fmt: skip
            compared += 1
        assert compared >= len(asked) * 10


def test_what_no_engine_computes_says_who_does(graded: tuple[str, list[str]]) -> None:
    qrels_path, runs = graded
    for measure, package in ((M.alpha_nDCG @ 10, "pyndeval"), (M.INST, "cwl"),
                             (M.SDCG @ 10, "cwl")):  # fmt: skip
        with pytest.raises(ValueError, match=package):
            focal.evaluate(qrels_path, {"r": runs[0]}, [measure])


def test_unanswered_topics_follow_trec_eval_for_num_rel(graded: tuple[str, list[str]]) -> None:
    """A qrels topic the run never answers: with `complete=True` every measure is 0, as in
    ir_measures, but NumRel, which is the topic's relevant count (trec_eval -c's convention:
    the relevant documents exist whatever the run) where ir_measures gives 0; docs/measures.md
    shows how to get ir_measures' convention."""
    qrels_path, runs = graded
    run = list(ir_measures.read_trec_run(runs[0]))
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    answered = {row.query_id for row in run}
    missing = sorted({row.query_id for row in qrels} - answered)
    assert missing
    frame = focal.evaluate(qrels_path, {"r": runs[0]}, ["NumRel", "AP", "NumRet"],
                           per_topic=True, complete=True)  # fmt: skip
    ours = {(row.measure, row.topic): row.value for row in frame.itertuples()}
    relevant = {t: sum(1 for q in qrels if q.query_id == t and q.relevance >= 1) for t in missing}
    theirs = {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(
        [M.NumRel, M.AP, M.NumRet], qrels, run) if m.query_id in missing}  # fmt: skip
    for topic in missing:
        assert ours[("AP", topic)] == theirs[("AP", topic)] == 0.0
        assert ours[("NumRet", topic)] == theirs[("NumRet", topic)] == 0.0
        assert ours[("NumRel", topic)] == relevant[topic] and theirs[("NumRel", topic)] == 0.0
    numret = frame[frame["measure"] == "NumRet"].set_index("topic")["value"]
    theirs_way = frame.assign(value=frame["value"].where(
        (frame["measure"] != "NumRel") | ~frame["topic"].map(numret.eq(0)), 0.0))  # fmt: skip
    assert all(theirs_way[(theirs_way.measure == "NumRel") & theirs_way.topic.isin(missing)].value
               == 0.0)  # fmt: skip
