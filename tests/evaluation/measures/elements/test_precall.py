"""inex_eval: precall with the expected search length, worked by hand, ties included."""

from __future__ import annotations

import pytest

from focal.evaluation.measures.elements.precall import precall_curve


def test_strict_order_without_ties() -> None:
    # gains 1, 0, 1, N = 2, every result its own block.
    # x <= 0.5: n = 2x <= 1 is reached in block 1 (j = 0, s = n, r = 1, i = 0): ESL = 0 -> 1.
    # x > 0.5: block 3, j = 1 (the 0 at rank 2), s = n - 1, r = 1, i = 0: ESL = 1,
    # precall = n / (n + 1); at x = 1, n = 2: 2/3; at x = 0.75, n = 1.5: 1.5/2.5 = 0.6.
    curve = precall_curve([1.0, 0.0, 1.0], [3.0, 2.0, 1.0], 2.0, "score")
    assert curve[0] == 1.0 and curve[49] == 1.0
    assert curve[74] == pytest.approx(0.6, abs=1e-12)
    assert curve[99] == pytest.approx(2 / 3, abs=1e-12)


def test_a_tie_block_uses_the_expected_search_length() -> None:
    # Scores 5, 5, 5, 4: the first three results form one block with gains 1, 0, 0 (r = 1,
    # i = 2); then a result of gain 1. N = 2.
    # x = 0.5, n = 1: block 1, j = 0, s = 1: ESL = 1 * 2 / (1 + 1) = 1 -> 1 / 2 = 0.5.
    # x = 1, n = 2: block 2 (r = 1, i = 0), j = 2, s = 1: ESL = 2 -> 2 / 4 = 0.5.
    # x = 0.25, n = 0.5: block 1, s = 0.5: ESL = 0.5 * 2 / 2 = 0.5 -> 0.5 / 1 = 0.5.
    tied = precall_curve([1.0, 0.0, 0.0, 1.0], [5.0, 5.0, 5.0, 4.0], 2.0, "score")
    assert tied[24] == pytest.approx(0.5) and tied[49] == pytest.approx(0.5)
    assert tied[99] == pytest.approx(0.5)
    # With ties broken by rank the relevant result is first: precall 1 up to x = 0.5, and at
    # x = 1: j = 2, s = 1, r = 1, i = 0: ESL = 2 -> 0.5.
    ranked = precall_curve([1.0, 0.0, 0.0, 1.0], [5.0, 5.0, 5.0, 4.0], 2.0, "rank")
    assert ranked[49] == 1.0 and ranked[99] == pytest.approx(0.5)


def test_fractional_gains_and_unreached_levels() -> None:
    # gains 0.5 then 0.25 (generalised), N = 1.5 (the recall base also has an element the run
    # misses, gain 0.75).
    # complement (1 - f is non-relevant): x = 0.2, n = 0.3: block 1 (r = 0.5, i = 0.5),
    # s = 0.3: ESL = 0.3 * 0.5 / 1.5 = 0.1 -> 0.3 / 0.4 = 0.75. x = 0.5, n = 0.75: block 2
    # (r = 0.25, i = 0.75), j = 0.5, s = 0.25: ESL = 0.5 + 0.25 * 0.75 / 1.25 = 0.65
    # -> 0.75 / 1.4. x > 0.5: the run's 0.75 never reaches n: 0.
    curve = precall_curve([0.5, 0.25], [2.0, 1.0], 1.5, "score", "complement")
    assert curve[19] == pytest.approx(0.75, abs=1e-12)
    assert curve[49] == pytest.approx(0.75 / 1.4, abs=1e-12)
    assert curve[50] == 0.0 and curve[99] == 0.0
    # indicator (seed 000: only f = 0 is non-relevant): no result has f = 0, so i = j = 0 and
    # ESL = 0 up to x = 0.5: precall 1; past it, still unreached: 0.
    curve = precall_curve([0.5, 0.25], [2.0, 1.0], 1.5, "score", "indicator")
    assert curve[19] == curve[49] == 1.0 and curve[50] == 0.0


def test_indicator_counts_only_zero_values_as_non_relevant() -> None:
    # gains 0.5, 0, 1 (distinct scores), N = 1.5. x = 1, n = 1.5 at rank 3: relevance before
    # 0.5, s = 1, r = 1, i = 0; j = 1 (the 0 at rank 2) with indicator: ESL = 1 -> 1.5 / 2.5;
    # with complement j = 0.5 + 1 = 1.5: ESL = 1.5 -> 1.5 / 3.
    gains, scores = [0.5, 0.0, 1.0], [3.0, 2.0, 1.0]
    assert precall_curve(gains, scores, 1.5, "score", "indicator")[99] == pytest.approx(0.6)
    assert precall_curve(gains, scores, 1.5, "score", "complement")[99] == pytest.approx(0.5)


def test_no_relevance_scores_zero() -> None:
    assert precall_curve([0.0], [1.0], 0.0) == [0.0] * 100
    assert precall_curve([], [], 3.0) == [0.0] * 100
