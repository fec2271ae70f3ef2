"""The classical paired tests, as scipy computes them: t, Wilcoxon signed rank, sign.

Each takes per-topic scores of two runs paired by topic, `d = a − b` (spec section 8), and has an
all-pairs form over a topics × runs matrix that the pairwise driver calls. scipy.stats is
imported when a test runs (it takes a second to import), so that the resampling tests, which need
only numpy, start fast.

>>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
>>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
>>> [round(v, 6) for v in t_test(a, b)]
[3.240682, 0.010148]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from focal.evaluation.statistics.significance.results import (
    FloatArray,
    PairTests,
    TestResult,
    check_alternative,
    check_matrix,
    paired_columns,
    pairs,
)


def t_test(a: npt.ArrayLike, b: npt.ArrayLike, alternative: str = "two-sided") -> TestResult:
    """Paired t test (Student 1908; seed 002 §4.2 uses it one-tailed, `alternative="greater"`).

    t = mean(d) / (s_d / √n), s_d the standard deviation of d with n − 1 degrees of freedom;
    p from Student's t with n − 1 degrees of freedom (scipy.stats.ttest_rel).

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> round(t_test(a, b).statistic, 4), round(t_test(a, b).p, 6)
    (3.2407, 0.010148)
    >>> round(t_test(a, b, "greater").p, 6)
    0.005074
    """
    return t_tests(paired_columns(a, b), alternative)[0]


def t_tests(scores: npt.ArrayLike, alternative: str = "two-sided") -> PairTests:
    """`t_test` on every pair i < j of the columns of a topics × runs matrix, in one call."""
    from scipy import stats

    matrix = check_matrix(scores)
    first, second = pairs(matrix.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        result = stats.ttest_rel(
            matrix[:, first], matrix[:, second], axis=0, alternative=check_alternative(alternative)
        )
    return PairTests(_floats(result.statistic), _floats(result.pvalue))


def wilcoxon_test(a: npt.ArrayLike, b: npt.ArrayLike, alternative: str = "two-sided") -> TestResult:
    """Wilcoxon signed-rank test (Wilcoxon 1945; Hull 1993 for retrieval).

    Zero differences are dropped (zero_method "wilcox"), the remaining |d| ranked (ties get mean
    ranks); W+ and W− are the rank sums of positive and negative d. p from scipy.stats.wilcoxon
    without continuity correction and with scipy's default choice of exact or normal method. The
    statistic reported is W+ − W− (scipy reports min(W+, W−) for two-sided tests).

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> wilcoxon_test(a, b)
    TestResult(statistic=34.0, p=0.015625)
    """
    return wilcoxon_tests(paired_columns(a, b), alternative)[0]


def wilcoxon_tests(scores: npt.ArrayLike, alternative: str = "two-sided") -> PairTests:
    """`wilcoxon_test` on every pair of columns (one scipy call per pair: scipy chooses the
    exact or the normal method per pair, which its vectorised form does not)."""
    from scipy import stats

    matrix = check_matrix(scores)
    check_alternative(alternative)
    first, second = pairs(matrix.shape[1])
    differences = matrix[:, first] - matrix[:, second]
    statistic = np.zeros(differences.shape[1])
    p = np.ones(differences.shape[1])
    for index in range(differences.shape[1]):
        d = differences[:, index]
        nonzero = d[d != 0]
        if len(nonzero) == 0:
            continue  # no evidence either way: W+ = W− = 0, p = 1
        ranks = stats.rankdata(np.abs(nonzero))
        statistic[index] = ranks[nonzero > 0].sum() - ranks[nonzero < 0].sum()
        result = stats.wilcoxon(d, zero_method="wilcox", correction=False, alternative=alternative)
        p[index] = result.pvalue
    return PairTests(statistic, p)


def sign_test(a: npt.ArrayLike, b: npt.ArrayLike, alternative: str = "two-sided") -> TestResult:
    """Sign test (Hull 1993): k+ topics with d > 0 and k− with d < 0, zeros dropped; p =
    binomtest(k+, k+ + k−, 1/2) (scipy.stats.binomtest). The statistic is k+ − k−.

    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> sign_test(a, b)
    TestResult(statistic=6.0, p=0.0703125)
    """
    return sign_tests(paired_columns(a, b), alternative)[0]


def sign_tests(scores: npt.ArrayLike, alternative: str = "two-sided") -> PairTests:
    """`sign_test` on every pair of columns; binomtest runs once per distinct (k+, k− )."""
    matrix = check_matrix(scores)
    check_alternative(alternative)
    first, second = pairs(matrix.shape[1])
    differences = matrix[:, first] - matrix[:, second]
    plus = (differences > 0).sum(axis=0)
    minus = (differences < 0).sum(axis=0)
    counts = zip(plus.tolist(), minus.tolist(), strict=True)
    p = np.array([_binomial(k, k + m, alternative) for k, m in counts])
    return PairTests((plus - minus).astype(np.float64), p.astype(np.float64))


@lru_cache(maxsize=4096)
def _binomial(successes: int, trials: int, alternative: str) -> float:
    if trials == 0:
        return 1.0  # every difference is zero: no evidence either way
    from scipy import stats

    return float(stats.binomtest(successes, trials, 0.5, alternative=alternative).pvalue)


def _floats(values: object) -> FloatArray:
    return np.asarray(values, dtype=np.float64)
