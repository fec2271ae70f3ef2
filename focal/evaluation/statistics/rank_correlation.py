"""How far two rankings of the same runs agree: Kendall's τ_a and τ_b, and τ_AP (spec §9).

A ranking orders runs by a measure's mean, best first. Reliability studies (seed 004 Tables 1-5,
seed 003 §5.2.1) compare the ranking a full test collection gives with the one a reduced
collection gives: τ counts discordant pairs anywhere in the list; τ_AP (Yilmaz, Aslam &
Robertson 2008) weighs a discordance more the nearer it is to the top.

Tie rule: τ_a counts a pair tied in either ranking as neither concordant nor discordant; τ_b is
scipy's (ties corrected in the denominator). τ_AP is defined on strict orders, so both rankings
are made strict first, ties in score broken by run id (ascending): `ranking` does exactly that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True, slots=True)
class RankCorrelation:
    """τ_a, τ_b and τ_AP of `other` against `reference`, over `runs` runs."""

    runs: int
    tau_a: float
    tau_b: float
    tau_ap: float


def ranking(scores: Mapping[str, float]) -> list[str]:
    """Run ids best first; equal scores in run-id order, so the ranking is a strict order.

    >>> ranking({"b": 0.5, "a": 0.5, "c": 0.7})
    ['c', 'a', 'b']
    """
    return sorted(scores, key=lambda run: (-scores[run], run))


def _common(reference: Mapping[str, float], other: Mapping[str, float]) -> list[str]:
    runs = sorted(set(reference) & set(other))
    if len(runs) != len(reference) or len(runs) != len(other):
        missing = sorted(set(reference) ^ set(other))
        raise ValueError(f"the rankings do not rank the same runs: {', '.join(missing[:5])}")
    if len(runs) < 3:
        raise ValueError(f"a rank correlation needs at least three runs, got {len(runs)}")
    return runs


def tau_a(reference: Mapping[str, float], other: Mapping[str, float]) -> float:
    """Kendall's τ_a = (concordant − discordant) / (n(n−1)/2); a tied pair counts as neither.

    >>> tau_a({"a": 3, "b": 2, "c": 1}, {"a": 1, "b": 2, "c": 3})
    -1.0
    """
    runs = _common(reference, other)
    x = np.array([reference[run] for run in runs], dtype=float)
    y = np.array([other[run] for run in runs], dtype=float)
    upper = np.triu_indices(len(runs), 1)
    signs = np.sign(np.subtract.outer(x, x))[upper] * np.sign(np.subtract.outer(y, y))[upper]
    return float(signs.sum() / len(signs))


def tau_b(reference: Mapping[str, float], other: Mapping[str, float]) -> float:
    """Kendall's τ_b as scipy computes it (ties corrected); equals τ_a without ties.

    >>> tau_b({"a": 3, "b": 2, "c": 1, "d": 0}, {"a": 3, "b": 2, "c": 0, "d": 1})
    0.6666666666666669
    """
    runs = _common(reference, other)
    x = [reference[run] for run in runs]
    y = [other[run] for run in runs]
    return float(stats.kendalltau(x, y, variant="b").statistic)


def tau_ap(reference: Mapping[str, float], other: Mapping[str, float]) -> float:
    """τ_AP of `other` with `reference` as the truth (Yilmaz, Aslam & Robertson 2008).

    Walk `other`'s ranking from its second run on; for the run at position i (1-based, i ≥ 2)
    let C(i) be how many of the i − 1 runs above it are above it in the reference ranking too.
    Then τ_AP = 2/(N − 1) · Σ_{i=2..N} C(i)/(i − 1) − 1: 1 for the same order, −1 reversed.
    Not symmetric: errors near the top of `other` cost most.

    Worked: reference a b c. `other` b a c (a swap at the top): C(2) = 0 (b is not above a in
    the reference), C(3) = 2, so τ_AP = 2/2 · (0 + 2/2) − 1 = 0. `other` a c b (a swap at the
    bottom): C(2) = 1, C(3) = 1, so τ_AP = (1 + 1/2) − 1 = 0.5. τ is 1/3 for both.

    >>> tau_ap({"a": 3, "b": 2, "c": 1}, {"b": 3, "a": 2, "c": 1})
    0.0
    >>> tau_ap({"a": 3, "b": 2, "c": 1}, {"a": 3, "c": 2, "b": 1})
    0.5
    """
    runs = _common(reference, other)
    position = {run: index for index, run in enumerate(ranking(reference))}
    walked = np.array([position[run] for run in ranking(other)])
    # above[i, j]: run j (earlier in `other`) is above run i in the reference too.
    above = walked[None, :] < walked[:, None]
    earlier = np.tril(np.ones((len(runs), len(runs)), dtype=bool), -1)
    correct = (above & earlier).sum(axis=1)[1:]
    return float(2.0 / (len(runs) - 1) * (correct / np.arange(1, len(runs))).sum() - 1.0)


def rank_correlation(reference: Mapping[str, float], other: Mapping[str, float]) -> RankCorrelation:
    """All three coefficients; raises ValueError for fewer than three runs or different runs."""
    runs = _common(reference, other)
    return RankCorrelation(
        len(runs), tau_a(reference, other), tau_b(reference, other), tau_ap(reference, other)
    )


def run_means(values: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """Run id -> mean of its per-topic values (in the order given, as `focal eval` sums)."""
    return {run: sum(column) / len(column) if column else 0.0 for run, column in values.items()}
