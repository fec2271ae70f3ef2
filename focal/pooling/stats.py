"""Pool statistics: sizes, the depth each run reached, unique contributions, overlap, and the
leave-one-group-out pool (Zobel 1998: would a group's relevant articles be found without it?).

Definitions (docs/pooling.md):
- a run's *depth* on a topic is the rank of the last result the pooling read (seed 003 Table VI,
  "the rank of the last document included in the pool"). A pool built in this process knows it
  (`TopicPool.depths`); for a pool read from a file it is reconstructed by `results_read`.
- a run *contributed* an article when the pool file lists it among the article's contributing
  runs; an article is *unique* to a run (group) when no other run (group) contributed it.
- the leave-one-group-out pool keeps the articles that some run outside the group contributed:
  every other run keeps the depth it had, so leaving a group out never adds an article.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from focal.pooling.records import Pool, PooledArticle, RankedRun, TopicPool

ALL_TOPICS = "all"


@dataclass(frozen=True, slots=True)
class TopicStatistics:
    """One topic (or `all`): pool size and how deep the runs were read."""

    topic: str
    pool_size: int
    runs: int
    mean_depth: float
    min_depth: int
    max_depth: int
    unique_to_run: int
    unique_to_group: int


@dataclass(frozen=True, slots=True)
class RunStatistics:
    run_id: str
    group: str
    topics: int
    mean_depth: float
    contributed: int
    unique: int


@dataclass(frozen=True, slots=True)
class GroupStatistics:
    group: str
    runs: int
    contributed: int
    unique: int


@dataclass(frozen=True, slots=True)
class RunOverlap:
    """Pooled (topic, article) pairs two runs both contributed, over all topics."""

    run_a: str
    run_b: str
    shared: int
    jaccard: float


@dataclass(frozen=True, slots=True)
class PoolStatistics:
    topics: tuple[TopicStatistics, ...]
    overall: TopicStatistics
    runs: tuple[RunStatistics, ...]
    groups: tuple[GroupStatistics, ...]
    overlaps: tuple[RunOverlap, ...]
    depths: Mapping[str, Mapping[str, int]]  # topic -> run id -> depth


def results_read(articles: Sequence[str], contributed: Collection[str], rounds: int) -> int:
    """How many results of a run's topic block a pool read, reconstructed from a pool file.

    The later of two ranks that the reading certainly reached: the pool's last round, capped by
    the block's length (rounds of top-n and of the fill of a fusion pool read one result of every
    run each), and the first result of the last article this run contributed. Exact for top-n
    pools; never more than the results read by any strategy (a depth-k pool's rounds count
    distinct articles, so there the second rank decides).

    S1 = a b c a b a z in a top-n pool that stopped after 3 rounds has read 3 results, although
    its first 6 results are all pooled:

    >>> results_read(["a", "b", "c", "a", "b", "a", "z"], {"a", "b", "c"}, 3)
    3
    >>> results_read(["a", "a", "x", "a", "b"], {"a", "x", "b"}, 3)  # a depth-3 pool
    5
    """
    reached = min(rounds, len(articles))
    wanted = set(contributed)
    for rank, article in enumerate(articles, start=1):
        if not wanted:
            break
        if article in wanted:
            wanted.discard(article)
            reached = max(reached, rank)
    return reached


def run_depths(topic_pool: TopicPool, runs: Sequence[RankedRun]) -> dict[str, int]:
    """Run id -> results read on this topic: as recorded by the builder, else reconstructed."""
    topic = topic_pool.topic
    present = [run for run in runs if run.topics.get(topic)]
    if topic_pool.depths and all(run.run_id in topic_pool.depths for run in present):
        return {run.run_id: topic_pool.depths[run.run_id] for run in present}
    rounds = max((entry.first_round for entry in topic_pool.articles), default=0)
    contributions: dict[str, list[str]] = {}
    for entry in topic_pool.articles:
        for run_id in entry.contributing_runs:
            contributions.setdefault(run_id, []).append(entry.article)
    return {
        run.run_id: results_read(run.topics[topic], contributions.get(run.run_id, ()), rounds)
        for run in present
    }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


@dataclass(slots=True)
class _Contributions:
    """One walk over a pool's articles, in pool order: every pooled (topic, article) gets a
    number, a run's contributions are a list of numbers, and the articles unique to one run or
    one group are counted."""

    group: Callable[[str], str]
    contributed: dict[str, list[int]]
    pooled: int = 0
    unique_run: dict[str, int] = field(default_factory=dict)
    unique_group: dict[str, int] = field(default_factory=dict)
    group_contributed: dict[str, int] = field(default_factory=dict)

    def add_topic(self, topic_pool: TopicPool) -> tuple[int, int]:
        """Counts a topic's articles; returns how many were unique to a run, to a group."""
        alone_run = alone_group = 0
        for entry in topic_pool.articles:
            for run_id in entry.contributing_runs:
                self.contributed.setdefault(run_id, []).append(self.pooled)
            self.pooled += 1
            entry_groups = {self.group(run_id) for run_id in entry.contributing_runs}
            for name in entry_groups:
                self.group_contributed[name] = self.group_contributed.get(name, 0) + 1
            if len(entry.contributing_runs) == 1:
                alone_run += 1
                only = entry.contributing_runs[0]
                self.unique_run[only] = self.unique_run.get(only, 0) + 1
            if len(entry_groups) == 1:
                alone_group += 1
                (only_group,) = entry_groups
                self.unique_group[only_group] = self.unique_group.get(only_group, 0) + 1
        return alone_run, alone_group


def _topic_row(
    topic: str, pool_size: int, depths: Mapping[str, int], unique: tuple[int, int]
) -> TopicStatistics:
    values = list(depths.values())
    return TopicStatistics(
        topic,
        pool_size,
        len(values),
        _mean(values),
        min(values, default=0),
        max(values, default=0),
        *unique,
    )


def _overall_row(
    pool: Pool,
    runs: Sequence[RankedRun],
    topic_rows: Sequence[TopicStatistics],
    depths: Mapping[str, Mapping[str, int]],
) -> TopicStatistics:
    """The `all` row: sizes and unique counts summed, the mean of the topics' mean depths."""
    all_depths = [d for per_run in depths.values() for d in per_run.values()]
    return TopicStatistics(
        ALL_TOPICS,
        pool.size(),
        len(runs),
        _mean([row.mean_depth for row in topic_rows]),
        min(all_depths, default=0),
        max(all_depths, default=0),
        sum(row.unique_to_run for row in topic_rows),
        sum(row.unique_to_group for row in topic_rows),
    )


def _run_row(
    run_id: str, depths: Mapping[str, Mapping[str, int]], counts: _Contributions
) -> RunStatistics:
    reached = [per_run[run_id] for per_run in depths.values() if run_id in per_run]
    return RunStatistics(
        run_id,
        counts.group(run_id),
        len(reached),
        _mean(reached),
        len(counts.contributed[run_id]),
        counts.unique_run.get(run_id, 0),
    )


def _group_rows(runs: Sequence[RankedRun], counts: _Contributions) -> tuple[GroupStatistics, ...]:
    """One row a group, in the order of its first run."""
    members: dict[str, int] = {}
    for run in runs:
        members[counts.group(run.run_id)] = members.get(counts.group(run.run_id), 0) + 1
    return tuple(
        GroupStatistics(
            name, count, counts.group_contributed.get(name, 0), counts.unique_group.get(name, 0)
        )
        for name, count in members.items()
    )


def pool_statistics(
    pool: Pool, runs: Sequence[RankedRun], groups: Mapping[str, str] | None = None
) -> PoolStatistics:
    """Statistics of `pool` against the runs it was built from.

    `groups` maps run ids to group names; a run that is not listed is a group of its own.
    """
    group_of = dict(groups or {})

    def group(run_id: str) -> str:
        return group_of.get(run_id, run_id)

    counts = _Contributions(group, {run.run_id: [] for run in runs})
    depths: dict[str, dict[str, int]] = {}
    topic_rows: list[TopicStatistics] = []
    for topic, topic_pool in pool.topics.items():
        depths[topic] = run_depths(topic_pool, runs)
        unique = counts.add_topic(topic_pool)
        topic_rows.append(_topic_row(topic, len(topic_pool), depths[topic], unique))
    overall = _overall_row(pool, runs, topic_rows, depths)
    run_rows = tuple(_run_row(run.run_id, depths, counts) for run in runs)
    group_rows = _group_rows(runs, counts)
    overlaps = run_overlaps([run.run_id for run in runs], counts.contributed, counts.pooled)
    return PoolStatistics(tuple(topic_rows), overall, run_rows, group_rows, overlaps, depths)


def run_overlaps(
    run_ids: Sequence[str], contributed: Mapping[str, Sequence[int]], pooled: int
) -> tuple[RunOverlap, ...]:
    """Shared contributions of every pair of runs, in the given order (a, b with a before b).

    `contributed` maps a run to the numbers (0 .. pooled - 1) of the pooled articles it
    contributed. Each run's contributions become one bit set (a Python int), so that a pair
    costs one AND and one popcount: 333 runs make 55,278 pairs.
    """
    width = pooled // 8 + 1
    masks: list[int] = []
    for run_id in run_ids:
        bits = bytearray(width)
        for position in contributed.get(run_id, ()):
            bits[position >> 3] |= 1 << (position & 7)
        masks.append(int.from_bytes(bits, "little"))
    counts = [mask.bit_count() for mask in masks]
    overlaps: list[RunOverlap] = []
    for (i, a), (j, b) in combinations(enumerate(run_ids), 2):
        shared = (masks[i] & masks[j]).bit_count()
        union = counts[i] + counts[j] - shared
        overlaps.append(RunOverlap(a, b, shared, shared / union if union else 0.0))
    return tuple(overlaps)


EXCLUDE_METHODS = {
    "unique": "the other runs keep the depths they had (seed 004); "
    "articles only the group contributed leave the pool",
    "repool": "top-n pool built again from the other runs (seed 003 section 5.2.1)",
}
"""How a group is left out of a pool, as `focal pool stats --exclude-method` says it."""


def leave_group_out(pool: Pool, excluded_runs: Collection[str]) -> Pool:
    """The pool without the contributions of `excluded_runs` (e.g. one group's runs).

    An article stays when a run outside `excluded_runs` contributed it; the excluded runs vanish
    from contributing runs and depths. The result is always a subset of `pool`.
    """
    excluded = set(excluded_runs)
    topics: dict[str, TopicPool] = {}
    for topic, topic_pool in pool.topics.items():
        kept: list[PooledArticle] = []
        for entry in topic_pool.articles:
            others = tuple(run for run in entry.contributing_runs if run not in excluded)
            if others:
                kept.append(
                    PooledArticle(topic, entry.article, entry.first_round, entry.best_rank, others)
                )
        if kept:
            depths = {run: d for run, d in topic_pool.depths.items() if run not in excluded}
            topics[topic] = TopicPool(topic, tuple(kept), depths, topic_pool.rounds)
    run_ids = tuple(run for run in pool.run_ids if run not in excluded)
    return Pool(f"{pool.method} without {len(excluded)} runs", run_ids, topics)
