"""Properties of every test and correction (hypothesis): swapping a and b negates the statistic
and keeps the two-sided p; adding a constant to both runs changes nothing; corrections are
monotone in the raw p-values and never below them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from focal.evaluation.statistics.significance.corrections import CORRECTIONS, correct
from focal.evaluation.statistics.significance.pairing import pair_by_topic
from focal.evaluation.statistics.significance.pairwise import TESTS, run_test

# Scores on a grid of 1/64 (exact in binary): a + c and differences stay exact, so "changes
# nothing" can be asserted to the last bit of the ranks and signs the tests look at.
score = st.integers(0, 64).map(lambda v: v / 64)
# 14 topics or more: with fewer and ties, scipy's Wilcoxon enumerates 2^n sign vectors per call
# (deterministic but slow); the spec vectors cover 10 topics.
pairs_of_runs = st.integers(14, 30).flatmap(
    lambda n: st.tuples(
        st.lists(score, min_size=n, max_size=n), st.lists(score, min_size=n, max_size=n)
    )
)


def two_runs(a: list[float], b: list[float]):  # type: ignore[no-untyped-def]
    return pair_by_topic({"a": dict(enumerate(a)), "b": dict(enumerate(b))})


def outcome(test: str, a: list[float], b: list[float]) -> tuple[float, float]:
    result = run_test(two_runs(a, b), test, samples=400, seed=5)[0]
    return result.statistic, result.p


# Mean difference exactly zero: the bootstrap once counted the tail on the side of a's sign,
# 0.94 one way and 1.0 the other (found by hypothesis; the 1/64 grid keeps the sums exact).
TIED = (
    [0, 0, 0, 0, 0, 0, 11, 9, 13, 64, 28, 4, 3, 1, 3, 41, 64, 64, 64, 64],
    [0, 0, 0, 0, 0, 0, 0, 0, 20, 9, 2, 0, 0, 64, 18, 64, 64, 64, 64, 64],
)


@pytest.mark.parametrize("test", TESTS)
@settings(max_examples=30, deadline=None)
@given(runs=pairs_of_runs)
@example(runs=tuple([v / 64 for v in run] for run in TIED))
def test_swapping_mirrors_the_statistic_and_keeps_p(test: str, runs) -> None:  # type: ignore[no-untyped-def]
    a, b = runs
    forward, backward = outcome(test, a, b), outcome(test, b, a)
    assert backward[0] == pytest.approx(-forward[0], rel=1e-9, abs=1e-12) or (
        np.isnan(forward[0]) and np.isnan(backward[0])
    )
    assert backward[1] == pytest.approx(forward[1], abs=1e-9) or (
        np.isnan(forward[1]) and np.isnan(backward[1])
    )


@pytest.mark.parametrize("test", TESTS)
@settings(max_examples=30, deadline=None)
@given(runs=pairs_of_runs, shift=st.integers(-64, 64).map(lambda v: v / 64))
def test_adding_a_constant_to_both_runs_changes_nothing(test: str, runs, shift: float) -> None:  # type: ignore[no-untyped-def]
    a, b = runs
    before = outcome(test, a, b)
    after = outcome(test, [x + shift for x in a], [x + shift for x in b])
    for old, new in zip(before, after, strict=True):
        assert new == pytest.approx(old, rel=1e-9, abs=1e-9) or (np.isnan(old) and np.isnan(new))


@pytest.mark.parametrize("method", CORRECTIONS)
@settings(max_examples=60, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_corrections_are_monotone_and_never_below_the_raw_p(method: str, p: list[float]) -> None:
    raw = np.array(p)
    adjusted = correct(raw, method)
    assert (adjusted >= raw - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(raw, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-15).all()
