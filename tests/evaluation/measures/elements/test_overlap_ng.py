"""inex_eval_ng (seed 001 eq. 5-7): worked examples and a character-set oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.measures.elements.overlap_ng import (
    SpanResult,
    inex_eval_ng,
    interpolated,
    ng_points,
    unseen_sizes,
)


def test_overlapping_results_count_only_new_characters() -> None:
    # sec (0, 100): e = 1, s = 0.5. Its paragraph (20, 40): e = 1, s = 1, already read.
    # A paragraph of another article (0, 50): e = 0.5, s = 1. Recall base total e = 4.
    # |c'| = 100, 0, 50.
    # recall_o:    1*100/100 / 4 = 0.25;  + 1*0/20 -> 0.25;  + 0.5*50/50 = 0.5 -> 0.375
    # precision_o: 0.5*100 / 100 = 0.5;    50 / 100 = 0.5;     (50 + 50) / 150 = 2/3
    results = [
        SpanResult("a", 0, 100, 1.0, 0.5),
        SpanResult("a", 20, 40, 1.0, 1.0),
        SpanResult("b", 0, 50, 0.5, 1.0),
    ]
    assert unseen_sizes(results) == [100, 0, 50]
    recall, precision = ng_points(results, 4.0)
    assert recall == pytest.approx([0.25, 0.25, 0.375], abs=1e-15)
    assert precision == pytest.approx([0.5, 0.5, 2 / 3], abs=1e-15)
    # Interpolated: levels 0.01..0.25 take max(0.5, 0.5, 2/3) = 2/3, 0.26..0.37 take 2/3,
    # above 0.375 nothing: 37 levels of 2/3, mean = 37 * (2/3) / 100.
    mean, curve = inex_eval_ng(results, 4.0)
    assert curve[36] == pytest.approx(2 / 3) and curve[37] == 0.0
    assert mean == pytest.approx(37 * (2 / 3) / 100, abs=1e-12)


def test_a_result_covered_by_two_earlier_ones() -> None:
    # (0, 10) and (20, 30) read; (5, 25) has 10 of its 20 characters unseen (10..20).
    results = [SpanResult("a", 0, 10, 0, 0), SpanResult("a", 20, 30, 0, 0),
               SpanResult("a", 5, 25, 0, 0)]  # fmt: skip
    assert unseen_sizes(results) == [10, 10, 10]


def test_interpolation_takes_the_best_later_precision() -> None:
    curve = interpolated([0.1, 0.1, 0.6], [0.2, 0.9, 0.4])
    # up to 0.10 the best of all three (0.9); 0.11..0.60 only the third (0.4); then 0.
    assert curve[9] == 0.9 and curve[10] == 0.4 and curve[59] == 0.4 and curve[60] == 0.0


def oracle_points(results: list[SpanResult], total: float) -> tuple[list[float], list[float]]:
    """Eq. 5-7 with sets of character positions."""
    seen: set[tuple[str, int]] = set()
    recall_sum = gained = read = 0.0
    recall, precision = [], []
    for r in results:
        chars = {(r.article, x) for x in range(r.start, r.end)}
        new = len(chars - seen)
        seen |= chars
        size = r.end - r.start
        recall_sum += r.e * new / size if size else 0.0
        gained += r.s * new
        read += new
        recall.append(recall_sum / total if total > 0 else 0.0)
        precision.append(gained / read if read else 0.0)
    return recall, precision


SPANS = st.tuples(st.sampled_from("ab"), st.integers(0, 30), st.integers(0, 12)).flatmap(
    lambda t: st.tuples(
        st.just(t[0]), st.just(t[1]), st.just(t[1] + t[2]),
        st.sampled_from([0.0, 1 / 3, 2 / 3, 1.0]), st.sampled_from([0.0, 0.5, 1.0]),
    )
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(SPANS, max_size=25), st.sampled_from([0.0, 1.0, 2.5, 7.0]))
def test_fast_equals_the_character_set_oracle(
    raw: list[tuple[str, int, int, float, float]], total: float
) -> None:
    results = [SpanResult(*r) for r in raw]
    fast = ng_points(results, total)
    slow = oracle_points(results, total)
    assert fast[0] == pytest.approx(slow[0], abs=1e-12)
    assert fast[1] == pytest.approx(slow[1], abs=1e-12)
