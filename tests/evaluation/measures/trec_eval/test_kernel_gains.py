"""The cumulated-gain families in C (_kernel_gains.c: binG, G, dcg, ideal_dcg, ndcg, ndcg_cut,
ndcg_rel, Rndcg, and rbp, whose gains are the same table's) against the numpy families'
`topic_values`, bit for bit (NaN-aware, the sign of a zero included), through the C part's
`measure_topics`: random rankings of 0-60 documents with grades -2..4 (and grades past 63 in a
second test), judged documents per grade consistent with them, gains given (`ndcg.1=3,2=9`:
integral and quarter gains, repeated, signed and non-integer names, rbp's `p`) and not,
relevance levels 0-3, versions 9 and 10 (docs/trec_eval.md, "The C part").

Gains closer than 1 to another level's are kept to tables whose comparison (the integer part
of the difference, gain_table.gains) is a consistent order: otherwise the numpy family's order
is list.sort's, which CPython 3.13 changed; and given gains are multiples of 1/4 so that the
ideal's sum is exact, whichever way CPython's sum adds (3.12 compensates)."""

from __future__ import annotations

import math
import os
import struct
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

from focal.evaluation.measures.trec_eval.families.declarations import Selection, topic_values
from focal.evaluation.measures.trec_eval.families.gain_table import Gain, gains
from focal.evaluation.measures.trec_eval.families.ideal import running_sums
from focal.evaluation.measures.trec_eval.families.measure import Ranked
from focal.evaluation.measures.trec_eval.names import parse_trec

from .kernel_build import kernel_or_skip

KERNEL = kernel_or_skip()

EXAMPLES = int(os.environ.get("FOCAL_FUZZ_EXAMPLES", "150"))
LENIENT = [HealthCheck.too_slow, HealthCheck.filter_too_much]
CHECK = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                 suppress_health_check=LENIENT)  # fmt: skip
FAMILIES = ("binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "rbp")
PAIR_FAMILIES = ("G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "rbp")
NOT_IN_9 = ("dcg", "ideal_dcg", "rbp")
NAMES = st.sampled_from(["0", "1", "2", "3", "4", "5", "7", "-1", "-2", "+2", "02", "p",
                         "1x", ""])  # fmt: skip
GAINS = st.one_of(st.integers(-3, 12).map(float), st.integers(-12, 48).map(lambda q: q / 4))


@dataclass(frozen=True)
class Topic:
    """One topic: its ranked grades and its judged documents per grade 0..largest."""

    grades: list[int]
    per_grade: list[int]


@st.composite
def topics(draw: st.DrawFn, largest: int = 4) -> Topic:
    """A ranking of -2..`largest` grades, and judged documents per grade that hold it: those
    retrieved and up to three more of each grade, the list ending at a grade with some."""
    grades = draw(st.lists(st.integers(-2, largest), max_size=60))
    extra = draw(st.lists(st.integers(0, 3), min_size=largest + 1, max_size=largest + 1))
    counts = [grades.count(grade) + extra[grade] for grade in range(largest + 1)]
    while counts and counts[-1] == 0:
        counts.pop()
    return Topic(grades, counts)


@st.composite
def pairs(draw: st.DrawFn) -> str:
    """`name=value,...` as typed after `-m ndcg.`: a document outside the pool or unjudged
    never gains more than 0 (its gain would make G's log2 argument negative, where the numpy
    family raises and trec_eval prints NaN)."""
    items = draw(st.lists(st.tuples(NAMES, GAINS), min_size=1, max_size=4))
    return ",".join(f"{n}={-abs(v) if n.startswith('-') else v!r}" for n, v in items)


def ranked(chosen: list[Topic], level: int) -> Ranked:
    """The topics as the numpy families read them: the ideal DCG of the positive judged grades,
    best first, summed topic by topic as engine/grades.py sums it."""
    sizes = [len(topic.grades) for topic in chosen]
    best = [grade for t in chosen for grade in range(len(t.per_grade) - 1, 0, -1)
            for _ in range(t.per_grade[grade])]  # fmt: skip
    positive = [sum(topic.per_grade[1:]) for topic in chosen]
    ranks = np.concatenate([np.arange(n) for n in positive]) if chosen else np.zeros(0)
    terms = np.array(best, dtype=np.float64) / np.log2(ranks + 2.0)
    return Ranked(
        np.array([g for topic in chosen for g in topic.grades], dtype=np.int64),
        np.cumsum([0, *sizes])[:-1].astype(np.int64),
        np.array([sum(t.per_grade[level:]) for t in chosen], dtype=np.int64),
        np.array([sum(t.per_grade[:level]) for t in chosen], dtype=np.int64),
        running_sums(terms, np.array(positive, dtype=np.int64)),
        [np.array(topic.per_grade, dtype=np.int64) for topic in chosen],
    )


def c_values(
    selection: Selection, chosen: list[Topic], level: int, version: int
) -> list[tuple[float, ...]]:
    """Every row's value per topic from the C part's `measure_topics`."""
    rows = [(row.family, row.parameter, (), selection.pairs.get(row.family, ()))
            for row in selection.rows()]  # fmt: skip
    sizes = [len(topic.grades) for topic in chosen]
    answer = KERNEL.measure_topics(
        rows, level, version, 0,
        np.array([g for topic in chosen for g in topic.grades], dtype=np.int64),
        np.cumsum([0, *sizes])[:-1].astype(np.int64),
        np.array([sum(t.per_grade[level:]) for t in chosen], dtype=np.int64),
        np.array([sum(t.per_grade[:level]) for t in chosen], dtype=np.int64),
        [np.array(topic.per_grade, dtype=np.int64) for topic in chosen],
    )  # fmt: skip
    assert answer is not None, f"the C part left these rows to numpy: {rows}"
    return list(answer)


def same(ours: float, theirs: float) -> bool:
    """The same double, bit for bit; any NaN is any NaN."""
    if math.isnan(ours) or math.isnan(theirs):
        return math.isnan(ours) and math.isnan(theirs)
    return struct.pack("<d", ours) == struct.pack("<d", theirs)


def orderly(specs: list[str], chosen: list[Topic]) -> bool:
    """Whether trec_eval's comparison of gains is a consistent order on every table (gains
    closer than 1 compare equal: that must not chain two that do not)."""
    for spec in specs:
        if "=" not in spec:
            continue
        named = parse_trec([spec]).pairs
        for given_pairs in named.values():
            for topic in chosen:
                table = gains(given_pairs, np.array(topic.per_grade, dtype=np.int64))
                if not _consistent(table):
                    return False
    return True


def _consistent(table: list[Gain]) -> bool:
    """Gains closer than 1 compare equal: an order when they fall in clusters each spanning
    less than 1, with 1 or more between clusters."""
    values = sorted(level.gain for level in table)
    start = 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] - values[i - 1] >= 1:
            if values[i - 1] - values[start] >= 1:
                return False
            start = i
    return True


def check(specs: list[str], chosen: list[Topic], level: int, version: int) -> None:
    selection = parse_trec(specs, version)
    try:
        expected = topic_values(ranked(chosen, level), selection, level, version)
    except (ValueError, ZeroDivisionError):  # (G's log2 of 1 or less, rbp's gains all equal)
        reject()  # the numpy family raises where trec_eval divides by 0: nothing to compare
    found = c_values(selection, chosen, level, version)
    assert len(found) == len(chosen)
    for index, row in enumerate(selection.rows()):
        column = np.asarray(expected[row.name]).tolist()
        for topic, values in enumerate(found):
            assert same(values[index], column[topic]), (
                f"{row.name} topic {topic}: C {values[index]!r}, numpy {column[topic]!r} "
                f"({chosen[topic]})"
            )


@st.composite
def selections(draw: st.DrawFn, version: int) -> list[str]:
    """Some gain families, each with its default parameters, cut-offs or gains given."""
    families = draw(st.lists(st.sampled_from(FAMILIES), min_size=1, max_size=5, unique=True))
    specs = []
    for family in families:
        if version == 9 and family in NOT_IN_9:
            continue
        if family == "ndcg_cut" and draw(st.booleans()):
            cuts = draw(st.lists(st.integers(1, 70), min_size=1, max_size=3, unique=True))
            specs.append(f"ndcg_cut.{','.join(map(str, cuts))}")
        elif family in PAIR_FAMILIES and draw(st.booleans()):
            specs.append(f"{family}.{draw(pairs())}")
        else:
            specs.append(family)
    return specs or ["binG"]


@CHECK
@given(st.data())
def test_the_gain_families_are_the_numpy_families_bit_for_bit(data: st.DataObject) -> None:
    version = data.draw(st.sampled_from([9, 10]))
    specs = data.draw(selections(version))
    chosen = data.draw(st.lists(topics(), min_size=1, max_size=4))
    assume(orderly(specs, chosen))
    check(specs, chosen, data.draw(st.integers(0, 3)), version)


@settings(max_examples=max(EXAMPLES // 5, 10), deadline=None, derandomize=True,
          suppress_health_check=LENIENT)  # fmt: skip
@given(st.data())
def test_grades_past_63_and_long_gain_tables_too(data: st.DataObject) -> None:
    # more than 64 levels: the table is sorted past CPython's short-list way, and a rank's
    # gain is looked up in the table rather than among the first grades'
    specs = data.draw(selections(10))
    chosen = data.draw(st.lists(topics(largest=70), min_size=1, max_size=2))
    assume(orderly(specs, chosen))
    check(specs, chosen, data.draw(st.integers(0, 3)), 10)


def test_gains_given_reach_the_families_and_change_the_values() -> None:
    # one topic, grades 2 then 1 retrieved, one more judged document of grade 1: gains 1=3,2=9
    # make grade 2's document worth 9 (the values differ from the grades' own)
    chosen = [Topic([2, 1, -1], [0, 2, 1])]
    plain = c_values(parse_trec(["dcg"]), chosen, 1, 10)[0][0]
    given_gains = c_values(parse_trec(["dcg.1=3,2=9"]), chosen, 1, 10)[0][0]
    assert plain == 2 / math.log2(2) + 1 / math.log2(3)
    assert given_gains == 9 / math.log2(2) + 3 / math.log2(3)


@pytest.mark.parametrize("seed", range(3))
def test_rankings_past_the_discount_table(seed: int) -> None:
    # 5,000 ranks: the discounts past the C part's table of 4,096 come from log2 itself
    rng = np.random.default_rng(seed)
    grades = rng.integers(-2, 5, size=5000).tolist()
    judged = [grades.count(grade) + int(rng.integers(0, 300)) for grade in range(5)]
    # (rbp takes the last p given)
    specs = ["binG", "G", "ndcg", "ndcg_cut.4000,4500", "ndcg_rel", "Rndcg", "dcg.1=3,2=9",
             "rbp.p=0.5,p=0.99"]  # fmt: skip
    chosen = [Topic(grades, judged)]
    assert orderly(specs, chosen)
    check(specs, chosen, int(rng.integers(0, 4)), 10)
