"""What a paired test answers for one pair of runs, and for every pair at once.

The statistic is signed so that it is positive when run a scores higher than run b, and swapping
a and b negates it (spec section 8): the t statistic itself, W+ − W− for the signed-rank test,
k+ − k− for the sign test, the mean difference for the resampling tests, the signed studentized
range q for Tukey's HSD. The p-value is the test's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
ALTERNATIVES = ("two-sided", "greater", "less")


class TestResult(NamedTuple):
    """One pair: the signed statistic and the p-value."""

    statistic: float
    p: float


@dataclass(frozen=True)
class PairTests:
    """Every pair i < j of k runs, in the order of `pairs(k)`: statistics and p-values."""

    statistic: FloatArray
    p: FloatArray

    def __getitem__(self, index: int) -> TestResult:
        return TestResult(float(self.statistic[index]), float(self.p[index]))

    def __len__(self) -> int:
        return len(self.p)


def pairs(k: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Indices (i, j) of every pair i < j of k runs: (0, 1), (0, 2), ..., (1, 2), ...

    >>> [tuple(map(int, side)) for side in pairs(3)]
    [(0, 0, 1), (1, 2, 2)]
    """
    first, second = np.triu_indices(k, 1)
    return first.astype(np.intp), second.astype(np.intp)


def check_alternative(alternative: str) -> str:
    """`alternative`, or ValueError when it is not one of ALTERNATIVES."""
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}: {alternative!r}")
    return alternative


def paired_columns(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Two equally long score vectors as a topics × 2 matrix (ValueError otherwise)."""
    left = np.asarray(a, dtype=np.float64)
    right = np.asarray(b, dtype=np.float64)
    if left.ndim != 1 or left.shape != right.shape:
        raise ValueError("a and b must be one-dimensional and of the same length (one per topic)")
    if len(left) < 2:
        raise ValueError("a paired test needs at least two topics")
    return np.column_stack([left, right])


def check_matrix(scores: npt.ArrayLike) -> FloatArray:
    """Scores as a float matrix of topics × runs, with at least two of each and no NaN."""
    matrix = np.asarray(scores, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 2:
        raise ValueError("scores must be a topics × runs matrix with at least 2 of each")
    if not np.isfinite(matrix).all():
        raise ValueError("scores must be finite numbers")
    return matrix
