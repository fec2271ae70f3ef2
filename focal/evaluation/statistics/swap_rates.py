"""How many topics a test collection needs: swap (error) rates on disjoint topic subsets.

Voorhees & Buckley (2002), as seed 004 ("Error Rates") applies it to INEX: draw two disjoint
topic sets of size z, compare the means of two runs on each; when one set says A is better and
the other says B is, that is a *swap*. Repeated over `trials` draws and every pair of runs, the
error rate at size z is swaps / comparisons. It falls roughly exponentially with z, so
ln Y = ln A − B·z is fitted by least squares on the sizes with Y > 0 and extrapolated to find the
smallest topic set with an error rate under 5 % (spec §9).

Two readings of "a real difference", both here:
- relative tolerance p (seed 004: 0, 5, 10, 20, 30 %): A beats B on a set when its mean is higher
  by more than p × the larger of the two means (p = 0: simply higher); a swap is A beating B on
  one set and B beating A on the other; comparisons are all (pair, trial) draws. Seed 004 words
  it "higher by at least a minimum margin p": `at_least` counts a difference of exactly p × the
  larger mean as beating (for p = 0 a difference must still be above 0: a tie beats nobody).
- difference bins (Voorhees & Buckley): the absolute difference on the first set falls in a bin
  of width 0.01; a swap is a sign change between the sets; comparisons are the draws in that bin.

All pairs and all trials at one size are one array computation: the topic draws are one
(trials × 2z) matrix of indices shared by every pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Matrix = NDArray[np.float64]

ERROR_TARGET = 0.05


@dataclass(frozen=True, slots=True)
class Fit:
    """ln Y = ln A − B·z over the sizes with Y > 0; `minimum_topics` where Y drops under 5 %."""

    a: float
    b: float
    sizes_used: int
    minimum_topics: int | None  # None: the fitted curve never falls under the target

    def predicted(self, size: int) -> float:
        return self.a * math.exp(-self.b * size)

    def minimum_text(self, smallest: int, largest: int) -> str:
        """The minimum as seed 004 Table 7 prints it: `<5` when the fit falls under the target
        below the smallest size measured (an extrapolation downwards the data cannot support),
        `>70` when not within `largest` topics (or never), else the number.

        >>> Fit(0.2, 0.5, 2, 3).minimum_text(5, 70), Fit(0.9, 0.01, 4, 289).minimum_text(5, 70)
        ('<5', '>70')
        """
        if self.minimum_topics is None or self.minimum_topics > largest:
            return f">{largest}"
        if self.minimum_topics < smallest:
            return f"<{smallest}"
        return str(self.minimum_topics)


@dataclass(frozen=True, slots=True)
class SwapRates:
    """Error rates by topic-set size, per tolerance (rows follow `sizes`)."""

    sizes: tuple[int, ...]
    tolerances: tuple[float, ...]  # fractions, 0.05 = 5 %
    swaps: NDArray[np.int64]  # sizes × tolerances
    comparisons: int  # per size: pairs × trials
    fits: tuple[Fit | None, ...]  # one per tolerance

    def rate(self, size_index: int, tolerance_index: int) -> float:
        return float(self.swaps[size_index, tolerance_index]) / self.comparisons


def subset_means(
    scores: Matrix, size: int, trials: int, rng: np.random.Generator
) -> tuple[Matrix, Matrix]:
    """Means of every run (rows of `scores`, runs × topics) on two disjoint random topic sets of
    `size` topics, for each trial: two (trials × runs) matrices."""
    topics = scores.shape[1]
    if not 1 <= size <= topics // 2:
        raise ValueError(f"a topic subset size must be between 1 and {topics // 2}, got {size}")
    draws = np.argsort(rng.random((trials, topics)), axis=1)[:, : 2 * size]
    first = scores[:, draws[:, :size]].mean(axis=2).T
    second = scores[:, draws[:, size:]].mean(axis=2).T
    return first, second


def _pair_differences(means: Matrix) -> tuple[Matrix, Matrix]:
    """(trials × pairs) differences a − b and larger means, pairs i < j in run order."""
    i, j = np.triu_indices(means.shape[1], 1)
    return means[:, i] - means[:, j], np.maximum(means[:, i], means[:, j])


def count_swaps(first: Matrix, second: Matrix, tolerance: float, at_least: bool = False) -> int:
    """Swaps between two sets of means at a relative tolerance (fraction of the larger mean);
    `at_least`: a difference equal to the margin beats (seed 004's wording).

    >>> first = np.array([[0.5, 0.4, 0.1]]); second = np.array([[0.3, 0.4, 0.2]])
    >>> count_swaps(first, second, 0.0)  # a>b then a<b; a>c both; b>c both
    1
    >>> count_swaps(first, second, 0.3)  # 0.5 vs 0.4 is within 30 % of 0.5: not a difference
    0
    >>> first = np.array([[0.5, 0.4]]); second = np.array([[0.4, 0.5]])  # margins 20 % exactly
    >>> count_swaps(first, second, 0.2), count_swaps(first, second, 0.2, at_least=True)
    (0, 1)
    """
    d1, m1 = _pair_differences(first)
    d2, m2 = _pair_differences(second)
    margin1, margin2 = tolerance * m1, tolerance * m2
    if at_least and tolerance > 0:
        # the margin itself beats; equal in exact arithmetic counts equal (a few ulp apart)
        slack1, slack2 = 1e-12 * np.maximum(m1, 1e-300), 1e-12 * np.maximum(m2, 1e-300)
        beats1, loses1 = d1 >= margin1 - slack1, d1 <= -margin1 + slack1
        beats2, loses2 = d2 >= margin2 - slack2, d2 <= -margin2 + slack2
    else:
        beats1, loses1 = d1 > margin1, d1 < -margin1
        beats2, loses2 = d2 > margin2, d2 < -margin2
    swapped = (beats1 & loses2) | (loses1 & beats2)
    return int(swapped.sum())


def fit_exponential(sizes: Sequence[int], rates: Sequence[float]) -> Fit | None:
    """Least-squares fit of ln Y = ln A − B·z on the points with Y > 0 (None with fewer than 2).

    >>> fit = fit_exponential([5, 10, 15], [0.4 * math.exp(-0.1 * z) for z in (5, 10, 15)])
    >>> round(fit.a, 12), round(fit.b, 12), fit.minimum_topics
    (0.4, 0.1, 21)
    """
    points = [(z, y) for z, y in zip(sizes, rates, strict=True) if y > 0]
    if len(points) < 2 or len({z for z, _ in points}) < 2:
        return None
    x = np.array([z for z, _ in points], dtype=float)
    log_y = np.log([y for _, y in points])
    slope, intercept = np.polyfit(x, log_y, 1)
    a, b = math.exp(intercept), -float(slope)
    minimum: int | None = None
    if b > 0:
        # smallest integer z with A·exp(−B z) < target
        bound = (math.log(a) - math.log(ERROR_TARGET)) / b
        minimum = max(1, math.floor(bound) + 1)
    return Fit(a, b, len(points), minimum)


def swap_rates(
    scores: Matrix,
    sizes: Sequence[int],
    trials: int,
    tolerances: Sequence[float],
    rng: np.random.Generator,
    at_least: bool = False,
) -> SwapRates:
    """Error rates for every size and tolerance (fractions); one draw matrix per size;
    `at_least` as `count_swaps`."""
    runs = scores.shape[0]
    if runs < 2:
        raise ValueError("swap rates need at least two runs")
    swaps = np.zeros((len(sizes), len(tolerances)), dtype=np.int64)
    for row, size in enumerate(sizes):
        first, second = subset_means(scores, size, trials, rng)
        for column, tolerance in enumerate(tolerances):
            swaps[row, column] = count_swaps(first, second, tolerance, at_least)
    comparisons = runs * (runs - 1) // 2 * trials
    fits = tuple(
        fit_exponential(sizes, [swaps[r, c] / comparisons for r in range(len(sizes))])
        for c in range(len(tolerances))
    )
    return SwapRates(tuple(sizes), tuple(tolerances), swaps, comparisons, fits)


def binned_swap_rates(
    scores: Matrix, size: int, trials: int, rng: np.random.Generator, width: float = 0.01
) -> list[tuple[float, int, int]]:
    """Voorhees & Buckley's bins at one size: (bin's lower edge, swaps, comparisons) for every
    bin that holds a comparison, by |difference| on the first set; a swap is a sign change."""
    first, second = subset_means(scores, size, trials, rng)
    d1, _ = _pair_differences(first)
    d2, _ = _pair_differences(second)
    bins = np.floor(np.abs(d1) / width + 1e-9).astype(np.int64).ravel()
    swapped = (np.sign(d1) * np.sign(d2) < 0).ravel()
    counts = np.bincount(bins)
    swap_counts = np.bincount(bins, weights=swapped, minlength=len(counts))
    return [
        (index * width, int(swap_counts[index]), int(counts[index]))
        for index in np.flatnonzero(counts)
    ]
