"""Passage sets: ATOM merging and splitting, checked against a set-of-characters model."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from focal.assessor.judging.spans import add_span, normalise, remove_span


def test_overlapping_and_touching_spans_merge() -> None:
    assert add_span([(0, 5)], 3, 8) == [(0, 8)]
    assert add_span([(0, 5)], 5, 8) == [(0, 8)]  # touching
    assert add_span([(0, 5), (10, 12)], 6, 9) == [(0, 5), (6, 9), (10, 12)]
    assert add_span([(0, 5), (10, 12)], 4, 11) == [(0, 12)]


def test_removing_a_span_splits_the_passage() -> None:
    assert remove_span([(0, 10)], 3, 5) == [(0, 3), (5, 10)]
    assert remove_span([(0, 10)], 0, 10) == []
    assert remove_span([(0, 4), (6, 10)], 2, 8) == [(0, 2), (8, 10)]
    assert remove_span([(0, 4)], 4, 9) == [(0, 4)]


def test_normalise_sorts_and_drops_empty_spans() -> None:
    assert normalise([(5, 7), (1, 1), (0, 2)]) == [(0, 2), (5, 7)]


def characters(spans: list[tuple[int, int]]) -> set[int]:
    return {offset for start, end in spans for offset in range(start, end)}


operations = st.lists(st.tuples(st.booleans(), st.integers(0, 60), st.integers(1, 20)), max_size=30)


@given(operations)
def test_random_sequences_match_the_character_model(ops: list[tuple[bool, int, int]]) -> None:
    passages: list[tuple[int, int]] = []
    model: set[int] = set()
    for is_add, start, length in ops:
        end = start + length
        if is_add:
            passages = add_span(passages, start, end)
            model |= set(range(start, end))
        else:
            passages = remove_span(passages, start, end)
            model -= set(range(start, end))
        assert characters(passages) == model
        # canonical: sorted, non-empty, neither overlapping nor touching
        assert all(s < e for s, e in passages)
        assert all(a[1] < b[0] for a, b in itertools.pairwise(passages))
