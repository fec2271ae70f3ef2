"""The vectorised measures against a slow, obviously-correct oracle on random qrels and runs.

The oracle works on sets of character positions, one line at a time, and interpolates by the
definition `iP[x] = max{P[r] : bin(R[r]) ≥ x}`; it shares no code with `focal.evaluation.measures`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.records import Judgement, Result, Run
from focal.evaluation.measures.evaluate import aggregate, evaluate

ARTICLES = ["a", "b", "c", "d", "e", "f"]
X_POSITIONS = set(range(-10000, -10000 + 18))


# ---------------------------------------------------------------- the oracle


def positions(result: Result) -> set[int]:
    if result.missing:
        return set(X_POSITIONS)
    assert result.start is not None and result.length is not None
    return set(range(result.start, result.start + result.length))


def relevant_positions(judgement: Judgement | None) -> set[int]:
    if judgement is None:
        return set()
    return {p for s, e in judgement.passages for p in range(s, e)}


def recall_bin(found: int, total: int, levels: int, strict: bool) -> int:
    if total == 0:
        return 0
    if strict:
        return math.floor(Fraction(levels * found, total))
    return math.floor(levels * (found / total))


def interpolate(points: list[tuple[float, int]], levels: int) -> list[float]:
    return [max((p for p, b in points if b >= x), default=0.0) for x in range(levels + 1)]


def oracle_focused(
    judged: dict[str, Judgement], results: list[Result], thorough: bool, strict: bool
) -> dict[str, float]:
    total = sum(j.rel_chars for j in judged.values())
    relevant_articles = {a for a, j in judged.items() if j.rel_chars > 0}
    seen: dict[str, set[int]] = {}
    relret = ret = 0
    points = []
    for result in results:
        span = positions(result)
        if thorough and result.article in relevant_articles:
            before = seen.setdefault(result.article, set())
            new = span - before
            before |= span
            span = new
        relret += len(span & relevant_positions(judged.get(result.article)))
        ret += len(span)
        points.append((relret / ret if ret else 0.0, recall_bin(relret, total, 100, strict)))
    curve = interpolate(points, 100)
    retrieved = {r.article for r in results}
    values = {
        "num_ret": len(retrieved),
        "num_rel": len(relevant_articles),
        "num_rel_ret": len(retrieved & relevant_articles),
        "ret_size": ret,
        "rel_size": total,
        "rel_ret_size": relret,
        "char_prec": relret / ret if ret else 0.0,
        "char_rec": relret / total if total else 0.0,
        "AiP": sum(curve) / 101,
    }
    for x in (0, 1, 5, 10):
        values[f"iP[{x / 100:.2f}]"] = curve[x]
    return values


def read_until_tolerance(judgement: Judgement, retrieved: list[set[int]], irr: int) -> float:
    """T2I: read retrieved passages by offset, then every unread character in order."""
    order: list[int] = []
    for span in sorted(retrieved, key=min):
        order.extend(sorted(span))
    done = set(order)
    order.extend(p for p in range(judgement.article_chars) if p not in done)
    relevant = relevant_positions(judgement)
    read = good = bad = 0
    for p in order:
        read += 1
        if p in relevant:
            good += 1
        else:
            bad += 1
            if bad == irr:
                break
    return good / read if read else 0.0


def oracle_article_score(
    task: str, judgement: Judgement | None, lines: list[Result], beta: float, n: int, irr: int
) -> float:
    if judgement is None or judgement.rel_chars == 0:
        return 0.0
    spans = [positions(r) for r in lines]
    if task == "bic":
        offset = -10000 if lines[0].missing else lines[0].start
        assert offset is not None
        if judgement.bep is None or abs(judgement.bep - offset) > n:
            return 0.0
        return (n - abs(judgement.bep - offset)) / n
    if task == "t2i":
        return read_until_tolerance(judgement, spans, irr)
    rel = sum(len(s & relevant_positions(judgement)) for s in spans)
    ret = sum(len(s) for s in spans)
    if rel == 0:
        return 0.0
    p, r = rel / ret, rel / judgement.rel_chars
    return (1 + beta**2) * p * r / (beta**2 * p + r)


def oracle_in_context(
    task: str,
    judged: dict[str, Judgement],
    results: list[Result],
    strict: bool,
    beta: float = 0.25,
    n: int = 500,
    irr: int = 300,
) -> dict[str, float]:
    ranked: dict[str, list[Result]] = {}
    for result in results:
        ranked.setdefault(result.article, []).append(result)
    num_rel = sum(1 for j in judged.values() if j.rel_chars > 0)
    gp, gr, totals, founds, agp, total, found = [], [], [], [], 0.0, 0.0, 0
    for rank, (article, lines) in enumerate(ranked.items(), 1):
        total += oracle_article_score(task, judged.get(article), lines, beta, n, irr)
        is_relevant = article in judged and judged[article].rel_chars > 0
        found += is_relevant
        gp.append(total / rank)
        totals.append(total)
        founds.append(found)
        gr.append(found / num_rel if num_rel else 0.0)
        if is_relevant:
            agp += total / rank
    values: dict[str, float] = {"AgP": agp / num_rel if num_rel else 0.0}
    for k in (1, 2, 3, 5, 10, 25, 50):
        at = min(k, len(gp))
        values[f"gP[{k}]"] = totals[at - 1] / k if strict else gp[at - 1]
        values[f"gR[{k}]"] = gr[at - 1]
    bins = [recall_bin(f, num_rel, 10, strict) for f in founds]
    values["curve"] = interpolate(list(zip(gp, bins, strict=True)), 10)  # type: ignore[assignment]
    return values


# ---------------------------------------------------------------- random inputs


@st.composite
def judgement(draw: st.DrawFn, topic: str, article: str) -> Judgement:
    size = draw(st.integers(1, 60))
    cuts = sorted(draw(st.sets(st.integers(0, size), max_size=6)))
    passages = tuple(
        (cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2) if cuts[i] < cuts[i + 1]
    )
    rel = sum(e - s for s, e in passages)
    bep = draw(st.integers(0, size + 20)) if rel else None
    return Judgement(topic, article, rel, size, bep, passages if rel else (), 0)


@st.composite
def qrels_and_run(draw: st.DrawFn) -> tuple[dict[str, dict[str, Judgement]], Run]:
    topics = draw(st.lists(st.sampled_from(["1", "2", "3"]), min_size=1, max_size=3, unique=True))
    qrels = {}
    for topic in topics:
        judged = draw(st.lists(st.sampled_from(ARTICLES[:4]), max_size=4, unique=True))
        qrels[topic] = {a: draw(judgement(topic, a)) for a in judged}
    run = Run("random", "random.run", "fol")
    line = 0
    for topic in draw(
        st.lists(st.sampled_from(["1", "2", "3", "9"]), min_size=1, max_size=4, unique=True)
    ):
        results = []
        for _ in range(draw(st.integers(1, 12))):
            line += 1
            article = draw(st.sampled_from(ARTICLES))
            if draw(st.integers(0, 9)) == 0:
                results.append(Result(topic, article, line, 0.0, line, missing=True))
            else:
                start, length = draw(st.integers(0, 70)), draw(st.integers(1, 30))
                results.append(Result(topic, article, line, 0.0, line, start=start, length=length))
        run.topics[topic] = results
    return qrels, run


def without_overlap(run: Run, one_per_article: bool = False, grouped: bool = False) -> Run:
    """Drop results that overlap an earlier one of their article; optionally group articles."""
    topics = {}
    for topic, results in run.topics.items():
        kept: list[Result] = []
        for result in results:
            same = [r for r in kept if r.article == result.article]
            if one_per_article and same:
                continue
            if not result.missing and any(
                not r.missing and positions(r) & positions(result) for r in same
            ):
                continue
            kept.append(result)
        if grouped:
            order = list(dict.fromkeys(r.article for r in kept))
            kept = [r for a in order for r in kept if r.article == a]
        topics[topic] = kept
    return Run(run.run_id, run.file, run.kind, topics)


def check_close(actual: dict[str, int | float], expected: dict[str, float]) -> None:
    for name, value in expected.items():
        if name != "curve":
            assert actual[name] == pytest.approx(value, abs=1e-12, rel=0), name


# ---------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(qrels_and_run(), st.booleans(), st.booleans())
def test_focused_and_thorough_match_the_oracle(
    data: tuple[dict[str, dict[str, Judgement]], Run], thorough: bool, strict: bool
) -> None:
    qrels, run = data
    run = run if thorough else without_overlap(run)
    evaluation = evaluate(qrels, run, "thorough" if thorough else "focused", strict=strict)
    for topic in evaluation.topics:
        expected = oracle_focused(
            dict(qrels[topic.topic]), run.topics[topic.topic], thorough, strict
        )
        check_close(topic.values, expected)
    assert [t.topic for t in evaluation.topics] == [t for t in run.topics if t in qrels]
    assert evaluation.unknown_topics == [t for t in run.topics if t not in qrels]


@settings(max_examples=150, deadline=None)
@given(qrels_and_run(), st.sampled_from(["ric", "bic", "t2i"]), st.booleans(), st.integers(1, 40))
def test_in_context_tasks_match_the_oracle(
    data: tuple[dict[str, dict[str, Judgement]], Run], task: str, strict: bool, irr: int
) -> None:
    qrels, run = data
    run = without_overlap(run, one_per_article=task == "bic", grouped=True)
    run.topics = {t: r for t, r in run.topics.items() if r}
    evaluation = evaluate(qrels, run, task, strict=strict, irr=irr, n=20, beta=0.5)
    for topic in evaluation.topics:
        expected = oracle_in_context(
            task, dict(qrels[topic.topic]), run.topics[topic.topic], strict, beta=0.5, n=20, irr=irr
        )
        check_close(topic.values, expected)
        assert topic.curve == pytest.approx(expected["curve"], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(qrels_and_run(), st.sampled_from(["focused", "thorough", "ric", "t2i"]), st.randoms())
def test_permuting_topics_changes_no_average(
    data: tuple[dict[str, dict[str, Judgement]], Run], task: str, random: Random
) -> None:
    qrels, run = data
    run = without_overlap(run, grouped=task in ("ric", "t2i"))
    run.topics = {t: r for t, r in run.topics.items() if r}
    shuffled = list(run.topics.items())
    random.shuffle(shuffled)
    other = Run(run.run_id, run.file, run.kind, dict(shuffled))
    for complete in (False, True):
        first = aggregate(evaluate(qrels, run, task, complete=complete))
        second = aggregate(evaluate(qrels, other, task, complete=complete))
        assert first.keys() == second.keys()
        for name in first:
            assert first[name] == pytest.approx(second[name], abs=1e-12)
