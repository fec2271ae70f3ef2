"""How likely an unjudged pooled article is to be relevant, from where the runs rank it.

Per topic, a logistic model of relevance on two features of each pooled article: the logarithm
of its best rank in any run (within the pooled part of the runs) and the share of the runs that
retrieve it, both standardised over the pool. Its coefficients get a normal prior (intercept
centred on `PRIOR_RATE`) and the posterior is approximated by a normal at its mode (Laplace):
Newton's method for the mode, the inverse Hessian for the spread (Gelman et al. 2013, ch. 4).

Why it holds under adaptive orders: every order Focal offers (rank, random, mtf, ucb, thompson,
mtc) chooses the next article from the judgements already made and the runs, never from the
unseen relevance of the article chosen, so the unjudged articles are missing at random given
what was observed and the likelihood of the judged ones is the right one to fit (Rubin 1976).
A stratified rate (the earlier estimate) assumes judged and unjudged articles alike within a
stratum, which the bandit orders break; a model conditioned on rank does not need that.
docs/forecast.md gives a worked example.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

PRIOR_RATE = 0.1
"""The prior's share of relevant articles in a pool (INEX 2010: 14 %; TREC pools about 10 %)."""
PRIOR_RANK_SLOPE = -1.0
"""The prior's mean slope on the standardised log best rank: deeper articles are less often
relevant (the premise of pooling by rank, Losada et al. 2017), so the prior leans that way."""
PRIOR_SD = np.array([2.0, 1.5, 1.5])
"""Prior standard deviations of the intercept and the two standardised slopes."""

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class TopicPool:
    """One topic: its pooled articles and, per run, the pooled articles it retrieves in rank
    order (each article once, at its first rank)."""

    topic: str
    pool: tuple[str, ...]
    runs: tuple[tuple[str, ...], ...]
    ranks: tuple[tuple[int, ...], ...] = ()
    """Per run, the rank of each of its pooled articles among the run's distinct articles
    (empty: the positions in `runs`, as when the runs were given pooled only)."""

    @staticmethod
    def of(topic: str, pool: Sequence[str], runs: Sequence[Sequence[str]]) -> TopicPool:
        """`runs` may hold unpooled articles and repeats: both are dropped here, the ranks
        kept."""
        pooled = dict.fromkeys(pool)
        lists, ranks = [], []
        for ranked in runs:
            kept = [(a, rank) for rank, a in enumerate(dict.fromkeys(ranked), 1) if a in pooled]
            lists.append(tuple(a for a, _ in kept))
            ranks.append(tuple(rank for _, rank in kept))
        return TopicPool(topic, tuple(pooled), tuple(lists), tuple(ranks))

    def run_ranks(self, run: int) -> tuple[int, ...]:
        """The ranks of run `run`'s pooled articles (see `ranks`)."""
        return self.ranks[run] if self.ranks else tuple(range(1, len(self.runs[run]) + 1))

    def positions(self) -> NDArray[np.int64]:
        """runs × pool: the rank of each article in each run (`run_ranks`; 0: not retrieved)."""
        index = {article: i for i, article in enumerate(self.pool)}
        table = np.zeros((len(self.runs), len(self.pool)), dtype=np.int64)
        for r, ranked in enumerate(self.runs):
            for position, article in zip(self.run_ranks(r), ranked, strict=True):
                table[r, index[article]] = position
        return table

    def features(self) -> Floats:
        """pool × 3: a constant, then log best rank and share of runs retrieving, standardised
        (articles no run retrieves rank just below the deepest)."""
        positions = self.positions()
        count = len(self.pool)
        if count == 0:
            return np.zeros((0, 3))
        deepest = float(positions.max(initial=0)) + 1.0
        ranked = np.where(positions > 0, positions, np.inf).min(axis=0, initial=np.inf)
        best = np.log(np.where(np.isfinite(ranked), ranked, deepest))
        share = (positions > 0).mean(axis=0) if len(self.runs) else np.zeros(count)
        columns = [np.ones(count)]
        for values in (best, share):
            spread = float(values.std())
            columns.append((values - values.mean()) / (spread if spread > 0 else 1.0))
        return np.column_stack(columns)

    def weights(self) -> Floats:
        """runs × pool: each article's discounted gain in each run, 1/log2(1 + position)
        (0 where not retrieved), the linear stand-in for a run's score that `mtc` and the
        advice use (Carterette, Allan & Sitaraman 2006 use precision and AP the same way)."""
        positions = self.positions().astype(np.float64)
        with np.errstate(divide="ignore"):
            return np.where(positions > 0, 1.0 / np.log2(1.0 + positions), 0.0)


@dataclass(frozen=True)
class Posterior:
    """The Laplace approximation: mode and covariance of the coefficients."""

    mode: Floats
    covariance: Floats

    def probabilities(self, features: Floats) -> Floats:
        """Relevance probability of each row of `features` at the posterior mode."""
        return _sigmoid(features @ self.mode)

    def draws(self, features: Floats, count: int, rng: np.random.Generator) -> Floats:
        """count × rows: relevance probabilities under `count` draws of the coefficients."""
        coefficients = rng.multivariate_normal(self.mode, self.covariance, size=count)
        return _sigmoid(coefficients @ features.T)


def fit(features: Floats, judged: Mapping[int, bool], start: Floats | None = None) -> Posterior:
    """The posterior of the coefficients given `judged` (row of `features` -> relevant).

    >>> rows = np.column_stack([np.ones(4), [-1.0, -0.5, 0.5, 1.0], np.zeros(4)])
    >>> posterior = fit(rows, {0: True, 1: True, 2: False, 3: False})
    >>> bool(posterior.mode[1] < 0)   # deeper ranks less likely relevant
    True
    """
    prior_mean = np.array([math.log(PRIOR_RATE / (1 - PRIOR_RATE)), PRIOR_RANK_SLOPE, 0.0])
    precision = np.diag(1.0 / PRIOR_SD**2)
    rows = np.fromiter(judged, dtype=np.int64, count=len(judged))
    x = features[rows] if len(rows) else np.zeros((0, features.shape[1]))
    y = np.fromiter((float(judged[int(r)]) for r in rows), dtype=np.float64, count=len(rows))

    def log_posterior(b: Floats) -> float:
        z = x @ b
        likelihood = float((y * z - np.logaddexp(0.0, z)).sum())
        return likelihood - 0.5 * float((b - prior_mean) @ precision @ (b - prior_mean))

    beta = prior_mean.copy() if start is None else start.copy()
    current = log_posterior(beta)
    for _ in range(100):
        p = _sigmoid(x @ beta)
        gradient = x.T @ (y - p) - precision @ (beta - prior_mean)
        hessian = (x.T * (p * (1 - p))) @ x + precision
        step = np.linalg.solve(hessian, gradient)
        # Newton's step, halved until the posterior does not fall (the posterior is concave).
        for _ in range(30):
            candidate = log_posterior(beta + step)
            if candidate >= current - 1e-12:
                break
            step = step / 2.0
        beta, current = beta + step, candidate
        if float(np.abs(step).max()) < 1e-8:
            break
    p = _sigmoid(x @ beta)
    hessian = (x.T * (p * (1 - p))) @ x + precision
    return Posterior(beta, np.asarray(np.linalg.inv(hessian), dtype=np.float64))


def topic_rng(seed: int | str, topic: str) -> np.random.Generator:
    """The random generator of `topic` under `seed`: topics draw independently, and the same
    seed gives the same draws (the judging orders and the forecasts seed alike)."""
    digest = hashlib.sha256(f"{seed}\x00{topic}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))


def _sigmoid(values: Floats) -> Floats:
    return 1.0 / (1.0 + np.exp(-np.clip(values, -40.0, 40.0)))
