"""Kendall τ_a, τ_b and τ_AP: scipy where scipy has it, hand-worked rankings for τ_AP."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from focal.evaluation.statistics import rank_correlation
from focal.evaluation.statistics.rank_correlation import rank_correlation as correlate
from focal.evaluation.statistics.rank_correlation import ranking, tau_a, tau_ap, tau_b

scores = st.lists(
    st.integers(min_value=0, max_value=6).map(lambda v: v / 6), min_size=3, max_size=12
)


def as_runs(values: list[float]) -> dict[str, float]:
    return {f"r{index:02d}": value for index, value in enumerate(values)}


def test_doctests() -> None:
    assert doctest.testmod(rank_correlation).failed == 0


@settings(deadline=None)
@given(scores, st.randoms())
def test_tau_b_is_scipys_and_tau_a_counts_pairs(values: list[float], rnd: random.Random) -> None:
    other = list(values)
    rnd.shuffle(other)
    x, y = as_runs(values), as_runs(other)
    n = len(values)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            product = (values[i] - values[j]) * (other[i] - other[j])
            concordant += product > 0
            discordant += product < 0
    assert tau_a(x, y) == pytest.approx((concordant - discordant) / (n * (n - 1) / 2), abs=1e-12)
    if len(set(values)) > 1:  # scipy's τ_b is undefined when one ranking is all ties
        expected = stats.kendalltau(values, other, variant="b").statistic
        assert tau_b(x, y) == pytest.approx(expected, abs=1e-12)


def test_tau_ap_of_identical_and_reversed_rankings() -> None:
    reference = as_runs([0.9, 0.7, 0.5, 0.3, 0.1])
    assert tau_ap(reference, reference) == 1.0
    assert tau_ap(reference, as_runs([0.1, 0.3, 0.5, 0.7, 0.9])) == -1.0


def test_a_swap_at_the_top_costs_more_than_one_at_the_bottom() -> None:
    # Reference a b c d. Swapping a and b, walk b a c d: C(2)=0, C(3)=2, C(4)=3, so
    # τ_AP = 2/3 · (0 + 2/2 + 3/3) − 1 = 1/3. Swapping c and d, walk a b d c: C = 1, 2, 2, so
    # τ_AP = 2/3 · (1 + 1 + 2/3) − 1 = 7/9. Kendall's τ is 2/3 for both.
    reference = {"a": 4, "b": 3, "c": 2, "d": 1}
    top = {"a": 3, "b": 4, "c": 2, "d": 1}
    bottom = {"a": 4, "b": 3, "c": 1, "d": 2}
    assert tau_ap(reference, top) == pytest.approx(1 / 3, abs=1e-12)
    assert tau_ap(reference, bottom) == pytest.approx(7 / 9, abs=1e-12)
    assert tau_b(reference, top) == tau_b(reference, bottom) == pytest.approx(2 / 3)


def test_tau_ap_is_not_symmetric_and_breaks_ties_by_run_id() -> None:
    reference = {"a": 4, "b": 3, "c": 2, "d": 1}
    other = {"a": 2, "b": 4, "c": 3, "d": 1}
    # Walk b c a d against a b c d: C(2) = 1 (b is above c in the reference too), C(3) = 0
    # (neither b nor c is above a there), C(4) = 3: τ_AP = 2/3 · (1 + 0/2 + 3/3) − 1 = 1/3.
    assert tau_ap(reference, other) == pytest.approx(1 / 3, abs=1e-12)
    # The other way, walk a b c d against b c a d: C(2) = 0 (a is below b there), C(3) = 1
    # (b is above c, a is not), C(4) = 3: τ_AP = 2/3 · (0 + 1/2 + 3/3) − 1 = 0.
    assert tau_ap(other, reference) == pytest.approx(0.0, abs=1e-12)
    assert ranking({"b": 1.0, "a": 1.0}) == ["a", "b"]


@settings(deadline=None)
@given(scores, st.randoms())
def test_tau_ap_lies_between_minus_one_and_one(values: list[float], rnd: random.Random) -> None:
    other = list(values)
    rnd.shuffle(other)
    assert -1 - 1e-12 <= tau_ap(as_runs(values), as_runs(other)) <= 1 + 1e-12


def test_fewer_than_three_runs_or_different_runs_are_refused() -> None:
    with pytest.raises(ValueError, match="at least three"):
        correlate({"a": 1, "b": 2}, {"a": 1, "b": 2})
    with pytest.raises(ValueError, match="same runs"):
        correlate({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 2, "d": 3})
