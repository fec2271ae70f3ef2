"""The reliability studies of spec §9, each from judgements, runs and a measure to plain rows.

Every study scores the runs once with the full qrels (the reference ranking), then with reduced
qrels, and compares: Kendall τ_b and τ_AP of the rankings (`focal.evaluation.statistics`), the
change of the scores, and which significant differences survive. Sampling studies are reproducible
from `seed`: the draw of (fraction i, repeat r) uses `numpy.random.default_rng([seed, i, r])`, so it
does not depend on how many processes ran the work. `jobs` > 1 spreads the re-evaluations over
worker processes (`focal.evaluation.processes`), each given the full scoring once (`Trials`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean, pstdev
from typing import Any

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Run
from focal.evaluation.measures.evaluate import Qrels
from focal.evaluation.processes import map_on_processes
from focal.evaluation.statistics.rank_correlation import tau_ap, tau_b
from focal.evaluation.statistics.significance.pairing import PairedScores
from focal.evaluation.statistics.significance.pairwise import compare as compare_pairs
from focal.reliability import judgements
from focal.reliability.rescoring import Rescoring, rescorer
from focal.reliability.scores import ElementScoring, ScoreMatrix, score_matrix

Progress = Callable[[Iterator[Any], int], Iterator[Any]]


def _no_progress(items: Iterator[Any], total: int) -> Iterator[Any]:
    return items


@dataclass(frozen=True)
class Setup:
    """What every study shares: the judgements, the runs, and how to score them."""

    qrels: Qrels
    runs: Sequence[Run | RunColumns]
    task: str
    measure: str
    alpha: float = 0.05
    jobs: int = 1
    test: str = "t"  # any test of `focal compare`
    correction: str = "none"
    test_seed: int = 0  # for the resampling tests
    elements: ElementScoring | None = None  # task elements: element qrels and options

    def score(self, qrels: Qrels) -> ScoreMatrix:
        return score_matrix(
            qrels, self.runs, self.task, self.measure, tuple(self.qrels), self.elements
        )


@dataclass(frozen=True)
class Trials:
    """What every trial of a study needs of the full scoring: the setup, the reference scores,
    their significant pairs and the arrays `focal.reliability.rescoring` reuses. It goes whole to
    each worker process (inherited or pickled) and is gone with the study."""

    setup: Setup
    full: ScoreMatrix
    signs: NDArray[np.int8]
    fast: Rescoring | None  # None: trials are scored topic by topic

    @staticmethod
    def of(setup: Setup) -> Trials:
        """Score the runs on the full qrels, once for every trial."""
        full = setup.score(setup.qrels)
        reference_ranking(full)
        fast = rescorer(setup.qrels, setup.runs, setup.task, setup.measure, tuple(setup.qrels))
        return Trials(setup, full, significance_signs(full.values, setup), fast)

    def rescore(self, qrels: Qrels) -> ScoreMatrix:
        """A trial's scores: from the full scoring's arrays when they cover it, else topic by
        topic (the same numbers either way; tests/reliability/test_rescoring.py)."""
        scores = self.fast.score(qrels) if self.fast is not None else None
        return scores if scores is not None else self.setup.score(qrels)

    def compare(self, qrels: Qrels) -> Comparison:
        """The reduced `qrels` against the full ones."""
        return compare(self.full, self.rescore(qrels), self.signs, self.setup)


def reference_ranking(full: ScoreMatrix) -> dict[str, float]:
    """The runs' mean scores on the full qrels, which every trial's ranking is compared with.

    ValueError when every run has the same mean (most often: no run retrieves a relevant
    article, so every run scores 0): there is no ranking then, and Kendall's τ against it is
    undefined (0/0), so the study would be numbers without meaning.
    """
    means = full.means()
    if len(set(means.values())) == 1:
        value = next(iter(means.values()))
        raise ValueError(
            f"every run has the same mean score ({value:g}) with the full judgements, as when no "
            "run retrieves a relevant article: there is no ranking of the runs to compare with, "
            "and Kendall's tau is undefined"
        )
    return means


def significance_signs(matrix: NDArray[np.float64], setup: Setup) -> NDArray[np.int8]:
    """For each pair i < j of runs (rows of `matrix`, runs × topics): +1 when run i is
    significantly better than run j, −1 when worse, 0 otherwise, with `focal compare`'s test
    and correction (`focal.evaluation.statistics.significance.pairwise`; default the two-sided
    paired t test, as
    seed 003 §5.2.1 and seed 004 use). A pair whose p-value is undefined (every difference the
    same) is not significant."""
    runs = tuple(str(index) for index in range(matrix.shape[0]))
    topics = tuple(str(index) for index in range(matrix.shape[1]))
    paired = PairedScores(runs, topics, np.ascontiguousarray(matrix.T))
    with np.errstate(divide="ignore", invalid="ignore"):
        result = compare_pairs(
            paired, setup.test, "two-sided", setup.correction, setup.alpha, seed=setup.test_seed
        )
    signs = [
        (1 if row.diff > 0 else -1) if row.significant and row.p == row.p else 0
        for row in result.pairs
    ]
    return np.array(signs, dtype=np.int8)


@dataclass(frozen=True)
class Comparison:
    """A reduced collection against the full one."""

    tau: float
    tau_ap: float
    change: float  # mean over runs of (reduced score − full score)
    significant_full: int  # pairs significantly different with the full qrels
    kept: float  # share of those still significant, same direction (1 when there is none)


def compare(
    full: ScoreMatrix, reduced: ScoreMatrix, full_signs: NDArray[np.int8], setup: Setup
) -> Comparison:
    reference, other = full.means(), reduced.means()
    signs = significance_signs(reduced.values, setup)
    significant = int(np.count_nonzero(full_signs))
    kept = int(np.count_nonzero((full_signs != 0) & (signs == full_signs)))
    change = fmean(other[run] - reference[run] for run in reference)
    return Comparison(
        tau_b(reference, other),
        tau_ap(reference, other),
        change,
        significant,
        kept / significant if significant else 1.0,
    )


@dataclass(frozen=True)
class Spread:
    mean: float
    sd: float  # population standard deviation over the repeats

    @staticmethod
    def of(values: Sequence[float]) -> Spread:
        """Mean and population SD of `values`; both NaN when a value is (τ against a trial's
        ranking whose runs all tie is undefined), which `statistics.pstdev` cannot take."""
        if any(math.isnan(value) for value in values):
            return Spread(math.nan, math.nan)
        return Spread(fmean(values), pstdev(values) if len(values) > 1 else 0.0)


@dataclass(frozen=True)
class SampleRow:
    """Pool sampling at one fraction, over the repeats (seed 004 Tables 1-2)."""

    fraction: float
    repeats: int
    relevant: float  # relevant articles kept, mean over repeats
    tau: Spread
    tau_ap: Spread
    change: Spread
    significant_full: int
    kept: Spread


def _sampled(trials: Trials, task: tuple[int, int, float, int, str]) -> tuple[int, Comparison, int]:
    index, repeat, fraction, seed, population = task
    rng = np.random.default_rng([seed, index, repeat])
    qrels = judgements.sample_judgements(trials.setup.qrels, fraction, rng, population)  # type: ignore[arg-type]
    relevant = sum(1 for topic in qrels.values() for j in topic.values() if j.relevant)
    return index, trials.compare(qrels), relevant


def _run_all(
    function: Callable[[Trials, Any], Any], trials: Trials, tasks: list[Any], progress: Progress
) -> list[Any]:
    """`function(trials, task)` of every task, in order, on `trials.setup.jobs` processes."""
    done = map_on_processes(function, trials, tasks, trials.setup.jobs)
    return list(progress(done, len(tasks)))


def pool_sampling(
    setup: Setup,
    fractions: Sequence[float],
    repeats: int,
    seed: int,
    population: judgements.Population = "relevant",
    progress: Progress = _no_progress,
) -> list[SampleRow]:
    """Random pool sampling at article granularity (seed 004, "Random Sampling")."""
    tasks = [
        (index, repeat, fraction, seed, population)
        for index, fraction in enumerate(fractions)
        for repeat in range(repeats)
    ]
    outcomes = _run_all(_sampled, Trials.of(setup), tasks, progress)
    rows = []
    for index, fraction in enumerate(fractions):
        mine = [(c, r) for i, c, r in outcomes if i == index]
        comparisons = [c for c, _ in mine]
        rows.append(
            SampleRow(
                fraction,
                repeats,
                fmean(r for _, r in mine),
                Spread.of([c.tau for c in comparisons]),
                Spread.of([c.tau_ap for c in comparisons]),
                Spread.of([c.change for c in comparisons]),
                comparisons[0].significant_full,
                Spread.of([c.kept for c in comparisons]),
            )
        )
    return rows


@dataclass(frozen=True)
class DepthRow:
    """The qrels restricted to the depth-d pool of the runs (seed 004 Tables 4-5)."""

    depth: int
    judged: int
    relevant: int
    comparison: Comparison


def _depth(trials: Trials, depth_and_pool: tuple[int, Mapping[str, frozenset[str]]]) -> DepthRow:
    depth, pooled = depth_and_pool
    qrels = judgements.restrict_to(trials.setup.qrels, pooled)
    judged = sum(len(topic) for topic in qrels.values())
    relevant = sum(1 for topic in qrels.values() for j in topic.values() if j.relevant)
    return DepthRow(depth, judged, relevant, trials.compare(qrels))


def pool_depths(
    setup: Setup,
    pools: Mapping[int, Mapping[str, frozenset[str]]],
    progress: Progress = _no_progress,
) -> list[DepthRow]:
    """One row per depth, in the order given."""
    return _run_all(_depth, Trials.of(setup), list(pools.items()), progress)
