"""What a pool is made of: pooled articles per topic, and runs reduced to ranked article lists.

A `RankedRun` is the light form of a run that pooling needs: per topic, the article id of every
result in rank order (one entry per result, so an article with three passages appears three
times). At INEX 2006 scale (333 runs x 125 topics x 1500 results) that is 62 million references
to interned strings instead of 62 million `Result` records.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import repeat

RunLists = list[tuple[int, Sequence[str]]]
"""The runs that have one topic: (index of the run in the given order, its article ids)."""

FUSED_ROUND = 0
"""`first_round` of an article taken from the top of a fused ranking (before any top-n round)."""


def natural_key(identifier: str) -> tuple[int, int, str]:
    """Sort key for topic and article ids: numbers numerically, then other ids as strings.

    >>> sorted(["10", "9", "b", "a"], key=natural_key)
    ['9', '10', 'a', 'b']
    """
    if identifier.isdigit():
        return (0, int(identifier), "")
    return (1, 0, identifier)


@dataclass(frozen=True, slots=True)
class RankedRun:
    """A run as pooling sees it: topic -> article id of each result, in rank order."""

    run_id: str
    topics: Mapping[str, Sequence[str]]
    file: str = ""


@dataclass(frozen=True, slots=True)
class PooledArticle:
    """One article of a topic's pool.

    `first_round` is the pooling round in which the article entered the pool (`FUSED_ROUND`, 0,
    for the fused top of a fusion pool); `best_rank` the best 1-based result rank at which a run
    returned it within the part of the runs the pool read; `contributing_runs` the runs that
    returned it within that part, in the order the runs were given.
    """

    topic: str
    article: str
    first_round: int
    best_rank: int
    contributing_runs: tuple[str, ...]


def pooled_articles(
    topic: str,
    articles: Sequence[str],
    first_rounds: Iterable[int],
    best_ranks: Iterable[int],
    contributing_runs: Iterable[tuple[str, ...]],
) -> list[PooledArticle]:
    """`PooledArticle`s of one topic from columns, equal to those the constructor makes.

    A frozen dataclass's `__init__` sets each field with a Python-level `object.__setattr__`;
    here each field is set for all records at once through its slot descriptor, from C (as
    unpickling does). Two to three times faster, which counts at 62,500 pooled articles.
    """
    records = list(map(object.__new__, repeat(PooledArticle, len(articles))))
    values = (repeat(topic), articles, first_rounds, best_ranks, contributing_runs)
    for column, value in zip(fields(PooledArticle), values, strict=True):
        deque(map(getattr(PooledArticle, column.name).__set__, records, value), maxlen=0)
    return records


@dataclass(frozen=True, slots=True)
class TopicPool:
    """The pool of one topic.

    `articles` are in pool-rank order (the order in which they entered the pool); `depths` maps
    each run that has the topic to the number of its results the pool read (empty when the pool
    was read from a file); `rounds` is the number of pooling rounds completed.
    """

    topic: str
    articles: tuple[PooledArticle, ...]
    depths: Mapping[str, int] = field(default_factory=dict)
    rounds: int = 0

    def article_ids(self) -> frozenset[str]:
        """The pooled article ids."""
        return frozenset(entry.article for entry in self.articles)

    def __len__(self) -> int:
        return len(self.articles)


@dataclass(frozen=True, slots=True)
class Pool:
    """Pools of every topic, topics in natural order (see `natural_key`)."""

    method: str
    run_ids: tuple[str, ...]
    topics: Mapping[str, TopicPool]

    def size(self) -> int:
        """The number of pooled (topic, article) pairs: the assessment effort."""
        return sum(len(topic_pool) for topic_pool in self.topics.values())

    def articles(self) -> list[PooledArticle]:
        """Every pooled article, topic by topic, each topic in pool-rank order."""
        return [entry for topic_pool in self.topics.values() for entry in topic_pool.articles]
