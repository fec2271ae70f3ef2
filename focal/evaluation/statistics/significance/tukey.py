"""Tukey's honestly significant difference with topics as blocks (Tukey 1949; Hull 1993;
Carterette 2012 for retrieval): all pairs of runs in one test, no further correction.

The model is the two-way analysis of variance without interaction, x_tj = μ + topic_t + run_j +
ε_tj, over t topics and k runs (spec section 8).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from focal.evaluation.statistics.significance.results import (
    FloatArray,
    PairTests,
    check_matrix,
    pairs,
)


def tukey_hsd(scores: npt.ArrayLike) -> PairTests:
    """Blocked Tukey HSD on every pair i < j of the columns of a topics × runs matrix.

    Residuals r_tj = x_tj − x̄_t· − x̄_·j + x̄; MSE = Σ r² / ((t − 1)(k − 1)); for a pair,
    q = (x̄_·i − x̄_·j) / √(MSE / t) and p = P(Q ≥ |q|) under the studentized range of k means
    and (t − 1)(k − 1) degrees of freedom (scipy.stats.studentized_range). The statistic is
    the signed q.

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> c = [.30, .35, .45, .05, .50, .20, .22, .55, .30, .33]
    >>> result = tukey_hsd(np.column_stack([a, b, c]))
    >>> [round(p, 5) for p in result.p.tolist()]  # spec section 8: .0744, .00083, .114
    [0.07436, 0.00083, 0.11416]
    """
    matrix = check_matrix(scores)
    t, k = matrix.shape
    run_means = matrix.mean(axis=0)
    freedom = (t - 1) * (k - 1)
    mse = residual_variance(matrix)
    first, second = pairs(k)
    differences = run_means[first] - run_means[second]
    scale = float(np.abs(matrix).max())
    if mse <= (1e-12 * scale) ** 2:  # topic and run explain every score: differences are certain
        same = np.abs(differences) <= 1e-12 * scale
        q = np.where(same, 0.0, np.copysign(np.inf, differences))
        return PairTests(q, np.where(same, 1.0, 0.0))
    q = differences / np.sqrt(mse / t)
    from scipy import stats  # imported on use: a second to import, see classical.py

    p = stats.studentized_range.sf(np.abs(q), k, freedom)
    return PairTests(q, np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0))


def residual_variance(matrix: FloatArray) -> float:
    """V_E (the MSE): the residual mean square of the two-way ANOVA without replication over a
    topics × runs matrix, Σ (x_tj − x̄_t· − x̄_·j + x̄)² / ((t − 1)(k − 1)); Tukey's HSD and
    Sakai's ES_E (`effects.py`) share it."""
    t, k = (int(n) for n in matrix.shape)
    residuals = matrix - matrix.mean(axis=1, keepdims=True) - matrix.mean(axis=0) + matrix.mean()
    return float((residuals**2).sum()) / ((t - 1) * (k - 1))
