"""Resampling tests over every pair of runs at once: randomisation, bootstrap, Sakai's ASL.

All pairs share one matrix of resampled topics (sign flips, or topic indices drawn with
replacement), drawn once from a seedable numpy Generator (spec section 8). Every statistic is
linear in the per-run columns, so the work is one product of the resampling matrix with the
topics × runs scores, then a comparison per pair: the mean difference of a resample for runs i and
j is M[:, i] − M[:, j] with M = (counts @ scores) / n. For k = 100 runs (4,950 pairs) that costs
about as much as a handful of pairs done one by one.

Resampled and observed statistics are compared with a tolerance of 64 ulp × n × max |score|, so
that differences equal in exact arithmetic (rounded differently) count as ties.

>>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
>>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
>>> result = randomisation_test(a, b)
>>> round(result.statistic, 6), result.p
(0.051, 0.0234375)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from focal.evaluation.statistics.significance.results import (
    FloatArray,
    PairTests,
    TestResult,
    check_alternative,
    check_matrix,
    paired_columns,
)

SAMPLES = 10_000
Seed = int | np.random.Generator | None
IndexArray = npt.NDArray[np.intp]


def randomisation_test(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    alternative: str = "two-sided",
    samples: int = SAMPLES,
    seed: Seed = None,
) -> TestResult:
    """Paired randomisation (permutation) test (Fisher 1935; Smucker, Allan & Carterette 2007).

    Under the null hypothesis each d_t = a_t − b_t is as likely to have had the other sign.
    Statistic: mean(d). With B = `samples` random sign vectors s*, b = #(|mean(s* · d)| ≥
    |mean(d)|) and p = (b + 1)/(B + 1); when 2ⁿ ≤ B every sign vector is enumerated and p =
    b / 2ⁿ exactly. One-sided: greater counts mean(s*·d) ≥ mean(d), less ≤.

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> randomisation_test(a, b).p  # spec section 8: exact, 24 of the 1,024 sign vectors
    0.0234375
    >>> randomisation_test(a, b, "greater").p
    0.01171875
    """
    return randomisation_tests(paired_columns(a, b), alternative, samples, seed)[0]


def randomisation_tests(
    scores: npt.ArrayLike, alternative: str = "two-sided", samples: int = SAMPLES, seed: Seed = None
) -> PairTests:
    """`randomisation_test` on every pair of columns of a topics × runs matrix."""
    matrix = check_matrix(scores)
    check_alternative(alternative)
    signs, exact = sign_flips(matrix.shape[0], samples, seed)
    resampled = signs @ matrix  # B × runs: Σ s*_t x_t per run
    observed = matrix.sum(axis=0)
    tolerance = _tolerance(matrix)
    counts = _count_pairs(resampled, observed, _extreme(alternative, tolerance))
    n = matrix.shape[0]
    p = counts / len(signs) if exact else (counts + 1) / (len(signs) + 1)
    return PairTests(_pair_values(observed / n), p)


def sign_flips(topics: int, samples: int = SAMPLES, seed: Seed = None) -> tuple[FloatArray, bool]:
    """(sign matrix of ±1, exact): every one of the 2ⁿ sign vectors when 2ⁿ ≤ `samples`
    (the first is all +1), else `samples` random ones."""
    if topics < 63 and 2**topics <= samples:
        bits = (np.arange(2**topics)[:, None] >> np.arange(topics)) & 1
        return (1 - 2 * bits).astype(np.float64), True
    rng = np.random.default_rng(seed)
    return (2 * rng.integers(0, 2, size=(_checked(samples), topics)) - 1).astype(np.float64), False


def bootstrap_test(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    alternative: str = "two-sided",
    samples: int = SAMPLES,
    seed: Seed = None,
    plus_one: bool = False,
) -> TestResult:
    """Paired percentile bootstrap test (Efron & Tibshirani 1993; seed 000 §3.3).

    Resample the n topics with replacement B times; mean(d*) is each resample's mean difference.
    Orient d so that mean(d) ≥ 0; p_one = #(mean(d*) ≤ 0)/B, two-sided p = min(1, 2·p_one).
    greater (a better): p = #(mean(d*) ≤ 0)/B on d = a − b; less: #(mean(d*) ≥ 0)/B.
    Statistic: mean(d). That is seed 000's formula, the default; it gives p = 0 when no
    resample crosses 0, a probability no finite B can show. `plus_one` counts the observed
    sample as one of the resamples, p_one = (b + 1)/(B + 1) (Davison & Hinkley 1997, as the
    randomisation test does), so that p is never below 1/(B + 1).

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> result = bootstrap_test(a, b, seed=2006)
    >>> round(result.statistic, 3), result.p < 0.01, result == bootstrap_test(a, b, seed=2006)
    (0.051, True, True)
    """
    return bootstrap_tests(paired_columns(a, b), alternative, samples, seed, plus_one)[0]


def bootstrap_tests(
    scores: npt.ArrayLike, alternative: str = "two-sided", samples: int = SAMPLES,
    seed: Seed = None, plus_one: bool = False,
) -> PairTests:  # fmt: skip
    """`bootstrap_test` on every pair of columns, all pairs on the same resampled topics."""
    matrix = check_matrix(scores)
    check_alternative(alternative)
    means = resampled_means(matrix, bootstrap_indices(matrix.shape[0], samples, seed))
    observed = matrix.mean(axis=0)
    tolerance = _tolerance(matrix) / matrix.shape[0]
    differences = _pair_values(observed)
    # Orient each pair so that the count is always #(oriented mean d* ≤ 0): greater counts
    # mean d* ≤ 0, less counts mean d* ≥ 0, two-sided the side opposite the observed mean d.
    if alternative == "greater":
        orientation = np.ones_like(differences)
    elif alternative == "less":
        orientation = -np.ones_like(differences)
    else:
        orientation = np.where(differences >= 0, 1.0, -1.0)
    by_run = means.T.copy()
    extra = 1 if plus_one else 0
    p = (_count_not_above(by_run, orientation, tolerance) + extra) / (samples + extra)
    if alternative == "two-sided":
        # A mean difference of zero has no side: the smaller tail counts, whichever run is
        # given first (otherwise swapping a and b could change p).
        tied = np.abs(differences) <= tolerance
        if tied.any():
            other = (_count_not_above(by_run, -orientation, tolerance) + extra) / (samples + extra)
            p = np.where(tied, np.minimum(p, other), p)
        p = np.minimum(1.0, 2 * p)
    return PairTests(differences, p)


def _count_not_above(
    runs_by_sample: FloatArray, orientation: FloatArray, tolerance: float
) -> FloatArray:
    """For every pair i < j: #(orientation · (M_i − M_j) ≤ tolerance) over the samples, with
    M laid out runs × samples so that each run's resampled means are contiguous."""
    counts = []
    start = 0
    for i in range(runs_by_sample.shape[0] - 1):
        block = runs_by_sample[i] - runs_by_sample[i + 1 :]  # pairs of run i × samples
        signs = orientation[start : start + len(block)]
        start += len(block)
        block *= signs[:, None]
        counts.append(np.count_nonzero(block <= tolerance, axis=1))
    return np.concatenate(counts).astype(np.float64)


def bootstrap_indices(topics: int, samples: int = SAMPLES, seed: Seed = None) -> IndexArray:
    """B × n topic indices drawn with replacement: row b is resample b, shared by every pair."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, topics, size=(_checked(samples), topics)).astype(np.intp)


def resampled_means(matrix: FloatArray, indices: IndexArray) -> FloatArray:
    """B × runs: each run's mean score over each resample of topics, as counts @ scores / n."""
    means: FloatArray = (_counts(indices, matrix.shape[0]) @ matrix) / matrix.shape[0]
    return means


def sakai_test(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    alternative: str = "two-sided",
    samples: int = SAMPLES,
    seed: Seed = None,
) -> TestResult:
    """Studentised paired bootstrap test giving the achieved significance level (Sakai 2006,
    "Evaluating evaluation metrics based on the bootstrap", SIGIR, after Efron & Tibshirani
    1993 §16.4).

    t(z) = mean(z) / (s_z/√n) on z = d; the null is imposed by shifting, w = z − mean(z); for B
    resamples w* of w, ASL = #(|t(w*)| ≥ |t(z)|)/B (greater: t(w*) ≥ t(z); less: ≤). A resample
    whose values are all equal has t = 0 (or ±∞ when its mean is not 0). Statistic: t(z).

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> result = sakai_test(a, b, seed=2006)
    >>> round(result.statistic, 4), result.p < 0.05
    (3.2407, True)
    """
    return sakai_tests(paired_columns(a, b), alternative, samples, seed)[0]


def sakai_tests(
    scores: npt.ArrayLike, alternative: str = "two-sided", samples: int = SAMPLES, seed: Seed = None
) -> PairTests:
    """`sakai_test` on every pair of columns, all pairs on the same resampled topics."""
    matrix = check_matrix(scores)
    check_alternative(alternative)
    n, runs = matrix.shape
    # samples along rows' contiguous axis: runs × B and n × B
    counts = _counts(bootstrap_indices(n, samples, seed), n).T.copy()
    means = (matrix.T @ counts) / n
    statistics, asl = [], []
    for i in range(runs - 1):
        d = matrix[:, i : i + 1] - matrix[:, i + 1 :]  # n × pairs of run i
        mean_d = d.mean(axis=0)
        w = d - mean_d  # the null imposed: each pair's differences shifted to mean 0
        t = _studentised(mean_d, (w**2).mean(axis=0), n)
        shifted = means[i] - means[i + 1 :] - mean_d[:, None]  # mean(w*): pairs × B
        # Comparing mean(w*) with t·s*/√n avoids dividing by s*; s* from E*[w²] − mean(w*)²
        # on the centred w, which keeps the cancellation small.
        error = (w * w).T @ counts / n
        error -= shifted**2
        np.maximum(error, 0.0, out=error)
        error /= n - 1
        np.sqrt(error, out=error)  # s*/√n of each resample
        margin = 1e-9 * np.maximum(1.0, np.abs(np.nan_to_num(t, posinf=0, neginf=0)))
        with np.errstate(invalid="ignore"):  # ∞ · 0 when the observed t is infinite
            if alternative == "greater":
                hits = shifted >= (t - margin)[:, None] * error
                zero_hit = t - margin <= 0
            elif alternative == "less":
                hits = shifted <= (t + margin)[:, None] * error
                zero_hit = t + margin >= 0
            else:
                hits = np.abs(shifted) >= (np.abs(t) - margin)[:, None] * error
                zero_hit = np.abs(t) - margin <= 0
        # a resample whose values are all equal to the observed mean has t* = 0
        flat = (error == 0) & (shifted == 0)
        if flat.any():
            hits = np.where(flat, zero_hit[:, None], hits)
        statistics.append(t)
        asl.append(np.count_nonzero(hits, axis=1) / samples)
    return PairTests(np.concatenate(statistics), np.concatenate(asl))


def _studentised(mean: FloatArray, variance: FloatArray, n: int) -> FloatArray:
    """mean / (s/√n) with s² = n·variance/(n − 1): 0 when mean and s are 0, ±∞ when only s is."""
    error = np.sqrt(np.maximum(variance, 0.0) / (n - 1))
    tiny = 1e-13 * np.maximum(np.abs(mean), 1e-300)
    degenerate = error <= tiny
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(degenerate, np.sign(mean) * np.inf, mean / np.where(degenerate, 1.0, error))
    return np.where(degenerate & (np.abs(mean) <= 1e-15), 0.0, t)


def _counts(indices: IndexArray, topics: int) -> FloatArray:
    """B × n: how often each topic is drawn in each resample."""
    samples = indices.shape[0]
    flat = (np.arange(samples)[:, None] * topics + indices).ravel()
    return np.bincount(flat, minlength=samples * topics).reshape(samples, topics).astype(np.float64)


Extreme = Callable[[FloatArray, FloatArray], npt.NDArray[np.bool_]]


def _extreme(alternative: str, tolerance: float) -> Extreme:
    """Whether a resampled difference is at least as extreme as the observed one."""
    if alternative == "greater":
        return lambda star, seen: star >= seen - tolerance
    if alternative == "less":
        return lambda star, seen: star <= seen + tolerance
    return lambda star, seen: np.abs(star) >= np.abs(seen) - tolerance


def _count_pairs(resampled: FloatArray, observed: FloatArray, extreme: Extreme) -> FloatArray:
    """For every pair i < j: how many rows of resampled[:, i] − resampled[:, j] are extreme
    against observed[i] − observed[j]. One block of pairs per run keeps memory at B × runs."""
    counts = [
        extreme(
            resampled[:, i : i + 1] - resampled[:, i + 1 :], observed[i] - observed[i + 1 :]
        ).sum(axis=0)
        for i in range(resampled.shape[1] - 1)
    ]
    return np.concatenate(counts).astype(np.float64)


def _pair_values(values: FloatArray) -> FloatArray:
    """values[i] − values[j] for every pair i < j."""
    first, second = np.triu_indices(len(values), 1)
    return values[first] - values[second]


def _tolerance(matrix: FloatArray) -> float:
    scale = float(np.abs(matrix).max()) or 1.0
    return 64 * float(np.finfo(np.float64).eps) * int(matrix.shape[0]) * scale


def _checked(samples: int) -> int:
    if samples < 1:
        raise ValueError(f"samples must be at least 1: {samples}")
    return samples
