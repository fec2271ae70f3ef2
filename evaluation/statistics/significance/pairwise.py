"""Compare every pair of runs: one test over all pairs i < j, then a correction.

The driver behind `focal compare` and the Python API (spec section 8). Pairs are in the order the
runs were given: (0, 1), (0, 2), ..., (1, 2), ...; `d = a − b`; a pair is significant when its
adjusted p-value is below alpha (seed 002 §4.2: "less than 0.05").

>>> from evaluation.statistics.significance.pairing import pair_by_topic
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

from evaluation.statistics.significance import classical, resampling
from evaluation.statistics.significance.corrections import CORRECTIONS, correct
from evaluation.statistics.significance.pairing import PairedScores
from evaluation.statistics.significance.results import PairTests, check_alternative, pairs
from evaluation.statistics.significance.tukey import tukey_hsd

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


def run_test(
    paired: PairedScores,
    test: str,
    alternative: str = "two-sided",
    samples: int = resampling.SAMPLES,
    seed: resampling.Seed = None,
) -> PairTests:
    """The raw statistics and p-values of `test` over every pair of `paired`'s runs."""
    check_alternative(alternative)
    if test == "tukey":
        if alternative != "two-sided":
            raise ValueError("Tukey's HSD is two-sided only")
        return tukey_hsd(paired.matrix)
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
) -> Comparison:
    """Run `test` on every pair, correct the p-values over the pairs, and decide at `alpha`.

    Tukey's HSD already controls the family-wise error rate (spec section 8: no further
    correction, the default); a correction asked for is applied on top, conservatively.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}: {correction!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1: {alpha}")
    tests = run_test(paired, test, alternative, samples, seed)
    adjusted = correct(tests.p, correction)
    means = paired.matrix.mean(axis=0)
    first, second = pairs(len(paired.runs))
    rows = tuple(
        PairComparison(
            run_a=paired.runs[i],
            run_b=paired.runs[j],
            mean_a=float(means[i]),
            mean_b=float(means[j]),
            statistic=float(tests.statistic[n]),
            p=float(tests.p[n]),
            p_adjusted=float(adjusted[n]),
            significant=bool(adjusted[n] < alpha),
        )
        for n, (i, j) in enumerate(zip(first.tolist(), second.tolist(), strict=True))
    )
    return Comparison(paired, test, alternative, correction, alpha, rows)


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
