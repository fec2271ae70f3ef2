"""The gain tables and ideal walks of many topics in arrays (`gain_table.level_tables`,
`ideal.walk_rows`) against one topic's table and walk as trec_eval states them
(`gain_table.gains`, `gain_table.walk_steps`), and the interpolated curve's running maxima in
one matrix against each topic's own pass: the same values, bit for bit, whatever the gains
given (negative, zero, NaN, closer than 1, beyond the judged grades) and the topics' lengths."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.measures.trec_eval.families.gain_table import (
    Gain,
    gains,
    level_tables,
    walk_steps,
)
from focal.evaluation.measures.trec_eval.families.ideal import running_sums, walk_rows
from focal.evaluation.measures.trec_eval.families.interpolated import _best_below
from focal.evaluation.measures.trec_eval.families.measure import Context, Ranked
from focal.evaluation.measures.trec_eval.names import parse_trec

GAIN = st.one_of(
    st.floats(-3, 12, allow_nan=False), st.sampled_from([0.0, 0.5, 1.0, -1.0, math.nan])
)
LEVELS = st.lists(st.lists(st.integers(0, 4), max_size=6), min_size=1, max_size=8)
GIVEN = st.lists(st.tuples(st.integers(-2, 7), GAIN), max_size=4)


def same(a: float, b: float) -> bool:
    """The same float to the bit (NaN as NaN)."""
    return bool(np.float64(a).tobytes() == np.float64(b).tobytes()) or (
        math.isnan(a) and math.isnan(b)
    )


def _context(levels: list[list[int]], given_gains: list[tuple[int, float]]) -> Context:
    """A run of one unjudged document a topic, judged as `levels` says; `ndcg` given the
    gains `given_gains` (trec_eval's `-m ndcg.1=3,2=9`)."""
    topics = len(levels)
    pairs = ",".join(f"{grade}={gain!r}" for grade, gain in given_gains)
    selection = parse_trec([f"ndcg.{pairs}" if pairs else "ndcg"])
    ranked = Ranked(
        np.full(topics, -2, dtype=np.int64), np.arange(topics, dtype=np.int64),
        np.zeros(topics, dtype=np.int64), np.zeros(topics, dtype=np.int64),
        running_sums(np.zeros(0), np.zeros(topics, dtype=np.int64)),
        [np.array(row, dtype=np.int64) for row in levels],
    )  # fmt: skip
    return Context(ranked, selection, 1, 10)


@settings(max_examples=300, deadline=None)
@given(LEVELS, GIVEN)
def test_each_topic_reads_its_own_table_and_walk(
    levels: list[list[int]], given_gains: list[tuple[int, float]]
) -> None:
    context = _context(levels, given_gains)
    pairs = context.pairs("ndcg")
    tables = level_tables(context, "ndcg")
    assert sorted(t for chosen in tables.members for t in chosen.tolist()) == list(
        range(len(levels))
    )
    for kind, chosen in enumerate(tables.members):
        first, steps, sizes = walk_rows(tables.gains[kind], tables.counts[kind])
        assert len(sizes) == len(chosen) and int(sizes.sum()) == len(steps)
        at = 0
        for row, topic in enumerate(chosen.tolist()):
            assert tables.kind[topic] == kind
            table = gains(pairs, np.array(levels[topic], dtype=np.int64))
            ours = [Gain(grade, gain, int(count)) for grade, gain, count in zip(
                tables.grades[kind], tables.gains[kind].tolist(), tables.counts[kind][row].tolist(),
                strict=True)]  # fmt: skip
            assert [(g.grade, g.count) for g in ours] == [(g.grade, g.count) for g in table]
            assert all(same(a.gain, b.gain) for a, b in zip(ours, table, strict=True))
            expected_first, expected = walk_steps(table)
            assert same(first, expected_first)
            taken = steps[at : at + int(sizes[row])].tolist()
            assert len(taken) == len(expected)
            assert all(same(a, b) for a, b in zip(taken, expected, strict=True))
            at += int(sizes[row])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), max_size=40), min_size=1, max_size=12))
def test_the_curves_running_maxima_are_each_topics_own(topics: list[list[int]]) -> None:
    """Both ways of `_best_below`: one matrix, and topic by topic when one long topic among
    short ones would make the matrix mostly padding."""
    sizes = np.array([len(topic) for topic in topics], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    precision = np.array([v / (r + 1) for topic in topics for r, v in enumerate(topic)])
    best = _best_below(precision, starts, sizes)
    for topic, start, size in zip(topics, starts.tolist(), sizes.tolist(), strict=True):
        own = [max(v / (r + 1) for r, v in enumerate(topic) if r >= i) for i in range(size)]
        assert best[start : start + size].tolist() == own
    skewed = [[1] * 5000, *topics]
    sizes = np.array([len(topic) for topic in skewed], dtype=np.int64)
    values = np.array([v / (r + 1) for topic in skewed for r, v in enumerate(topic)])
    assert _best_below(values, np.cumsum(sizes) - sizes, sizes)[5000:].tolist() == best.tolist()
