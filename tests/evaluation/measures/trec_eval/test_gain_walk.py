"""The ideal ranking as a list (`gain_table.walk_steps`) against trec_eval's walk taken rank by
rank (`gain_init.c`'s `get_gain` loop, written out here as the reference), on gain tables with
levels of zero documents, zero and negative gains and gains closer than 1 (which trec_eval's
integer comparison leaves in their given order)."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.arrow import has_empty_binary
from focal.evaluation.measures.trec_eval.families.gain_table import Gain, gains, walk_steps


def reference_walk(table: list[Gain]) -> tuple[float, list[float]]:
    """Step down the levels one document at a time while the gain before the step is
    positive, as trec_eval's loops do."""
    level = len(table) - 1
    gain = table[level].gain if level >= 0 else 0.0
    first, count, out = gain, 0, []
    while gain > 0.0:
        count += 1
        while level >= 0 and count > table[level].count:
            count, level = 1, level - 1
            gain = table[level].gain if level >= 0 else 0.0
        out.append(gain)
    return first, out


GAIN = st.one_of(st.floats(-3, 12, allow_nan=False), st.sampled_from([0.0, 0.5, 1.0, -1.0]))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=0, max_size=5),
    st.lists(st.tuples(st.integers(-2, 6), GAIN), max_size=4),
)
def test_walk_steps_is_the_rank_by_rank_walk(
    levels: list[int], given_gains: list[tuple[int, float]]
) -> None:
    table = gains(tuple((str(grade), gain) for grade, gain in given_gains), np.array(levels))
    first, steps = walk_steps(table)
    expected_first, expected = reference_walk(table)
    assert (first == expected_first) or (math.isnan(first) and math.isnan(expected_first))
    assert len(steps) == len(expected)
    for ours, theirs in zip(steps, expected, strict=True):
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs))


@settings(deadline=None)
@given(st.lists(st.lists(st.binary(max_size=3), max_size=6), min_size=1, max_size=4), st.data())
def test_has_empty_binary_finds_an_empty_value(
    chunks: list[list[bytes]], data: st.DataObject
) -> None:
    column = pa.chunked_array([pa.array(chunk, pa.binary()) for chunk in chunks], pa.binary())
    whole = column.combine_chunks()
    start = data.draw(st.integers(0, len(whole)))
    part = whole.slice(start)  # an array whose offsets start past the buffer's first
    assert has_empty_binary(column) == any(len(value) == 0 for chunk in chunks for value in chunk)
    assert has_empty_binary(part) == any(len(value) == 0 for value in part.to_pylist())
