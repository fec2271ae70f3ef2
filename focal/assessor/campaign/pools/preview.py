"""What a rebuild of the pools would change, before it is made (no Flask).

The organiser's Pools page opens with the settings the stored pools were built with, and a
rebuild of pools that exist (assessors may be judging them) is first shown as a preview: per
topic, the pool's size before and after, the articles it would gain and lose, and how many of
the lost ones someone has judged (their judgements stay, but the assessors no longer see them).
The preview builds the pools inside a savepoint with `build.build_pools` itself, reads them and
rolls the savepoint back, so it shows exactly what the rebuild would store.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools.build import Method, Order, build_pools
from focal.assessor.store.models import Assignment, Judgement, Pool, PoolEntry


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """How pools are built: method, n or k, display order, seed (`build.build_pools`)."""

    method: Method = "topn"
    size: int = 500
    order: Order = "article"
    seed: int = 0


@dataclass(frozen=True, slots=True)
class PoolChange:
    """What a rebuild does to one topic's pool."""

    topic: str
    before: int  # articles now (0: no pool yet)
    after: int
    added: int
    removed: int
    judged_removed: int  # removed articles that someone has judged


def stored_settings(session: Session) -> BuildSettings:
    """The settings most of the stored pools were built with (the defaults without pools)."""
    found = Counter(
        (method, int(p.get("size", 500)), str(p.get("order", "article")), int(p.get("seed", 0)))
        for method, p in session.execute(select(Pool.method, Pool.parameters))
    )
    if not found:
        return BuildSettings()
    method, size, order, seed = found.most_common(1)[0][0]
    if method not in ("topn", "depth") or order not in ("article", "rank", "random"):
        return BuildSettings()
    return BuildSettings(cast(Method, method), size, cast(Order, order), seed)


def _entries(session: Session, topics: Sequence[str]) -> dict[str, set[str]]:
    rows = session.execute(
        select(Pool.topic_id, PoolEntry.article)
        .join(PoolEntry, PoolEntry.pool_id == Pool.id)
        .where(Pool.topic_id.in_(topics))
    )
    entries: dict[str, set[str]] = {topic: set() for topic in topics}
    for topic, article in rows:
        entries[topic].add(article)
    return entries


def pooled_topics(session: Session, topics: Sequence[str] | None) -> list[str]:
    """Those of `topics` (None: every topic) that have a pool already: a rebuild replaces it."""
    query = select(Pool.topic_id)
    if topics is not None:
        query = query.where(Pool.topic_id.in_(topics))
    return list(session.scalars(query))


def preview_rebuild(
    session: Session, settings: BuildSettings, topics: Sequence[str] | None
) -> list[PoolChange]:
    """What `build_pools` with `settings` would change, per topic; nothing is stored."""
    savepoint = session.begin_nested()
    try:
        summaries = build_pools(
            session, settings.method, settings.size, settings.order, settings.seed, topics
        )
        wanted = [summary.topic for summary in summaries]
        after = _entries(session, wanted)
    finally:
        savepoint.rollback()
    before = _entries(session, wanted)
    judged = {
        (topic, article)
        for topic, article in session.execute(
            select(Assignment.topic_id, Judgement.article)
            .join(Judgement, Judgement.assignment_id == Assignment.id)
            .where(Assignment.topic_id.in_(wanted), Judgement.status != "unjudged")
        )
    }
    changes = []
    for topic in wanted:
        removed = before[topic] - after[topic]
        changes.append(
            PoolChange(
                topic,
                len(before[topic]),
                len(after[topic]),
                len(after[topic] - before[topic]),
                len(removed),
                sum(1 for article in removed if (topic, article) in judged),
            )
        )
    return changes
