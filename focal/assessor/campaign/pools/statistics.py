"""Statistics of the pools in the database, as `focal pool stats` reports them for a pool file.

No Flask. A stored pool keeps its articles but not which runs contributed each one, so the
pool of every topic is built again from the imported runs with the method and size it was
stored with (`focal.assessor.campaign.pools.build`), and `focal.pooling.stats.pool_statistics`
measures it: pool size, how deep each run was read, each run's contributed and unique articles
(docs/pooling.md; seed 003 Table VI). The stored size can be smaller than the pooled one: articles
missing from the collection are left out of the stored pool and counted apart. Topics pooled another
way (e.g. by hand) are listed without run statistics.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools.build import ranked_runs
from focal.assessor.store.models import Pool, PoolEntry
from focal.pooling.records import Pool as PooledTopics
from focal.pooling.records import RankedRun, TopicPool, natural_key
from focal.pooling.stats import PoolStatistics, pool_statistics
from focal.pooling.strategies import depth_k_pool, top_n_pool


@dataclass(frozen=True, slots=True)
class StoredPool:
    """One topic's pool as stored: how it was built and how many articles assessors see."""

    topic: str
    method: str
    size: int  # the method's n (top-n) or k (depth-k)
    order: str
    stored: int  # articles in the stored pool
    pooled: int | None  # articles the method pools now (None: not a top-n or depth pool)


@dataclass(frozen=True, slots=True)
class DatabasePoolReport:
    pools: tuple[StoredPool, ...]
    statistics: PoolStatistics | None  # None: no top-n or depth pool stored


def database_pool_report(session: Session) -> DatabasePoolReport:
    """Every stored pool, and the statistics of the top-n and depth pools among them."""
    stored_sizes = dict(
        session.execute(
            select(Pool.topic_id, func.count(PoolEntry.id))
            .outerjoin(PoolEntry)
            .group_by(Pool.topic_id)
        ).all()
    )
    pools = sorted(session.scalars(select(Pool)), key=lambda pool: natural_key(pool.topic_id))
    groups: dict[tuple[str, int], list[str]] = defaultdict(list)
    for pool in pools:
        size = int(pool.parameters.get("size", 0))
        if pool.method in ("topn", "depth") and size > 0:
            groups[(pool.method, size)].append(pool.topic_id)
    topics: dict[str, TopicPool] = {}
    run_ids: tuple[str, ...] = ()
    all_runs = ranked_runs(session, [topic for chosen in groups.values() for topic in chosen])
    for (method, size), topic_ids in groups.items():
        runs = [
            RankedRun(run.run_id, {t: run.topics[t] for t in topic_ids if t in run.topics})
            for run in all_runs
        ]
        built = top_n_pool(runs, size=size) if method == "topn" else depth_k_pool(runs, size)
        topics.update(built.topics)
        run_ids = built.run_ids
    rows = tuple(
        StoredPool(
            pool.topic_id,
            pool.method,
            int(pool.parameters.get("size", 0)),
            str(pool.parameters.get("order", "")),
            int(stored_sizes.get(pool.topic_id, 0)),
            len(topics[pool.topic_id]) if pool.topic_id in topics else None,
        )
        for pool in pools
    )
    if not groups:
        return DatabasePoolReport(rows, None)
    ordered = {topic: topics[topic] for topic in sorted(topics, key=natural_key)}
    combined = PooledTopics("database pools", run_ids, ordered)
    return DatabasePoolReport(rows, pool_statistics(combined, all_runs))
