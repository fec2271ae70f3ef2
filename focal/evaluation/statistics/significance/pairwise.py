"""Compare every pair of runs: one test over all pairs i < j, then a correction.

The driver behind `focal compare` and the Python API (spec section 8). Pairs are in the order the
runs were given: (0, 1), (0, 2), ..., (1, 2), ...; `d = a − b`; a pair is significant when its
adjusted p-value is below alpha (seed 002 §4.2: "less than 0.05").

A one-sided test states its direction for every ordered pair: `greater` tests run_a > run_b and
`less` run_a < run_b for every (a, b) with a ≠ b, rows in the order (0, 1), (0, 2), ..., (1, 0),
(1, 2), ...; the correction runs over all k(k − 1) ordered pairs. Testing only i < j in the order
given would make the answer depend on that order (the worse run given first is never found
better); this way, permuting the runs only permutes the rows.

>>> from focal.evaluation.statistics.significance.pairing import pair_by_topic
>>> a = [.45, .30, .62, .10, .55, .40, .25, .70, .35, .50]
>>> b = [.40, .30, .50, .12, .45, .38, .20, .60, .35, .41]
>>> c = [.30, .35, .45, .05, .50, .20, .22, .55, .30, .33]
>>> scores = {name: dict(enumerate(v)) for name, v in zip("abc", (a, b, c))}
>>> result = compare(pair_by_topic(scores), test="t", correction="holm")
>>> [(r.run_a, r.run_b, round(r.p, 4), r.significant) for r in result.pairs]
[('a', 'b', 0.0101, True), ('a', 'c', 0.0044, True), ('b', 'c', 0.0709, False)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from focal.evaluation.statistics.significance import classical, resampling
from focal.evaluation.statistics.significance.corrections import CORRECTIONS, correct
from focal.evaluation.statistics.significance.pairing import PairedScores
from focal.evaluation.statistics.significance.results import (
    FloatArray,
    PairTests,
    check_alternative,
    pairs,
)
from focal.evaluation.statistics.significance.tukey import tukey_hsd

TESTS = ("t", "wilcoxon", "sign", "randomisation", "bootstrap", "sakai", "tukey")
RESAMPLING_TESTS = ("randomisation", "bootstrap", "sakai")


@dataclass(frozen=True)
class PairComparison:
    """One row of the comparison: a pair, its means, statistic, raw and adjusted p."""

    run_a: str
    run_b: str
    mean_a: float
    mean_b: float
    statistic: float
    p: float
    p_adjusted: float
    significant: bool

    @property
    def diff(self) -> float:
        return self.mean_a - self.mean_b


HYPOTHESES = {"two-sided": "!=", "greater": ">", "less": "<"}
"""What a row tests, run_a against run_b, by alternative: the `tested` column of the outputs."""


@dataclass(frozen=True)
class Comparison:
    """Every pair compared, with what was done."""

    scores: PairedScores
    test: str
    alternative: str
    correction: str
    alpha: float
    pairs: tuple[PairComparison, ...]

    def means(self) -> dict[str, float]:
        return dict(zip(self.scores.runs, self.scores.matrix.mean(axis=0).tolist(), strict=True))

    @property
    def tested(self) -> str:
        """`!=`, `>` or `<`: the hypothesis of every row, run_a against run_b."""
        return HYPOTHESES[self.alternative]

    def indices(self) -> tuple[list[int], list[int]]:
        """The run indices (a, b) of every row of `pairs`, in their order."""
        return ordered_pairs(len(self.scores.runs), self.alternative != "two-sided")


def ordered_pairs(k: int, ordered: bool) -> tuple[list[int], list[int]]:
    """Rows of a comparison of k runs: every i < j, or with `ordered` every i ≠ j (row-major).

    >>> ordered_pairs(3, False), ordered_pairs(3, True)
    (([0, 0, 1], [1, 2, 2]), ([0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]))
    """
    if not ordered:
        first, second = pairs(k)
        return first.tolist(), second.tolist()
    rows = [(i, j) for i in range(k) for j in range(k) if i != j]
    return [i for i, _ in rows], [j for _, j in rows]


def run_test(
    paired: PairedScores,
    test: str,
    alternative: str = "two-sided",
    samples: int = resampling.SAMPLES,
    seed: resampling.Seed = None,
    plus_one: bool = False,
) -> PairTests:
    """The raw statistics and p-values of `test` over every pair of `paired`'s runs
    (`plus_one`: the bootstrap's p as (b + 1)/(B + 1), `resampling.bootstrap_test`)."""
    check_alternative(alternative)
    if test == "tukey":
        if alternative != "two-sided":
            raise ValueError("Tukey's HSD is two-sided only")
        return tukey_hsd(paired.matrix)
    if test == "bootstrap":
        return resampling.bootstrap_tests(paired.matrix, alternative, samples, seed, plus_one)
    if test in RESAMPLING_TESTS:
        return _RESAMPLING[test](paired.matrix, alternative, samples, seed)
    if test in _CLASSICAL:
        return _CLASSICAL[test](paired.matrix, alternative)
    raise ValueError(f"test must be one of {', '.join(TESTS)}: {test!r}")


def compare(
    paired: PairedScores,
    test: str = "t",
    alternative: str = "two-sided",
    correction: str = "none",
    alpha: float = 0.05,
    samples: int = resampling.SAMPLES,
    seed: resampling.Seed = None,
    plus_one: bool = False,
) -> Comparison:
    """Run `test` on every pair, correct the p-values over the pairs, and decide at `alpha`
    (`plus_one` as `run_test`).

    Tukey's HSD already controls the family-wise error rate (spec section 8: no further
    correction, the default); a correction asked for is applied on top, conservatively.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}: {correction!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1: {alpha}")
    if test in RESAMPLING_TESTS and not isinstance(seed, int):
        # one integer seed, so that both directions of a one-sided test draw the same resamples
        seed = int(np.random.default_rng(seed).integers(2**31))
    tests = run_test(paired, test, alternative, samples, seed, plus_one)
    statistic, p = tests.statistic, tests.p
    if alternative != "two-sided":
        opposite = run_test(paired, test, _OPPOSITE[alternative], samples, seed, plus_one)
        statistic, p = _ordered(len(paired.runs), tests, opposite)
    adjusted = correct(p, correction)
    means = paired.matrix.mean(axis=0)
    first, second = ordered_pairs(len(paired.runs), alternative != "two-sided")
    rows = tuple(
        PairComparison(
            run_a=paired.runs[i],
            run_b=paired.runs[j],
            mean_a=float(means[i]),
            mean_b=float(means[j]),
            statistic=float(statistic[n]),
            p=float(p[n]),
            p_adjusted=float(adjusted[n]),
            significant=bool(adjusted[n] < alpha),
        )
        for n, (i, j) in enumerate(zip(first, second, strict=True))
    )
    return Comparison(paired, test, alternative, correction, alpha, rows)


_OPPOSITE = {"greater": "less", "less": "greater"}


def _ordered(k: int, forward: PairTests, backward: PairTests) -> tuple[FloatArray, FloatArray]:
    """Statistics and p-values of every ordered pair (row-major i ≠ j) from the tests of the
    pairs i < j in the stated direction (`forward`) and in the opposite one (`backward`: the
    test of j against i in the stated direction, its statistic negated as for a − b)."""
    low, high = pairs(k)
    index = {pair: n for n, pair in enumerate(zip(low.tolist(), high.tolist(), strict=True))}
    first, second = ordered_pairs(k, True)
    statistic, p = [], []
    for i, j in zip(first, second, strict=True):
        if i < j:
            n = index[(i, j)]
            statistic.append(forward.statistic[n])
            p.append(forward.p[n])
        else:
            n = index[(j, i)]
            statistic.append(-backward.statistic[n])
            p.append(backward.p[n])
    return np.array(statistic, dtype=np.float64), np.array(p, dtype=np.float64)


_CLASSICAL: dict[str, Callable[..., PairTests]] = {
    "t": classical.t_tests,
    "wilcoxon": classical.wilcoxon_tests,
    "sign": classical.sign_tests,
}
_RESAMPLING: dict[str, Callable[..., PairTests]] = {
    "randomisation": resampling.randomisation_tests,
    "bootstrap": resampling.bootstrap_tests,
    "sakai": resampling.sakai_tests,
}
