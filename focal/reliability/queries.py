"""Query sampling and the τ ≥ 0.9 summaries of seed 004 (spec §9).

Query sampling (seed 004, "Query Sampling", Fig 3 and Table 6): each trial draws n of the
topics at random, without replacement, keeps every judgement of the chosen topics, and ranks the
runs by their mean over those n topics; τ_b and τ_AP
(`focal.evaluation.statistics.rank_correlation`) compare that ranking with the ranking on every
topic. Trial r of size n draws with `numpy.random.default_rng([seed, n, r])`, so a size's draws do
not depend on the other sizes.

The summaries read a study's rows the way Tables 3 and 6 do: the smallest level (relevant
articles kept, or topics) from which every larger level tested keeps the mean τ at or above the
threshold; the paper's wording follows (">a" when no level reaches it, "≤b" when the smallest
level tested already does, "a < · ≤ b" between two levels tested).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from focal.evaluation.statistics.rank_correlation import tau_ap, tau_b
from focal.reliability.scores import ScoreMatrix
from focal.reliability.studies import Spread, reference_ranking


@dataclass(frozen=True)
class QueryRow:
    """The rankings on `trials` random sets of `size` topics against the ranking on all."""

    size: int
    trials: int
    tau: Spread
    tau_ap: Spread
    tau_min: float


def query_sampling(
    full: ScoreMatrix, sizes: Sequence[int], trials: int, seed: int
) -> list[QueryRow]:
    """One row per size, in the order given; sizes between 1 and the number of topics."""
    topics = len(full.topics)
    if not all(1 <= size <= topics for size in sizes):
        raise ValueError(f"a topic sample size is between 1 and {topics}")
    reference = reference_ranking(full)
    rows = []
    for size in sizes:
        taus, taus_ap = [], []
        for trial in range(trials):
            rng = np.random.default_rng([seed, size, trial])
            chosen = np.sort(rng.choice(topics, size=size, replace=False))
            subset = ScoreMatrix(full.runs, tuple(full.topics[i] for i in chosen),
                                 full.values[:, chosen])  # fmt: skip
            means = subset.means()
            taus.append(tau_b(reference, means))
            taus_ap.append(tau_ap(reference, means))
        lowest = math.nan if any(math.isnan(tau) for tau in taus) else min(taus)
        rows.append(QueryRow(size, trials, Spread.of(taus), Spread.of(taus_ap), lowest))
    return rows


@dataclass(frozen=True)
class Threshold:
    """Where the mean τ reaches `threshold` among the levels tested (see the module doc)."""

    threshold: float
    reaching: float | None  # the smallest level from which every larger one reaches it
    below: float | None  # the largest level tested under `reaching` (or the largest tested)

    def text(self, total: float) -> str:
        """The paper's cell: levels with their share of `total` (Table 3: "<2,589 (<40%)")."""

        def level(value: float) -> str:
            return f"{value:,.0f} ({100 * value / total:.0f}%)" if total else f"{value:g}"

        if self.reaching is None:
            return f">{level(self.below or 0)}"
        if self.below is None:
            return f"<={level(self.reaching)}"
        return f">{level(self.below)}, <={level(self.reaching)}"


def threshold(levels: Sequence[float], taus: Sequence[float], at: float = 0.9) -> Threshold:
    """The smallest of `levels` from which the mean τ of every larger level is ≥ `at`.

    >>> threshold([20, 40, 60, 80], [0.7, 0.95, 0.88, 0.93])
    Threshold(threshold=0.9, reaching=80, below=60)
    >>> threshold([20, 40], [0.95, 0.99]).text(100), threshold([20, 40], [0.5, 0.6]).text(100)
    ('<=20 (20%)', '>40 (40%)')
    """
    pairs = sorted(zip(levels, taus, strict=True))
    reaching: float | None = None
    below: float | None = None
    for value, tau in reversed(pairs):
        if tau < at:
            below = value
            break
        reaching = value
    return Threshold(at, reaching, below)
