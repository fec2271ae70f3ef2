"""Resampling tests: reproducible with a seed, equal to a pair-by-pair computation on the same
resamples, exact where they enumerate, and within Monte Carlo error of scipy."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from focal.evaluation.statistics.significance.resampling import (
    bootstrap_indices,
    bootstrap_tests,
    randomisation_tests,
    sakai_tests,
    sign_flips,
)

RNG = np.random.default_rng(20061106)
# 15 topics × 5 runs, run 1 a little better than run 0, run 4 a copy of run 3
SCORES = RNG.random((15, 5))
SCORES[:, 1] = np.clip(SCORES[:, 0] + RNG.normal(0.08, 0.1, 15), 0, 1)
SCORES[:, 4] = SCORES[:, 3]
PAIRS = list(combinations(range(5), 2))


@pytest.mark.parametrize("test", [randomisation_tests, bootstrap_tests, sakai_tests])
def test_the_same_seed_gives_the_same_p_values(test) -> None:  # type: ignore[no-untyped-def]
    first = test(SCORES, samples=2000, seed=7)
    assert np.array_equal(first.p, test(SCORES, samples=2000, seed=7).p)
    assert not np.array_equal(first.p, test(SCORES, samples=2000, seed=8).p)


def test_identical_runs_never_differ() -> None:
    index = PAIRS.index((3, 4))
    for test in (randomisation_tests, bootstrap_tests, sakai_tests):
        assert test(SCORES, samples=500, seed=1).p[index] == 1.0


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_bootstrap_equals_resampling_each_pair_on_its_own(alternative: str) -> None:
    # the shared-matrix shortcut (counts @ scores) against resampling d = a − b pair by pair
    samples = 3000
    ours = bootstrap_tests(SCORES, alternative, samples=samples, seed=3)
    indices = bootstrap_indices(15, samples, 3)
    for n, (i, j) in enumerate(PAIRS):
        d = SCORES[:, i] - SCORES[:, j]
        means = d[indices].mean(axis=1)
        below, above = np.mean(means <= 1e-12), np.mean(means >= -1e-12)
        if alternative == "greater":
            p = below
        elif alternative == "less":
            p = above
        else:
            p = min(1.0, 2 * (below if d.mean() >= 0 else above))
        assert ours.p[n] == p
        assert ours.statistic[n] == pytest.approx(d.mean(), abs=1e-15)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_randomisation_equals_flipping_each_pair_on_its_own(alternative: str) -> None:
    samples = 3000  # 2^15 > 3,000: random sign vectors, shared by every pair
    ours = randomisation_tests(SCORES, alternative, samples=samples, seed=9)
    signs, exact = sign_flips(15, samples, 9)
    assert not exact
    for n, (i, j) in enumerate(PAIRS):
        d = SCORES[:, i] - SCORES[:, j]
        flipped, seen = (signs * d).sum(axis=1), d.sum()
        if alternative == "greater":
            hits = flipped >= seen - 1e-12
        elif alternative == "less":
            hits = flipped <= seen + 1e-12
        else:
            hits = np.abs(flipped) >= abs(seen) - 1e-12
        assert ours.p[n] == (hits.sum() + 1) / (samples + 1)


def test_sakai_equals_studentising_each_resample() -> None:
    samples = 3000
    ours = sakai_tests(SCORES, samples=samples, seed=4)
    indices = bootstrap_indices(15, samples, 4)
    for n, (i, j) in enumerate(PAIRS[:-1]):  # the last pair has identical runs: t = 0/0
        d = SCORES[:, i] - SCORES[:, j]
        t = stats.ttest_1samp(d, 0).statistic
        w = (d - d.mean())[indices]
        t_star = w.mean(axis=1) / (w.std(axis=1, ddof=1) / np.sqrt(15))
        assert ours.statistic[n] == pytest.approx(t, rel=1e-12)
        assert ours.p[n] == pytest.approx(np.mean(np.abs(t_star) >= abs(t)), abs=1 / samples)


def test_exact_randomisation_equals_scipy_enumeration() -> None:
    small = SCORES[:10]  # 2^10 = 1,024 sign vectors: enumerated by both
    ours = randomisation_tests(small, samples=10_000)
    for n, (i, j) in enumerate(PAIRS[:-1]):
        theirs = stats.permutation_test(
            (small[:, i], small[:, j]), lambda x, y, axis: np.mean(x - y, axis=axis),
            permutation_type="samples", n_resamples=10_000,
        )  # fmt: skip
        assert ours.p[n] == pytest.approx(theirs.pvalue, abs=1e-12)


def test_sign_flips_enumerate_or_draw() -> None:
    signs, exact = sign_flips(3, 8)
    assert exact and signs.shape == (8, 3) and len({tuple(s) for s in signs.tolist()}) == 8
    assert (signs[0] == 1).all()
    signs, exact = sign_flips(20, 100, seed=1)
    assert not exact and signs.shape == (100, 20) and set(np.unique(signs)) == {-1.0, 1.0}


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_randomisation_within_monte_carlo_error_of_scipy(alternative: str) -> None:
    samples = 20_000  # 2^15 > 20,000: random sign vectors
    ours = randomisation_tests(SCORES, alternative, samples=samples, seed=11)
    for n, (i, j) in enumerate(PAIRS[:4]):
        theirs = stats.permutation_test(
            (SCORES[:, i], SCORES[:, j]), lambda x, y, axis: np.mean(x - y, axis=axis),
            permutation_type="samples", n_resamples=samples, alternative=alternative,
            random_state=12,
        )  # fmt: skip
        p = theirs.pvalue
        error = np.sqrt(max(p * (1 - p), 1e-4) / samples)  # both estimates carry this error
        assert abs(ours.p[n] - p) < 5 * np.sqrt(2) * error


def test_bootstrap_within_monte_carlo_error_of_scipy() -> None:
    samples = 20_000
    ours = bootstrap_tests(SCORES, samples=samples, seed=13)
    for n, (i, j) in enumerate(PAIRS[:4]):
        d = SCORES[:, i] - SCORES[:, j]
        distribution = stats.bootstrap(
            (d,), np.mean, n_resamples=samples, method="percentile", random_state=14
        ).bootstrap_distribution
        tail = np.mean(distribution <= 0) if d.mean() >= 0 else np.mean(distribution >= 0)
        p = min(1.0, 2 * tail)
        error = np.sqrt(max(p * (1 - p), 1e-4) / samples)
        assert abs(ours.p[n] - p) < 5 * np.sqrt(2) * error
