"""Discriminative power of a measure (Sakai 2006, "Evaluating evaluation metrics based on the
bootstrap", SIGIR): the achieved significance level (ASL) of every pair of runs, sorted, and the
share of pairs whose ASL is below alpha. A measure that separates more pairs at the same alpha
on the same runs and topics is the more discriminative.
"""

from __future__ import annotations

from dataclasses import dataclass

from focal.evaluation.statistics.significance.pairwise import Comparison


@dataclass(frozen=True)
class CurvePoint:
    rank: int
    run_a: str
    run_b: str
    asl: float


def asl_curve(comparison: Comparison) -> list[CurvePoint]:
    """The pairs by increasing ASL (raw p-value), ranked from 1: Sakai's ASL curve."""
    ordered = sorted(comparison.pairs, key=lambda row: row.p)
    return [CurvePoint(n, r.run_a, r.run_b, r.p) for n, r in enumerate(ordered, start=1)]


def discriminative_power(comparison: Comparison) -> float:
    """The share of pairs whose ASL (raw p-value) is below the comparison's alpha.

    >>> from focal.evaluation.statistics.significance.pairing import pair_by_topic
    >>> from focal.evaluation.statistics.significance.pairwise import compare
    >>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
    >>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
    >>> c = [.30, .35, .45, .05, .50, .20, .22, .55, .30, .33]
    >>> scores = {name: dict(enumerate(v)) for name, v in zip("abc", (a, b, c))}
    >>> discriminative_power(compare(pair_by_topic(scores), "sakai", seed=2006))
    0.6666666666666666
    """
    if not comparison.pairs:
        return 0.0
    below = sum(1 for row in comparison.pairs if row.p < comparison.alpha)
    return below / len(comparison.pairs)
