"""Which judgements would settle the pairs of runs not yet settled, and which topics may stop.

A minimal test collection (Carterette, Allan & Sitaraman 2006) judges the article whose
relevance most changes what is known of the comparisons still open. With a linear stand-in for
a run's score on a topic, Σ_d w_r(d)·x_d (`TopicPool.weights`: 1/log2(1 + rank), x_d = 1 for
a relevant article), the difference of runs i and j has variance Σ_d c(d)² p_d(1 − p_d) over
the unjudged articles, c(d) = w_i(d) − w_j(d), p_d the article's relevance probability; judging
d removes its term. The campaign advice scores an article by the share of each open pair's
variance it removes, summed over the open pairs, and counts how many such judgements remove most
of it. The `mtc` judging order takes the article whose judgement is expected to move the open
pairs' differences most, as the ranking by the judgements so far sees them (an unjudged article
counts as not relevant there, so judging d moves a difference by c(d) with probability p_d):
Σ over open pairs of |c(d)|·p_d / sd of the pair, over every pair when none is open. Carterette,
Allan & Sitaraman (2006) weigh a document by its effect on the difference in the same way.

The per-topic stopping rule: a topic may stop when, for every open pair, all its unjudged
articles together hold less than 1 − confidence of the pair's variance (judging the rest of it
cannot move a pair's probability across the confidence), or when no pair is open.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]


def pair_indices(runs: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The pairs (i < j) of `runs` runs, as two index arrays."""
    first, second = np.triu_indices(runs, 1)
    return first.astype(np.int64), second.astype(np.int64)


def pair_terms(weights: Floats, probabilities: Floats) -> Floats:
    """pairs × articles: each article's term c(d)² p(1 − p) in each pair's variance (0 for
    judged articles, whose probability is 0 or 1)."""
    first, second = pair_indices(weights.shape[0])
    spread = probabilities * (1.0 - probabilities)
    return (weights[first] - weights[second]) ** 2 * spread


def open_pairs(weights: Floats, probabilities: Floats, confidence: float) -> NDArray[np.bool_]:
    """Per pair: whether one topic alone leaves its order open, by the normal approximation
    of the difference (mean Σ c(d)p_d, variance as above) at `confidence`.

    >>> weights = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> open_pairs(weights, np.array([1.0, 0.0]), 0.9).tolist()   # judged: settled
    [False]
    >>> open_pairs(weights, np.array([0.5, 0.5]), 0.9).tolist()
    [True]
    """
    first, second = pair_indices(weights.shape[0])
    difference = weights[first] - weights[second]
    mean = difference @ probabilities
    sd = np.sqrt((difference**2) @ (probabilities * (1.0 - probabilities)))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sd > 0, np.abs(mean) / sd, np.inf)
    settled = np.array([_normal_cdf(value) for value in z]) >= confidence
    return np.asarray(~settled, dtype=bool)


def article_scores(terms: Floats, open_mask: NDArray[np.bool_], totals: Floats) -> Floats:
    """Per article: the share of each open pair's variance (`totals`) its judgement removes,
    summed over the open pairs.

    >>> terms = np.array([[0.2, 0.6], [0.0, 0.0]])
    >>> article_scores(terms, np.array([True, True]), np.array([0.8, 0.0])).round(3).tolist()
    [0.25, 0.75]
    """
    chosen = open_mask & (totals > 0)
    if not chosen.any():
        return np.zeros(terms.shape[1])
    return np.asarray((terms[chosen] / totals[chosen, None]).sum(axis=0), dtype=np.float64)


def shift_scores(weights: Floats, probabilities: Floats, open_mask: NDArray[np.bool_]) -> Floats:
    """Per article: the expected movement of the open pairs' differences (in each pair's
    standard deviations) when it is judged; every pair when none is open (`mtc`).

    >>> weights = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]])
    >>> shift_scores(weights, np.array([0.5, 0.2, 0.9]), np.array([True])).round(3).tolist()
    [0.781, 0.312, 0.0]
    """
    first, second = pair_indices(weights.shape[0])
    difference = np.abs(weights[first] - weights[second])
    spread = probabilities * (1.0 - probabilities)
    sd = np.sqrt((difference**2) @ spread)
    chosen = open_mask if open_mask.any() else np.ones(len(open_mask), dtype=bool)
    scale = np.where(sd[chosen] > 0, sd[chosen], 1.0)
    return np.asarray(((difference[chosen] * probabilities) / scale[:, None]).sum(axis=0))


def may_stop(topic_totals: Floats, totals: Floats, open_mask: NDArray[np.bool_],
             confidence: float) -> bool:  # fmt: skip
    """The stopping rule for one topic: `topic_totals` its unjudged articles' share of each
    pair's variance `totals` (pairs of the campaign, `open_mask` those still open).

    >>> may_stop(np.array([0.01, 0.5]), np.array([1.0, 1.0]), np.array([True, False]), 0.9)
    True
    >>> may_stop(np.array([0.2, 0.0]), np.array([1.0, 1.0]), np.array([True, False]), 0.9)
    False
    """
    chosen = open_mask & (totals > 0)
    if not chosen.any():
        return True
    return bool((topic_totals[chosen] / totals[chosen] < 1.0 - confidence).all())


def most_of(scores: Sequence[float], share: float = 0.8) -> int:
    """How many of the highest `scores` it takes to reach `share` of their sum (0 if none).

    >>> most_of([5.0, 3.0, 1.0, 1.0])
    2
    """
    ordered = sorted((s for s in scores if s > 0), reverse=True)
    total = sum(ordered)
    if total <= 0:
        return 0
    running = 0.0
    for count, value in enumerate(ordered, 1):
        running += value
        if running >= share * total - 1e-12:
            return count
    return len(ordered)


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0))) if math.isfinite(z) else 1.0
