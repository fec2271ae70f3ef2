"""How big a difference is: confidence intervals and standardised effect sizes beside p-values.

Seed 002 and Sakai (2014) ask for effect sizes and intervals next to every significance test,
since a p-value alone says nothing of how large a difference is. For a comparison of runs:

- per run, the mean over the topics with a `confidence` interval: Student's t interval (mean ±
  t_{(1+c)/2, n−1} · s/√n), or a bootstrap interval over the topics (scipy.stats.bootstrap, its
  default BCa method, resamples drawn from `seed`);
- per pair, the mean difference d̄ of d = a − b with its interval: the paired t interval (what
  scipy.stats.ttest_rel(...).confidence_interval gives), the bootstrap interval of d̄, or, when
  the test is Tukey's HSD, the simultaneous Tukey interval d̄ ± q_c(k, ν) · √(V_E / t);
- per pair, d_z = d̄ / s_d (Cohen's standardised mean difference for paired data; Lakens 2013),
  Hedges' g = J(n − 1) · d_z with the exact small-sample correction J(ν) = Γ(ν/2) /
  (√(ν/2) · Γ((ν − 1)/2)) (Hedges 1981), and Sakai's ES_E = d̄ / √V_E, V_E the residual variance
  of the two-way ANOVA without replication over all runs (Sakai 2018: the effect size of the
  multi-system Tukey setting).

Intervals are two-sided whatever the test's alternative. A standardised size whose standard
deviation is 0 is ±inf (0 when d̄ is 0 too), written as null in JSON.

>>> from focal.evaluation.statistics.significance.pairing import pair_by_topic
>>> from focal.evaluation.statistics.significance.pairwise import compare
>>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
>>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
>>> found = effect_sizes(compare(pair_by_topic({"a": dict(enumerate(a)), "b": dict(enumerate(b))})))
>>> pair = found.pairs[0]
>>> [round(v, 4) for v in (pair.diff.low, pair.diff.high, pair.d_z, pair.g)]
[0.0154, 0.0866, 1.0248, 0.9365]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from focal.evaluation.statistics.significance.pairwise import Comparison
from focal.evaluation.statistics.significance.resampling import SAMPLES, Seed
from focal.evaluation.statistics.significance.results import FloatArray
from focal.evaluation.statistics.significance.tukey import residual_variance

CI_METHODS = ("t", "bootstrap")


@dataclass(frozen=True)
class Interval:
    """An estimate and its confidence interval."""

    estimate: float
    low: float
    high: float


@dataclass(frozen=True)
class PairEffect:
    """One row of a comparison: the mean difference a − b with its interval, and its sizes."""

    diff: Interval
    d_z: float
    g: float
    es_e: float


@dataclass(frozen=True)
class Effects:
    """Intervals and sizes of a comparison: `runs` in the order of the comparison's runs,
    `pairs` aligned with its rows. `pair_method` is `t`, `bootstrap` or `tukey`."""

    confidence: float
    method: str
    pair_method: str
    runs: tuple[Interval, ...]
    pairs: tuple[PairEffect, ...]


def effect_sizes(
    comparison: Comparison,
    confidence: float = 0.95,
    method: str = "t",
    samples: int = SAMPLES,
    seed: Seed = None,
) -> Effects:
    """The intervals and effect sizes of every run and every row of `comparison`."""
    if method not in CI_METHODS:
        raise ValueError(f"interval method must be one of {', '.join(CI_METHODS)}: {method!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1: {confidence}")
    matrix = comparison.scores.matrix
    first, second = comparison.indices()
    differences = matrix[:, first] - matrix[:, second]
    tukey = comparison.test == "tukey"
    if method == "bootstrap":
        runs = bootstrap_intervals(matrix, confidence, samples, seed)
        diffs = bootstrap_intervals(differences, confidence, samples, seed)
    else:
        runs = t_intervals(matrix, confidence)
        diffs = t_intervals(differences, confidence)
    residual = residual_variance(matrix)
    if tukey:
        diffs = _tukey_intervals(differences.mean(axis=0), matrix.shape, residual, confidence)
    sizes = zip(diffs, d_z(differences).tolist(), strict=True)
    pairs = tuple(
        PairEffect(interval, size, hedges_correction(matrix.shape[0] - 1) * size,
                   _ratio(interval.estimate, math.sqrt(residual)))
        for interval, size in sizes
    )  # fmt: skip
    return Effects(confidence, method, "tukey" if tukey else method, tuple(runs), pairs)


def t_intervals(columns: FloatArray, confidence: float = 0.95) -> list[Interval]:
    """Student's t interval of the mean of each column (n − 1 degrees of freedom)."""
    from scipy import stats

    n = columns.shape[0]
    means = columns.mean(axis=0)
    errors = columns.std(axis=0, ddof=1) / math.sqrt(n)
    half = float(stats.t.ppf((1 + confidence) / 2, n - 1)) * errors
    return [
        Interval(float(m), float(m - h), float(m + h)) for m, h in zip(means, half, strict=True)
    ]


def bootstrap_intervals(
    columns: FloatArray, confidence: float, samples: int, seed: Seed
) -> list[Interval]:
    """scipy.stats.bootstrap's BCa interval of each column's mean, all columns on the same
    resamples; a column whose values are all equal has the point interval."""
    from scipy import stats

    means = columns.mean(axis=0)
    flat = np.ptp(columns, axis=0) == 0
    low, high = means.copy(), means.copy()
    varied = np.flatnonzero(~flat)
    if len(varied):
        result = stats.bootstrap(
            (columns[:, varied],), np.mean, n_resamples=samples, confidence_level=confidence,
            axis=0, vectorized=True, batch=max(1, 2_000_000 // columns.size),
            rng=np.random.default_rng(seed),
        )  # fmt: skip
        low[varied] = result.confidence_interval.low
        high[varied] = result.confidence_interval.high
    return [
        Interval(float(m), float(lo), float(hi)) for m, lo, hi in zip(means, low, high, strict=True)
    ]


def _tukey_intervals(
    diffs: FloatArray, shape: tuple[int, ...], residual: float, confidence: float
) -> list[Interval]:
    """Tukey's simultaneous intervals d̄ ± q_c(k, (t − 1)(k − 1)) · √(V_E / t) (Tukey 1949)."""
    from scipy import stats

    topics, runs = shape
    q = float(stats.studentized_range.ppf(confidence, runs, (topics - 1) * (runs - 1)))
    half = q * math.sqrt(residual / topics)
    return [Interval(float(d), float(d - half), float(d + half)) for d in diffs]


def d_z(differences: FloatArray) -> FloatArray:
    """Mean over standard deviation (n − 1) of each column of paired differences."""
    means = differences.mean(axis=0)
    deviations = differences.std(axis=0, ddof=1)
    return np.array([_ratio(float(m), float(s)) for m, s in zip(means, deviations, strict=True)])


def hedges_correction(freedom: int) -> float:
    """J(ν) = Γ(ν/2) / (√(ν/2) Γ((ν − 1)/2)), the exact factor that removes the bias of a
    standardised mean difference on ν degrees of freedom (Hedges 1981); about 1 − 3/(4ν − 1).

    >>> round(hedges_correction(9), 5)  # Γ(4.5) / (√4.5 · Γ(4)) = 11.63173 / 12.72792 = 0.913875
    0.91387
    """
    if freedom < 2:
        return math.nan
    return math.exp(
        math.lgamma(freedom / 2) - 0.5 * math.log(freedom / 2) - math.lgamma((freedom - 1) / 2)
    )


def _ratio(value: float, scale: float) -> float:
    """value / scale, ±inf when only the scale is (close to) 0, 0 when both are."""
    if scale > 1e-12 * max(1.0, abs(value)):
        return value / scale
    return 0.0 if abs(value) <= 1e-15 else math.copysign(math.inf, value)
