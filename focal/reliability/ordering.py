"""The judging-order simulator: complete judgements replayed under each policy (`focal pool
simulate`, docs/pooling.md).

For every topic the pool is the topic's judged articles (by default those the given runs
retrieve), in pool-rank order (each article at the
best distinct rank any run gives it, ties in run order; articles no run retrieved last, by id).
Each policy (`focal.pooling.ordering`) orders the pool, its judgements read from the qrels,
`repeats` times for the policies that draw at random (once for the others, whose order the seed does
not change). From the orders: the relevant articles and relevant characters found after k judgements
(the curves), the judgements needed to find a share of a topic's relevant articles (the
budgets), and, at each budget k per topic, the ranking of the runs by the qrels of the first k
judgements (an unjudged article is not relevant) against the ranking by the full qrels (Kendall
τ and τ_AP, through `focal.reliability.studies.pool_depths`, as the depth study compares pools).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.formats.records import Judgement
from focal.pooling.ordering.arms import Arms
from focal.pooling.ordering.policies import POLICIES
from focal.pooling.ordering.replay import judging_order
from focal.pooling.records import RankedRun, natural_key
from focal.reliability.studies import Progress, Setup, Spread, Trials, _no_progress, pool_depths

PoolScope = Literal["runs", "qrels"]

SHARES = (0.5, 0.8, 0.9, 0.95)
"""Shares of a topic's relevant articles the budgets table reports (`found`)."""


def pool_in_rank_order(
    judged: Mapping[str, Judgement], runs: Sequence[tuple[str, Sequence[str]]]
) -> list[str]:
    """The judged articles by best distinct rank in any run (ties: the earlier run), then the
    articles no run retrieved, by id.

    >>> from focal.evaluation.formats.records import Judgement
    >>> judged = {a: Judgement("1", a, 0, 10, None, (), 0) for a in "abcz"}
    >>> pool_in_rank_order(judged, [("r1", ["b", "x", "a"]), ("r2", ["c", "b"])])
    ['b', 'c', 'a', 'z']
    """
    best: dict[str, tuple[int, int]] = {}
    for position, (_, articles) in enumerate(runs):
        rank = 0
        for article in dict.fromkeys(articles):
            if article not in judged:
                continue
            rank += 1
            best[article] = min(best.get(article, (rank, position)), (rank, position))
    ranked = sorted(best, key=lambda article: best[article])
    return ranked + sorted((a for a in judged if a not in best), key=natural_key)


@dataclass
class TopicOrders:
    """One topic: its pool, what the qrels say of each article, and each policy's orders."""

    topic: str
    pool: list[str]
    relevant: dict[str, bool]
    characters: dict[str, int]
    orders: dict[str, list[list[str]]] = field(default_factory=dict)  # policy -> per repeat

    def found(self, order: Sequence[str]) -> NDArray[np.float64]:
        """Relevant articles found after k = 0..len(pool) judgements of `order`."""
        steps = [float(self.relevant[a]) for a in order]
        return np.concatenate(([0.0], np.cumsum(steps)))

    def characters_found(self, order: Sequence[str]) -> NDArray[np.float64]:
        steps = [float(self.characters[a]) for a in order]
        return np.concatenate(([0.0], np.cumsum(steps)))

    def needed(self, order: Sequence[str], share: float) -> int | None:
        """Judgements of `order` until `share` of the relevant articles are found (None when
        the topic has none)."""
        total = sum(self.relevant.values())
        if total == 0:
            return None
        target = math.ceil(share * total - 1e-12)
        return int(np.searchsorted(self.found(order), target)) if target > 0 else 0


def simulate_orders(
    qrels: Mapping[str, Mapping[str, Judgement]],
    runs: Sequence[RankedRun],
    policies: Sequence[str],
    repeats: int = 5,
    seed: int = 0,
    progress: Progress = _no_progress,
    pool: PoolScope = "runs",
) -> list[TopicOrders]:
    """Every policy's orders of every qrels topic's pool (repeat r is seeded `seed + r`).

    `pool` "runs" (the default) pools the judged articles that the given runs retrieve, what a
    campaign of these runs would judge; "qrels" every judged article, those no run retrieved
    coming last in every order (a qrels pooled from more runs than those given)."""
    unknown = [name for name in policies if name not in POLICIES]
    if unknown:
        raise ValueError(f"unknown judging order {unknown[0]!r}: one of {', '.join(POLICIES)}")
    topics: list[TopicOrders] = []
    for topic, judged in progress(iter(qrels.items()), len(qrels)):
        ranked = [(run.run_id, run.topics.get(topic, ())) for run in runs]
        if pool == "runs":
            retrieved = {article for _, articles in ranked for article in articles}
            judged = {a: j for a, j in judged.items() if a in retrieved}
        pooled = pool_in_rank_order(judged, ranked)
        base = Arms(ranked, pooled)
        relevant = {a: j.relevant for a, j in judged.items()}
        orders = TopicOrders(topic, pooled, relevant, {a: j.rel_chars for a, j in judged.items()})
        for name in policies:
            times = 1 if POLICIES[name].deterministic else repeats
            orders.orders[name] = [
                judging_order(name, base.restart(), relevant, seed + r, topic) for r in range(times)
            ]
        topics.append(orders)
    return topics


def curves(topics: Sequence[TopicOrders], policy: str) -> tuple[NDArray[np.float64], ...]:
    """For k = 0..largest pool: the mean over topics with relevant articles (of the mean over
    repeats) of the relevant articles found, their share, and the share of relevant characters
    found."""
    counted = [t for t in topics if any(t.relevant.values())]
    if not counted:
        return np.zeros(1), np.zeros(1), np.zeros(1)
    longest = max(len(t.pool) for t in counted)
    found, share, characters = [], [], []
    for topic in counted:
        orders = topic.orders[policy]
        mean_found = np.mean([_padded(topic.found(o), longest) for o in orders], axis=0)
        mean_chars = np.mean([_padded(topic.characters_found(o), longest) for o in orders], axis=0)
        found.append(mean_found)
        share.append(mean_found / sum(topic.relevant.values()))
        characters.append(mean_chars / max(1, sum(topic.characters.values())))
    return tuple(np.mean(np.stack(values), axis=0) for values in (found, share, characters))


def _padded(values: NDArray[np.float64], longest: int) -> NDArray[np.float64]:
    return np.concatenate((values, np.full(longest + 1 - len(values), values[-1])))


def budget_rows(
    topics: Sequence[TopicOrders], policies: Sequence[str], shares: Sequence[float] = SHARES
) -> list[dict[str, str | float]]:
    """Rows (policy, topic, found, judgements): the judgements needed to find each share of a
    topic's relevant articles (mean over repeats), then `all`, the mean over the topics with
    relevant articles."""
    rows: list[dict[str, str | float]] = []
    for policy in policies:
        for share in shares:
            per_topic = []
            for topic in topics:
                needs = [topic.needed(order, share) for order in topic.orders[policy]]
                if needs and needs[0] is not None:
                    value = fmean(n for n in needs if n is not None)
                    per_topic.append(value)
                    rows.append(_budget(policy, topic.topic, share, value))
            rows.append(_budget(policy, "all", share, fmean(per_topic) if per_topic else 0.0))
    return rows


def _budget(policy: str, topic: str, share: float, value: float) -> dict[str, str | float]:
    return {"policy": policy, "topic": topic, "found": share, "judgements": value}


@dataclass(frozen=True)
class RankingRow:
    """One policy at one budget: mean judged and relevant per topic, τ and τ_AP over repeats."""

    policy: str
    budget: int
    judged: float
    relevant: float
    tau: float
    tau_sd: float
    tau_ap: float
    tau_ap_sd: float


def ranking_rows(
    setup: Setup,
    topics: Sequence[TopicOrders],
    policies: Sequence[str],
    budgets: Sequence[int],
    progress: Progress = _no_progress,
) -> list[RankingRow]:
    """Per policy and budget k, the runs ranked with the qrels of each topic's first k
    judgements against the ranking with the full qrels."""
    keys: list[tuple[str, int, int]] = []
    pools: dict[int, dict[str, frozenset[str]]] = {}
    for policy in policies:
        repeats = max(len(topic.orders[policy]) for topic in topics) if topics else 0
        for budget in budgets:
            for repeat in range(repeats):
                pools[len(keys)] = {
                    t.topic: frozenset(
                        t.orders[policy][min(repeat, len(t.orders[policy]) - 1)][:budget]
                    )
                    for t in topics
                }
                keys.append((policy, budget, repeat))
    with warnings.catch_warnings():
        # A small budget leaves many runs with nearly equal scores: scipy's t test then warns
        # of precision loss, and such a pair is not significant anyway.
        warnings.simplefilter("ignore", RuntimeWarning)
        rows = pool_depths(setup, pools, progress)
    grouped: dict[tuple[str, int], list[int]] = {}
    for index, (policy, budget, _) in enumerate(keys):
        grouped.setdefault((policy, budget), []).append(index)
    count = max(1, len(topics))
    result = []
    for (policy, budget), indices in grouped.items():
        tau = Spread.of([rows[i].comparison.tau for i in indices])
        tau_ap = Spread.of([rows[i].comparison.tau_ap for i in indices])
        result.append(
            RankingRow(
                policy, budget,
                fmean(rows[i].judged for i in indices) / count,
                fmean(rows[i].relevant for i in indices) / count,
                tau.mean, tau.sd, tau_ap.mean, tau_ap.sd,
            )
        )  # fmt: skip
    return result


@dataclass(frozen=True)
class SettledRow:
    """One policy: the budget per topic from which the runs' ranking stays the complete qrels'
    ranking (`settled_at`, mean and SD over repeats; None when no budget does), the judgements
    it takes summed over topics (mean over repeats) and the pooled articles there are."""

    policy: str
    settled_at: float | None
    settled_at_sd: float | None
    judgements: float | None
    pool: int


def settled_rows(
    setup: Setup,
    topics: Sequence[TopicOrders],
    policies: Sequence[str],
    progress: Progress = _no_progress,
) -> list[SettledRow]:
    """Per policy, when the ranking of the runs is settled (docs/pooling.md): the smallest
    budget k such that at k and at every larger budget each pair of runs is ordered (or tied)
    by each topic's first judgements as by the complete qrels. Not τ ≥ 0.9: a pair may still be
    wrong there, and with few distinct runs τ passes it with the first judgement."""
    trials = Trials.of(setup)
    rows = []
    for policy in progress(iter(policies), len(policies)):
        repeats = max((len(t.orders[policy]) for t in topics), default=0)
        found = [_settled_at(trials, _replay(topics, policy, r)) for r in range(repeats)]
        pool = sum(len(t.pool) for t in topics)
        reached = [float(k) for k in found if k is not None]
        if not found or len(reached) < len(found):
            rows.append(SettledRow(policy, None, None, None, pool))
            continue
        spent = [float(sum(min(k, len(t.pool)) for t in topics)) for k in reached]
        spread = Spread.of(reached)
        rows.append(SettledRow(policy, spread.mean, spread.sd, fmean(spent), pool))
    return rows


def _replay(topics: Sequence[TopicOrders], policy: str, repeat: int) -> dict[str, list[str]]:
    """Each topic's order under `policy` in `repeat` (the last one for a topic with fewer)."""
    return {t.topic: t.orders[policy][min(repeat, len(t.orders[policy]) - 1)] for t in topics}


def _settled_at(trials: Trials, orders: Mapping[str, Sequence[str]]) -> int | None:
    """The settled budget of one replay (None: not even the whole pool gives the full order),
    searched downwards from the largest pool so that a later flip back is never missed; the
    qrels at a budget are each topic's first judgements (as `judgements.restrict_to` would
    give, without walking the whole qrels at each budget)."""
    qrels = trials.setup.qrels
    full = trials.full.means()
    runs, reference = list(full), _pair_signs(list(full.values()))

    def same(budget: int) -> bool:
        first: dict[str, dict[str, Judgement]] = {topic: {} for topic in qrels}
        first |= {
            topic: {a: qrels[topic][a] for a in order[:budget]} for topic, order in orders.items()
        }
        means = trials.rescore(first).means()
        return bool((_pair_signs([means[run] for run in runs]) == reference).all())

    budget = max((len(order) for order in orders.values()), default=0)
    if not same(budget):
        return None
    while budget > 1 and same(budget - 1):
        budget -= 1
    return budget


def _pair_signs(values: Sequence[float]) -> NDArray[np.int8]:
    """For each pair of runs: 1, −1 or 0 (a tie, within 1e-12)."""
    array = np.asarray(values, dtype=np.float64)
    first, second = np.triu_indices(len(array), 1)
    difference = array[first] - array[second]
    return np.where(np.abs(difference) <= 1e-12, 0, np.sign(difference)).astype(np.int8)
