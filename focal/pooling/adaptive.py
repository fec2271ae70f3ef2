"""Adaptive pool depth (Pal, Mitra & Kamps): spend assessor time on the topics whose most recent
rounds still yield relevant articles.

One call is one step of the organiser's loop: pool, judge, extend, judge, extend ... Depth is
counted in distinct articles, as seed 004 measures pool depth and as `depth_k_pool` does: a run's
*distinct rank* of an article is its position among the run's distinct articles. For each topic,
its current depth d is the deepest distinct rank to which every run that has the topic is pooled
(runs that are pooled to their end do not limit it). The *recent* articles are the pooled ones
whose best distinct rank among the runs falls in (d - step, d]; their *yield* is relevant /
judged among them. Topics whose yield is above `threshold` (default 0: at least one relevant)
are deepened by `step` distinct ranks, highest yield first (ties in topic order), as long as the
whole pool stays within `budget` articles; a topic whose step does not fit is skipped and smaller
ones may still fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from focal.evaluation.formats.records import Judgement, Qrels, Run
from focal.pooling.ranked import as_ranked
from focal.pooling.records import Pool, PooledArticle, RankedRun, TopicPool
from focal.pooling.strategies import first_distinct, first_ranks, lists_per_topic

NewArticles = dict[str, tuple[int, list[int]]]  # article -> (best distinct rank, runs' indexes)


@dataclass(frozen=True, slots=True)
class TopicExtension:
    """The decision for one topic."""

    topic: str
    depth: int  # depth before the extension, in distinct articles
    recent: int  # pooled articles whose best distinct rank is in (depth - step, depth]
    judged: int
    relevant: int
    added: int  # articles added (0 when not extended)
    extended: bool

    @property
    def rate(self) -> float | None:
        """Relevant among the judged recent articles; None without any judged one."""
        return self.relevant / self.judged if self.judged else None


@dataclass(frozen=True, slots=True)
class Extension:
    pool: Pool
    topics: tuple[TopicExtension, ...]


def extend_pool(
    pool: Pool,
    runs: Sequence[RankedRun | Run],
    judged: Qrels,
    budget: int,
    step: int = 5,
    threshold: float = 0.0,
) -> Extension:
    """Deepen the topics of `pool` whose last `step` ranks still yield relevant articles.

    New articles get `first_round` = their best distinct rank among the runs, `best_rank` = their
    best result rank, and the runs that returned them within the new depth; articles already
    pooled are unchanged. A run's depth in the new pool is the number of its results read: up to
    just before its first article beyond the new distinct depth.
    """
    if step < 1:
        raise ValueError(f"step must be at least 1, got {step}")
    ranked = as_ranked(runs)
    run_ids = [run.run_id for run in ranked]
    lists = {
        topic: [(index, list(first_ranks(articles))) for index, articles in topic_lists]
        for topic, topic_lists in lists_per_topic(ranked).items()
    }  # distinct articles in order of first appearance
    plans: list[tuple[float, int, str, NewArticles]] = []
    decisions: dict[str, TopicExtension] = {}
    for order, (topic, topic_pool) in enumerate(pool.topics.items()):
        decision, new = _decision(
            topic, topic_pool.article_ids(), lists.get(topic, []), judged.get(topic, {}), step
        )
        decisions[topic] = decision
        rate = decision.rate
        if new and rate is not None and rate > threshold:  # no new article: runs exhausted
            plans.append((-rate, order, topic, new))
    extended = _within_budget(plans, pool.size(), budget)
    results = {run.run_id: run.topics for run in ranked}
    topics: dict[str, TopicPool] = {}
    for topic, topic_pool in pool.topics.items():
        if topic not in extended:
            topics[topic] = topic_pool
            continue
        new = extended[topic]
        decisions[topic] = replace(decisions[topic], added=len(new), extended=True)
        depth = decisions[topic].depth + step
        read = {
            run_ids[i]: first_distinct(results[run_ids[i]][topic], depth)
            for i, _ in lists.get(topic, [])
        }
        topics[topic] = _deepened(topic_pool, new, read, run_ids, depth)
    new_pool = Pool(f"{pool.method} extended step={step}", pool.run_ids or tuple(run_ids), topics)
    return Extension(new_pool, tuple(decisions.values()))


def _decision(
    topic: str,
    pooled: frozenset[str],
    topic_lists: Sequence[tuple[int, Sequence[str]]],
    judgements: Mapping[str, Judgement],
    step: int,
) -> tuple[TopicExtension, NewArticles]:
    """One topic's depth and the yield of its recent articles (not extended yet), and the
    articles a step deeper would add."""
    depth = _covered_depth([articles for _, articles in topic_lists], pooled)
    best = _best_ranks(topic_lists, depth + step)
    recent = [a for a in pooled if a in best and depth - step < best[a][0] <= depth]
    judged_recent = [a for a in recent if a in judgements]
    relevant = sum(1 for a in judged_recent if judgements[a].relevant)
    new = {a: found for a, found in best.items() if a not in pooled}
    decision = TopicExtension(topic, depth, len(recent), len(judged_recent), relevant, 0, False)
    return decision, new


def _within_budget(
    plans: Sequence[tuple[float, int, str, NewArticles]], total: int, budget: int
) -> dict[str, NewArticles]:
    """The planned steps taken, highest yield first (ties in topic order), each that keeps
    the pool within `budget` articles (a step that does not fit is skipped)."""
    extended: dict[str, NewArticles] = {}
    for _, _, topic, new in sorted(plans, key=lambda plan: (plan[0], plan[1])):
        if total + len(new) <= budget:
            total += len(new)
            extended[topic] = new
    return extended


def _deepened(
    topic_pool: TopicPool,
    new: NewArticles,
    read: Mapping[str, tuple[dict[str, int], int]],
    run_ids: Sequence[str],
    depth: int,
) -> TopicPool:
    """`topic_pool` with the `new` articles after its own, in order of their best distinct
    rank, and each run's results read to the new `depth` (`read`: `first_distinct`'s)."""
    topic = topic_pool.topic
    added = tuple(
        PooledArticle(
            topic,
            article,
            rank,
            min(read[run_ids[i]][0][article] for i in runs_in),
            tuple(run_ids[i] for i in sorted(runs_in)),
        )
        for article, (rank, runs_in) in sorted(new.items(), key=lambda item: item[1][0])
    )
    depths = {run_id: results_read for run_id, (_, results_read) in read.items()}
    return TopicPool(topic, topic_pool.articles + added, depths, depth)


def _covered_depth(lists: Sequence[Sequence[str]], pooled: frozenset[str]) -> int:
    """The deepest (distinct) rank to which every run not pooled to its end is pooled."""
    depth: int | None = None
    for articles in lists:
        prefix = 0
        while prefix < len(articles) and articles[prefix] in pooled:
            prefix += 1
        if prefix < len(articles):
            depth = prefix if depth is None else min(depth, prefix)
    if depth is None:  # every run is pooled to its end
        return max((len(articles) for articles in lists), default=0)
    return depth


def _best_ranks(
    lists: Sequence[tuple[int, Sequence[str]]], depth: int
) -> dict[str, tuple[int, list[int]]]:
    """Article -> (best distinct rank within `depth`, runs returning it within `depth`).

    Articles are in order of first appearance (rank, then run), which is the order new articles
    enter the pool.
    """
    found: dict[str, tuple[int, list[int]]] = {}
    for rank in range(1, depth + 1):
        for run_index, articles in lists:
            if rank <= len(articles):
                article = articles[rank - 1]
                entry = found.get(article)
                if entry is None:
                    found[article] = (rank, [run_index])
                elif run_index not in entry[1]:
                    entry[1].append(run_index)
    return found
