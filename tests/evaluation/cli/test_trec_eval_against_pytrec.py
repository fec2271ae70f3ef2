"""`focal trec_eval --trec-version 9` against pytrec_eval (trec_eval 9.0.x compiled), through
the whole command: GNU options, the files as written (extra fields, interleaved topics, ties),
random option combinations (-l, -J, -M, -c) and measure lists. Every per-topic value pytrec_eval
computes must agree to 1e-12, and without -c so must the `all` rows (plain means, sums for
counts; gm_* as exp of the mean log). pytrec_eval takes no -M, so its run is cut by hand; it
takes no -c, so with -c the topics it evaluates (the answered ones) are compared.
"""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.cli.trec_eval.command import evaluate, parse_arguments

DOCS = [f"d{i}" for i in range(10)] + ["D5", "d10a"]
TOPICS = ["1", "2", "10", "3b"]
# measure lists both programs take with the same strings (pytrec_eval names set_F and 11pt_avg
# without their parameters, so those stay at their defaults)
MEASURES = ["official", "all_trec", "P.3,7", "recall.2", "ndcg_cut.2,4", "map_cut.3",
            "success.2", "iprec_at_recall.0.25,0.5", "Rprec_mult.0.5", "utility.2,-1,0,0",
            "relative_P.2", "set_F", "11pt_avg", "ndcg", "binG", "G", "Rndcg",
            "ndcg_rel"]  # fmt: skip
GRADES = st.sampled_from([-1, 0, 0, 1, 1, 2, 3])
SCORES = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25, -1.0, 3.0])  # few values: many ties
GEOMETRIC = ("gm_map", "gm_bpref")


def same(a: float, b: float) -> bool:
    """Equal to 1e-12, NaN equal to NaN (trec_eval's 0/0 when -J leaves nothing retrieved)."""
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, abs_tol=1e-12)


SEPARATORS = [" ", "\t", "   "]


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Graded qrels (negative grades, topics without a relevant document) and a run (topics
    missing on either side)."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for topic in TOPICS:
        if draw(st.booleans()):
            judged = draw(st.dictionaries(st.sampled_from(DOCS), GRADES, min_size=1, max_size=8))
            if all(g < 0 for g in judged.values()):
                judged[DOCS[0]] = 0  # pytrec_eval never returns on all-negative judgements
            qrels[topic] = judged
        if draw(st.booleans()):
            run[topic] = draw(st.dictionaries(st.sampled_from(DOCS), SCORES, min_size=1))
    return qrels, run


def trec_order(scored: dict[str, float]) -> list[str]:
    """Score descending, then document id descending (byte order), written out independently."""
    return [d for d, _ in sorted(scored.items(), key=lambda x: (x[1], x[0].encode()), reverse=True)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cases(),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 5)),
    st.booleans(),
    st.lists(st.sampled_from(MEASURES), min_size=1, max_size=3, unique=True),
    st.randoms(use_true_random=False),
)
def test_version_9_equals_pytrec_eval(
    case: tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]],
    level: int, judged_only: bool, max_docs: int | None, complete: bool,
    measures: list[str], shuffle: random.Random,
) -> None:  # fmt: skip
    qrels, run = case
    answered = sorted(t for t in run if t in qrels)
    if not answered:
        return
    lines = [
        f"{t}{shuffle.choice(SEPARATORS)}Q0 {d} {i} {s!r} sys"
        + shuffle.choice(["", " extra", " more fields here"]) + "\n"
        for t, scored in run.items() for i, (d, s) in enumerate(scored.items())
    ]  # fmt: skip
    shuffle.shuffle(lines)  # topics interleaved; the rank column says nothing
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = Path(folder) / "q", Path(folder) / "r"
        qrels_path.write_text("".join(f"{t} 0 {d} {g}\n" for t, js in qrels.items()
                                      for d, g in js.items()))  # fmt: skip
        run_path.write_text("".join(lines))
        argv = ["--trec-version", "9", f"-l{level}", str(qrels_path), str(run_path)]
        argv += ["-J"] * judged_only + ["-c"] * complete
        argv += [f"-M{max_docs}"] if max_docs else []
        for measure in measures:
            argv += ["-m", measure]
        got, _ = evaluate(parse_arguments(argv))
    cut = {t: {d: run[t][d] for d in trec_order(run[t])[:max_docs]} for t in answered}
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, set(measures), relevance_level=level, judged_docs_only_flag=judged_only
    )
    want = evaluator.evaluate(cut)
    assert got.topics == answered
    names = [n for n in got.values if n != "relstring" and n in want[answered[0]]]
    for i, topic in enumerate(got.topics):
        for name in names:
            assert same(float(got.values[name][i]), want[topic][name]), (
                topic, name, got.values[name][i], want[topic][name],
            )  # fmt: skip
    if complete:
        return
    for name in names:
        column = [want[t][name] for t in answered]
        if name in ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"):
            expected = sum(column)
        elif name in GEOMETRIC:
            expected = math.exp(sum(column) / len(column))
        else:
            expected = sum(column) / len(column)
        assert same(float(got.summary[name]), expected), name


# scores a few units apart in the 10th significant digit: distinct doubles, and mostly one C
# float (9.0.x and pytrec_eval hold scores as float): ties that fall back to document order
BASES = [-0.00070817524, 0.1, 3.3, 12.5]
NEAR = st.tuples(st.sampled_from(BASES), st.integers(0, 3))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(TOPICS), st.dictionaries(st.sampled_from(DOCS), GRADES,
                                                             min_size=1, max_size=8), min_size=1),
    st.dictionaries(st.sampled_from(TOPICS), st.dictionaries(st.sampled_from(DOCS), NEAR,
                                                             min_size=1), min_size=1),
    st.lists(st.sampled_from(MEASURES), min_size=1, max_size=3, unique=True),
)  # fmt: skip
def test_version_9_ties_in_single_precision_as_pytrec_eval(
    qrels: dict[str, dict[str, int]], near: dict[str, dict[str, tuple[float, int]]],
    measures: list[str],
) -> None:  # fmt: skip
    """Scores equal in single but not in double precision rank as pytrec_eval ranks them
    (document id descending among them) with --trec-version 9; the default (10.0) keeps their
    double order, so on such files the two versions may differ."""
    qrels = {t: js if any(g >= 0 for g in js.values()) else {**js, DOCS[0]: 0}
             for t, js in qrels.items()}  # fmt: skip
    run = {
        t: {d: b * (1 + k * 1e-10) for d, (b, k) in scored.items()} for t, scored in near.items()
    }
    answered = sorted(t for t in run if t in qrels)
    if not answered:
        return
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = Path(folder) / "q", Path(folder) / "r"
        qrels_path.write_text("".join(f"{t} 0 {d} {g}\n" for t, js in qrels.items()
                                      for d, g in js.items()))  # fmt: skip
        run_path.write_text("".join(f"{t} Q0 {d} 0 {s!r} sys\n" for t, scored in run.items()
                                    for d, s in scored.items()))  # fmt: skip
        argv = ["--trec-version", "9", str(qrels_path), str(run_path)]
        for measure in measures:
            argv += ["-m", measure]
        got, _ = evaluate(parse_arguments(argv))
    want = pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(
        {t: run[t] for t in answered}
    )
    names = [n for n in got.values if n != "relstring" and n in want[answered[0]]]
    for i, topic in enumerate(got.topics):
        for name in names:
            assert same(float(got.values[name][i]), want[topic][name]), (topic, name)
