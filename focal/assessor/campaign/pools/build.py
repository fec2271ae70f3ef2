"""Build the pools of the imported topics from the imported runs with `pooling` (no Flask).

Pooled articles that are not in the imported collection cannot be shown to an assessor: they
are left out and counted in the result. Rebuilding a topic's pool replaces it; judgements are
kept (they belong to assignments, not to pools).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.store.models import Document, Pool, PoolEntry, Run, RunResult, Topic
from focal.pooling.records import RankedRun, natural_key
from focal.pooling.strategies import depth_k_pool, top_n_pool

Method = Literal["topn", "depth"]
JUDGING_ORDER = ("policy", "policy_seed", "budget")
"""The pool parameters that hold the topic's judging order
(`focal.assessor.campaign.pools.ordering`)."""
Order = Literal["article", "rank", "random"]


@dataclass(frozen=True, slots=True)
class PoolSummary:
    topic: str
    size: int
    missing: tuple[str, ...]  # pooled articles absent from the collection


def ranked_runs(session: Session, topics: Sequence[str] | None = None) -> list[RankedRun]:
    """The imported runs as pooling needs them (topic -> articles in rank order), by run id."""
    per_run: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    query = select(RunResult.run_id, RunResult.topic_id, RunResult.article).order_by(
        RunResult.run_id, RunResult.topic_id, RunResult.rank
    )
    if topics is not None:
        query = query.where(RunResult.topic_id.in_(topics))
    for run_id, topic, article in session.execute(query):
        per_run[run_id][topic].append(article)
    runs = session.scalars(select(Run).order_by(Run.name))
    return [RankedRun(run.name, dict(per_run.get(run.id, {})), run.file) for run in runs]


def build_pools(
    session: Session,
    method: Method = "topn",
    size: int = 500,
    order: Order = "article",
    seed: int = 0,
    topics: Sequence[str] | None = None,
) -> list[PoolSummary]:
    """Pool every imported topic (or `topics`) and store the pools in display `order`.

    `size` is n for top-n and k for depth-k. Display order: article id (default, avoids rank
    bias), pool rank, or a random order seeded by `seed` and the topic id.
    """
    known = set(session.scalars(select(Topic.id)))
    wanted = sorted(known if topics is None else known & set(topics), key=natural_key)
    runs = ranked_runs(session, wanted)
    pool = top_n_pool(runs, size=size) if method == "topn" else depth_k_pool(runs, depth=size)
    documents = set(session.scalars(select(Document.id)))
    summaries = []
    for topic in wanted:
        topic_pool = pool.topics.get(topic)
        pooled = [] if topic_pool is None else [entry.article for entry in topic_pool.articles]
        present = [article for article in pooled if article in documents]
        missing = tuple(article for article in pooled if article not in documents)
        _store(session, topic, method, size, order, seed, present)
        summaries.append(PoolSummary(topic, len(present), missing))
    session.flush()
    return summaries


def _display_order(articles: list[str], order: Order, seed: int, topic: str) -> list[str]:
    if order == "rank":
        return list(articles)
    if order == "random":
        shuffled = list(articles)
        random.Random(f"{seed}:{topic}").shuffle(shuffled)
        return shuffled
    return sorted(articles, key=natural_key)


def _store(
    session: Session,
    topic: str,
    method: str,
    size: int,
    order: Order,
    seed: int,
    articles: list[str],
) -> None:
    old = session.scalars(select(Pool).where(Pool.topic_id == topic)).first()
    # The judging order an organiser chose (`pools.ordering`) outlives a rebuild.
    kept = (
        {key: value for key, value in (old.parameters or {}).items() if key in JUDGING_ORDER}
        if old
        else {}
    )
    if old is not None:
        session.delete(old)
        session.flush()
    rank_of = {article: rank for rank, article in enumerate(articles, start=1)}
    parameters = {"size": size, "order": order, "seed": seed, **kept}
    pool = Pool(topic_id=topic, method=method, parameters=parameters)
    for position, article in enumerate(_display_order(articles, order, seed, topic)):
        pool.entries.append(
            PoolEntry(article=article, position=position, pool_rank=rank_of[article])
        )
    session.add(pool)
