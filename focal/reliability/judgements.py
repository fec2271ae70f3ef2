"""Reduced judgements: what a campaign would have had with a smaller pool (spec §9).

An article taken out of the qrels is *unjudged*, and Focal's measures read an unjudged article
as not relevant, as the official INEX program does. Every reduction keeps the qrels' topics
(`focal.reliability.scores` fixes the topic set), so averages stay comparable.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Literal

import numpy as np

from focal.evaluation.formats.records import Judgement
from focal.evaluation.measures.evaluate import Qrels
from focal.pooling.records import Pool, RankedRun
from focal.pooling.stats import leave_group_out
from focal.pooling.strategies import depth_k_pool, top_n_pool

Population = Literal["relevant", "judged"]
LeaveOutMethod = Literal["unique", "repool"]


def kept_count(fraction: float, available: int) -> int:
    """How many of `available` articles a sample of `fraction` keeps: rounded half up, and at
    least one when there is one (seed 004, footnote 4: a topic keeps one relevant article).

    >>> kept_count(0.2, 4), kept_count(0.2, 12), kept_count(0.25, 10), kept_count(1.0, 7)
    (1, 2, 3, 7)
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"a sampling fraction must be in (0, 1], got {fraction}")
    if available == 0:
        return 0
    return max(1, min(available, math.floor(fraction * available + 0.5)))


def sample_judgements(
    qrels: Qrels,
    fraction: float,
    rng: np.random.Generator,
    population: Population = "relevant",
) -> dict[str, dict[str, Judgement]]:
    """Keep a random `fraction` of each topic's articles, whole articles at a time (seed 004,
    "Random Sampling": all of an article's passages stay or go together).

    `population` "relevant" (the default, seed 004: non-relevant judgements do not move
    precision-based measures, so they stay) samples among the relevant articles; "judged"
    samples among every judged article, as spec §9 words it.
    """
    reduced: dict[str, dict[str, Judgement]] = {}
    for topic, judgements in qrels.items():
        pool = [a for a, j in judgements.items() if population == "judged" or j.relevant]
        chosen = rng.choice(len(pool), size=kept_count(fraction, len(pool)), replace=False)
        dropped = set(pool) - {pool[index] for index in chosen.tolist()}
        reduced[topic] = {a: j for a, j in judgements.items() if a not in dropped}
    return reduced


def restrict_to(
    qrels: Qrels, pooled: Mapping[str, Collection[str]]
) -> dict[str, dict[str, Judgement]]:
    """The judgements of pooled articles only; every qrels topic stays (maybe empty)."""
    return {
        topic: {a: j for a, j in judgements.items() if a in pooled.get(topic, ())}
        for topic, judgements in qrels.items()
    }


def pooled_articles(pool: Pool) -> dict[str, frozenset[str]]:
    """Topic -> the articles of `pool`."""
    return {topic: topic_pool.article_ids() for topic, topic_pool in pool.topics.items()}


def depth_pools(
    runs: Sequence[RankedRun], depths: Iterable[int]
) -> dict[int, dict[str, frozenset[str]]]:
    """Depth -> the depth-d pool of the runs (d distinct articles per run, as seed 004)."""
    return {depth: pooled_articles(depth_k_pool(runs, depth)) for depth in depths}


def first_depths(runs: Sequence[RankedRun], deepest: int) -> dict[str, dict[str, int]]:
    """Topic -> article -> the shallowest depth (distinct articles of a run, as seed 004 counts
    them) at which some run returns it, for depths up to `deepest`: the depth-d pool of a topic
    is the articles whose depth is at most d."""
    first_depth: dict[str, dict[str, int]] = {}
    for run in runs:
        for topic, articles in run.topics.items():
            seen = first_depth.setdefault(topic, {})
            distinct = 0
            met: set[str] = set()
            for article in articles:
                if article in met:
                    continue
                met.add(article)
                distinct += 1
                if distinct > deepest:
                    break
                if distinct < seen.get(article, deepest + 1):
                    seen[article] = distinct
    return first_depth


def depth_holding(
    runs: Sequence[RankedRun], qrels: Qrels, share: float, deepest: int
) -> dict[str, int | None]:
    """Per topic, the smallest depth d whose pool holds at least `share` of the topic's
    relevant articles (seed 004's d_Q(X), read on relevant articles as spec §9 does); None
    when even `deepest` does not (or the topic has no relevant article)."""
    first_depth = first_depths(runs, deepest)
    holding: dict[str, int | None] = {}
    for topic, judgements in qrels.items():
        relevant = [a for a, j in judgements.items() if j.relevant]
        if not relevant:
            holding[topic] = None
            continue
        needed = math.ceil(share * len(relevant) - 1e-12)
        found = sorted(first_depth.get(topic, {}).get(a, deepest + 1) for a in relevant)
        depth = found[needed - 1] if needed >= 1 else 0
        holding[topic] = depth if depth <= deepest else None
    return holding


def percent_pools(
    runs: Sequence[RankedRun], qrels: Qrels, percents: Iterable[float]
) -> tuple[dict[float, dict[str, frozenset[str]]], dict[float, dict[str, int]]]:
    """Seed 004's X % pools ("Reducing Pool Depth"): per topic Q, d_Q(X) is the smallest depth
    whose pool of the runs holds at least X % of Q's original pool size (the articles judged
    for Q in `qrels`), and the X % pool is the depth-d_Q(X) pool; X = 100 gives the "100 %
    pool" the paper rebuilds as its baseline. When the runs never reach that size, d_Q(X) is
    the depth of their deepest pool. Returns (X -> topic -> pooled articles, X -> topic ->
    d_Q(X))."""
    chosen = list(percents)
    first_depth = first_depths(runs, 10**9)
    pools: dict[float, dict[str, frozenset[str]]] = {x: {} for x in chosen}
    depths: dict[float, dict[str, int]] = {x: {} for x in chosen}
    for topic, judged in qrels.items():
        found = first_depth.get(topic, {})
        ranked = sorted(found.values())  # the k-th smallest depth: the pool reaches k articles
        for x in chosen:
            needed = math.ceil(x / 100 * len(judged) - 1e-9)
            depth = ranked[min(needed, len(ranked)) - 1] if ranked and needed > 0 else 0
            depths[x][topic] = depth
            pools[x][topic] = frozenset(a for a, d in found.items() if d <= depth)
    return pools, depths


def leave_out_pools(
    runs: Sequence[RankedRun],
    group: Collection[str],
    depth: int | None,
    size: int | None,
    method: LeaveOutMethod,
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """The full pool and the pool without `group` (run ids), as article sets per topic.

    The pool is depth-`depth` (seed 004) or top-n of `size` (seed 003). `unique` (seed 004):
    the other runs keep the depths they had, so the group's sole contributions leave; `repool`
    (seed 003 §5.2.1): the pool is built again from the other runs, which read deeper to fill a
    top-n pool (for a depth pool both readings agree).
    """
    if (depth is None) == (size is None):
        raise ValueError("give exactly one of a pool depth and a pool size")
    full = depth_k_pool(runs, depth) if depth is not None else top_n_pool(runs, size or 0)
    others = [run for run in runs if run.run_id not in group]
    if method == "unique":
        reduced = leave_group_out(full, group)
    elif depth is not None:
        reduced = depth_k_pool(others, depth)
    else:
        reduced = top_n_pool(others, size or 0)
    return pooled_articles(full), pooled_articles(reduced)
