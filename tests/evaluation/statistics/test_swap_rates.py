"""Swap rates (Voorhees & Buckley 2002; seed 004 "Error Rates"), against a per-trial loop."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.statistics import swap_rates as module
from focal.evaluation.statistics.swap_rates import (
    binned_swap_rates,
    count_swaps,
    fit_exponential,
    subset_means,
    swap_rates,
)


def test_doctests() -> None:
    assert doctest.testmod(module).failed == 0


def loop_swaps(scores: np.ndarray, draws: np.ndarray, size: int, tolerance: float) -> int:
    """The plain reading: every trial, every pair, means of both subsets, then the rule."""
    swaps = 0
    runs = scores.shape[0]
    for draw in draws:
        first, second = draw[:size], draw[size : 2 * size]
        for i in range(runs):
            for j in range(i + 1, runs):
                a1, b1 = scores[i, first].mean(), scores[j, first].mean()
                a2, b2 = scores[i, second].mean(), scores[j, second].mean()
                m1, m2 = tolerance * max(a1, b1), tolerance * max(a2, b2)
                if (a1 - b1 > m1 and a2 - b2 < -m2) or (a1 - b1 < -m1 and a2 - b2 > m2):
                    swaps += 1
    return swaps


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=2, max_value=5),
    st.integers(min_value=4, max_value=12),
    st.sampled_from([0.0, 0.05, 0.2]),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_vectorised_swaps_equal_the_loop(
    runs: int, topics: int, tolerance: float, seed: int
) -> None:
    scores = np.random.default_rng(seed).random((runs, topics)).round(2)
    size = topics // 2
    trials = 7
    # The same draws as subset_means makes from a generator in the same state.
    draws = np.argsort(np.random.default_rng(seed + 1).random((trials, topics)), axis=1)
    first, second = subset_means(scores, size, trials, np.random.default_rng(seed + 1))
    assert count_swaps(first, second, tolerance) == loop_swaps(scores, draws, size, tolerance)


def test_one_seed_one_result() -> None:
    scores = np.random.default_rng(3).random((6, 30))
    a = swap_rates(scores, [5, 10, 15], 20, [0.0, 0.1], np.random.default_rng(9))
    b = swap_rates(scores, [5, 10, 15], 20, [0.0, 0.1], np.random.default_rng(9))
    assert (a.swaps == b.swaps).all() and a.comparisons == 15 * 20
    # A larger tolerance never finds more swaps.
    assert (a.swaps[:, 1] <= a.swaps[:, 0]).all()


def test_identical_runs_never_swap() -> None:
    scores = np.tile(np.linspace(0, 1, 20), (3, 1))
    rates = swap_rates(scores, [5, 10], 10, [0.0], np.random.default_rng(0))
    assert rates.swaps.sum() == 0 and rates.fits == (None,)


def test_exponential_fit_recovers_its_parameters() -> None:
    # Y = 0.3 e^{-0.2 z}: ln Y is linear in z, so least squares gives back A and B exactly;
    # Y < 0.05 once z > ln(6)/0.2 = 8.96, so nine topics.
    sizes = [2, 4, 6, 8]
    fit = fit_exponential(sizes, [0.3 * math.exp(-0.2 * z) for z in sizes])
    assert fit is not None
    assert fit.a == pytest.approx(0.3, abs=1e-12) and fit.b == pytest.approx(0.2, abs=1e-12)
    assert fit.minimum_topics == 9
    # Points with Y = 0 are left out of the fit; fewer than two points give no fit.
    assert fit_exponential([2, 4, 6], [0.1, 0.0, 0.0]) is None
    assert fit_exponential([2, 4, 6], [0.2, 0.1, 0.0]).sizes_used == 2  # type: ignore[union-attr]


def test_subset_sizes_above_half_the_topics_are_refused() -> None:
    with pytest.raises(ValueError, match="between 1 and 5"):
        subset_means(np.zeros((3, 11)), 6, 2, np.random.default_rng(0))


def test_bins_count_every_comparison_once() -> None:
    scores = np.random.default_rng(1).random((4, 20))
    bins = binned_swap_rates(scores, 5, 12, np.random.default_rng(2))
    assert sum(count for _, _, count in bins) == 6 * 12
    assert all(0 <= swaps <= count for _, swaps, count in bins)
    assert [low for low, _, _ in bins] == sorted(low for low, _, _ in bins)
