"""Pooling strategies (spec section 6): INEX top-n, TREC depth-k, and Borda / RRF fusion pools.

Every strategy works topic by topic on the runs that have the topic, in the order the runs are
given (the order matters for top-n: it decides which article enters the pool first in a round).
A run's *rank* of a result is its 1-based position in the run's topic block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter
from typing import Literal

from focal.evaluation.formats.records import Run
from focal.evaluation.formats.source import collector_paused
from focal.pooling.ranked import as_ranked
from focal.pooling.records import (
    FUSED_ROUND,
    Pool,
    PooledArticle,
    RankedRun,
    RunLists,
    TopicPool,
    natural_key,
    pooled_articles,
)
from focal.pooling.topn import top_n_topic_pool

FusionMethod = Literal["borda", "rrf"]
RRF_K = 60
"""The constant of reciprocal-rank fusion (Cormack, Clarke & Büttcher 2009)."""


@dataclass(slots=True)
class _Entry:
    first_round: int
    best_rank: int
    contributors: list[int]  # run indices, possibly repeated; deduplicated when built


class _TopicPoolBuilder:
    """Collects the articles of one topic's pool in the order they enter it."""

    def __init__(self, topic: str, run_ids: Sequence[str]) -> None:
        self.topic = topic
        self.run_ids = run_ids
        self.entries: dict[str, _Entry] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, article: str, round_number: int, rank: int, run_index: int) -> None:
        entry = self.entries.get(article)
        if entry is None:
            self.entries[article] = _Entry(round_number, rank, [run_index])
            return
        if rank < entry.best_rank:
            entry.best_rank = rank
        entry.contributors.append(run_index)

    def build(self, depths: dict[str, int], rounds: int) -> TopicPool:
        run_id_of = self.run_ids.__getitem__
        entries = self.entries.values()
        articles = pooled_articles(
            self.topic,
            list(self.entries),
            [entry.first_round for entry in entries],
            [entry.best_rank for entry in entries],
            [tuple(map(run_id_of, sorted(set(entry.contributors)))) for entry in entries],
        )
        return TopicPool(self.topic, tuple(articles), depths, rounds)


def lists_per_topic(runs: Sequence[RankedRun]) -> dict[str, RunLists]:
    """Topic -> the runs that have it, topics in natural order."""
    per_topic: dict[str, RunLists] = {}
    for index, run in enumerate(runs):
        for topic, articles in run.topics.items():
            if articles:
                per_topic.setdefault(topic, []).append((index, articles))
    return {topic: per_topic[topic] for topic in sorted(per_topic, key=natural_key)}


def top_n_pool(runs: Sequence[RankedRun | Run], size: int = 500) -> Pool:
    """INEX top-n pool: rounds over the runs' k-th results until `size` distinct articles.

    Round k adds, for every run in the given order, the article of its k-th result (a run without
    a k-th result adds nothing). The pool stops at the end of the first complete round after which
    it holds at least `size` distinct articles, or when every run is exhausted. A run's depth is
    the number of its results read: min(rounds, length of its topic block).

    >>> a = RankedRun("a", {"1": ["x", "x", "y"]})
    >>> b = RankedRun("b", {"1": ["z", "y", "w"]})
    >>> [e.article for e in top_n_pool([a, b], size=3).topics["1"].articles]
    ['x', 'z', 'y']
    """
    if size < 1:
        raise ValueError(f"pool size must be at least 1, got {size}")
    ranked = as_ranked(runs)
    run_ids = [run.run_id for run in ranked]
    topics: dict[str, TopicPool] = {}
    with collector_paused():  # see there: no full collections over the runs
        for topic, lists in lists_per_topic(ranked).items():
            topics[topic] = top_n_topic_pool(topic, lists, run_ids, size)
    return Pool(f"topn size={size}", tuple(run_ids), topics)


def first_ranks(articles: Sequence[str]) -> dict[str, int]:
    """Article -> 1-based rank of its first result, in order of first appearance.

    >>> first_ranks(["a", "b", "a", "c"])
    {'a': 1, 'b': 2, 'c': 4}
    """
    # Built at C speed: later keys overwrite earlier values, so reading the results backwards
    # leaves each article its first rank; sorting by rank restores the order of appearance.
    backwards = dict(zip(reversed(articles), range(len(articles), 0, -1), strict=True))
    return dict(sorted(backwards.items(), key=itemgetter(1)))


def first_distinct(articles: Sequence[str], limit: int) -> tuple[dict[str, int], int]:
    """The first `limit` distinct articles of a result list with the rank of their first
    result, and how many results that reads (up to just before the (limit+1)-th distinct one).

    >>> first_distinct(["a", "a", "b", "a", "c"], 2)
    ({'a': 1, 'b': 3}, 4)
    """
    window = 4 * limit
    ranks = first_ranks(articles[:window])
    while len(ranks) <= limit and window < len(articles):  # read more only when needed
        window *= 4
        ranks = first_ranks(articles[:window])
    if len(ranks) <= limit:
        return ranks, len(articles)
    head = dict(islice(ranks.items(), limit + 1))
    _, next_rank = head.popitem()
    return head, next_rank - 1


def depth_k_pool(runs: Sequence[RankedRun | Run], depth: int) -> Pool:
    """TREC depth-k pool: the union of every run's first `depth` distinct articles.

    Articles enter in rounds of distinct ranks (round d adds every run's d-th distinct article,
    runs in the given order); `first_round` is the best distinct rank, `best_rank` the best
    result rank (a passage run may return an article's first passage at rank 3 and it be its
    2nd distinct article). A run's depth is the number of its results read.

    >>> a = RankedRun("a", {"1": ["x", "x", "y", "z"]})
    >>> pool = depth_k_pool([a], depth=2)
    >>> [e.article for e in pool.topics["1"].articles], dict(pool.topics["1"].depths)
    (['x', 'y'], {'a': 3})
    """
    if depth < 1:
        raise ValueError(f"pool depth must be at least 1, got {depth}")
    ranked = as_ranked(runs)
    run_ids = [run.run_id for run in ranked]
    topics: dict[str, TopicPool] = {}
    with collector_paused():  # see there: no full collections over the runs
        for topic, lists in lists_per_topic(ranked).items():
            builder = _TopicPoolBuilder(topic, run_ids)
            heads: list[tuple[int, list[str], dict[str, int]]] = []
            depths: dict[str, int] = {}
            for run_index, articles in lists:
                first_rank, read = first_distinct(articles, depth)
                heads.append((run_index, list(first_rank), first_rank))
                depths[run_ids[run_index]] = read
            rounds = max(len(distinct) for _, distinct, _ in heads)
            for round_number in range(1, rounds + 1):
                for run_index, distinct, first_rank in heads:
                    if round_number <= len(distinct):
                        article = distinct[round_number - 1]
                        builder.add(article, round_number, first_rank[article], run_index)
            topics[topic] = builder.build(depths, rounds)
    return Pool(f"depth depth={depth}", tuple(run_ids), topics)


def fused_ranking(lists: RunLists, method: FusionMethod, rrf_k: int = RRF_K) -> list[str]:
    """The articles of one topic ranked by Borda count or reciprocal-rank fusion.

    Each run's articles are ranked by first appearance (distinct rank r = 1, 2, ...). Borda gives
    an article L - r + 1 points per run, L being the longest distinct list of the topic (so every
    run scores on the same scale); RRF gives 1 / (rrf_k + r). Runs that do not return an article
    give it nothing. Scores are summed in run order; ties go to the smaller article id.

    >>> fused_ranking([(0, ["x", "y"]), (1, ["y", "z"])], "borda")
    ['y', 'x', 'z']
    """
    scores: dict[str, float] = {}
    distinct_lists = [list(dict.fromkeys(articles)) for _, articles in lists]
    longest = max((len(distinct) for distinct in distinct_lists), default=0)
    points: Sequence[float]
    if method == "borda":
        points = range(longest, 0, -1)  # L - r + 1 for r = 1 .. L
    else:
        points = [1.0 / (rrf_k + rank) for rank in range(1, longest + 1)]
    get = scores.get
    for distinct in distinct_lists:
        for article, gained in zip(distinct, points, strict=False):
            scores[article] = get(article, 0) + gained
    return sorted(scores, key=lambda article: (-scores[article], natural_key(article)))


def fusion_pool(
    runs: Sequence[RankedRun | Run],
    size: int,
    fused: int,
    method: FusionMethod = "borda",
    rrf_k: int = RRF_K,
) -> Pool:
    """Fusion pool (Woodley & Geva 2005): the top `fused` articles of the fused ranking, then
    top-n rounds until the pool holds at least `size` articles.

    Fused articles have `first_round` 0 (`FUSED_ROUND`); their `best_rank` and contributing runs
    cover the whole runs, since fusion reads every result. Run depths count the top-n rounds only.
    """
    if size < 1 or fused < 0:
        raise ValueError(f"need size >= 1 and fused >= 0, got size={size}, fused={fused}")
    if method not in ("borda", "rrf"):
        raise ValueError(f"unknown fusion method {method!r} (expected borda or rrf)")
    ranked = as_ranked(runs)
    run_ids = [run.run_id for run in ranked]
    topics: dict[str, TopicPool] = {}
    with collector_paused():  # see there: no full collections over the runs
        for topic, lists in lists_per_topic(ranked).items():
            top = _fused_top(topic, lists, run_ids, fused_ranking(lists, method, rrf_k)[:fused])
            topics[topic] = top_n_topic_pool(topic, lists, run_ids, size, top)
    label = f"{method} fused={fused} size={size}"
    return Pool(label, tuple(run_ids), topics)


def _fused_top(
    topic: str, lists: RunLists, run_ids: Sequence[str], top: Sequence[str]
) -> list[PooledArticle]:
    """The fused articles' rows: best rank and contributors over the whole runs."""
    best = dict.fromkeys(top, 0)
    contributors: dict[str, list[str]] = {article: [] for article in top}
    for run_index, articles in lists:
        # article -> rank of its first result, built at C speed (later keys overwrite).
        first_rank = dict(zip(reversed(articles), range(len(articles), 0, -1), strict=True))
        run_id = run_ids[run_index]
        for article in first_rank.keys() & best.keys():
            rank = first_rank[article]
            if not best[article] or rank < best[article]:
                best[article] = rank
            contributors[article].append(run_id)
    return [
        PooledArticle(topic, article, FUSED_ROUND, best[article], tuple(contributors[article]))
        for article in top
    ]


PoolMethod = Literal["topn", "depth", "borda", "rrf"]


def build_pool(
    runs: Sequence[RankedRun | Run],
    method: PoolMethod = "topn",
    *,
    size: int = 500,
    depth: int | None = None,
    fused: int | None = None,
    rrf_k: int = RRF_K,
) -> Pool:
    """One entry point for every method, as `focal pool --method` offers them.

    `depth` is required for "depth", `fused` for "borda" and "rrf" (ValueError otherwise).
    """
    if method == "topn":
        return top_n_pool(runs, size)
    if method == "depth":
        if depth is None:
            raise ValueError("the depth method needs a depth")
        return depth_k_pool(runs, depth)
    if method in ("borda", "rrf"):
        if fused is None:
            raise ValueError(f"the {method} method needs the number of fused articles")
        return fusion_pool(runs, size, fused, "borda" if method == "borda" else "rrf", rrf_k)
    raise ValueError(f"unknown pooling method {method!r} (expected topn, depth, borda or rrf)")
