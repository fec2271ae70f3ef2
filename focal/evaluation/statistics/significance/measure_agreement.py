"""Agreement between two sets of significant pairs (seed 000 §3.4, Tables 3–4).

Compare the decisions of two quantisations (or two measures, or two tests) of one set of runs:
take Y as the truth and X as a prediction of it. precision = |X ∩ Y| / |X|, recall =
|X ∩ Y| / |Y|, F1 = 2·P·R / (P + R). A pair is unordered; pairs significant under both but
with the winner reversed are counted in `reversed` (they still count in X ∩ Y, as in seed 000).
A ratio with an empty denominator is NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from focal.evaluation.statistics.significance.pairwise import Comparison

Pair = tuple[str, str]


@dataclass(frozen=True)
class Agreement:
    x: frozenset[Pair]
    y: frozenset[Pair]
    reversed: int = 0

    @property
    def both(self) -> frozenset[Pair]:
        return self.x & self.y

    @property
    def precision(self) -> float:
        return len(self.both) / len(self.x) if self.x else math.nan

    @property
    def recall(self) -> float:
        return len(self.both) / len(self.y) if self.y else math.nan

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        if math.isnan(p) or math.isnan(r):
            return math.nan
        return 2 * p * r / (p + r) if p + r else 0.0


def unordered(a: str, b: str) -> Pair:
    """A pair of runs without direction: the two names sorted."""
    return (a, b) if a <= b else (b, a)


def agreement(x: Iterable[Pair], y: Iterable[Pair]) -> Agreement:
    """Agreement of the significant pairs `x` with the reference `y`.

    >>> found = agreement([("a", "b"), ("a", "c"), ("b", "d")], [("b", "a"), ("c", "d")])
    >>> found.precision, found.recall, round(found.f1, 4)
    (0.3333333333333333, 0.5, 0.4)
    """
    return Agreement(frozenset(unordered(*p) for p in x), frozenset(unordered(*p) for p in y))


def significant_pairs(comparison: Comparison) -> dict[Pair, int]:
    """The significant pairs of a comparison, each with the sign of its difference (a − b)
    as seen in sorted order: +1 when the first name's mean is higher."""
    found: dict[Pair, int] = {}
    for row in comparison.pairs:
        if row.significant:
            pair = unordered(row.run_a, row.run_b)
            sign = 1 if row.diff > 0 else -1 if row.diff < 0 else 0
            found[pair] = sign if pair[0] == row.run_a else -sign
    return found


def compare_agreement(x: Comparison, y: Comparison) -> Agreement:
    """Agreement of two comparisons of the same runs, Y the reference; counts reversed winners."""
    found_x, found_y = significant_pairs(x), significant_pairs(y)
    reversed_pairs = sum(1 for p in found_x.keys() & found_y.keys() if found_x[p] != found_y[p])
    return Agreement(frozenset(found_x), frozenset(found_y), reversed_pairs)
