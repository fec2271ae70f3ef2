"""How much of a new run a pool would have judged (seed 003 §5.2.1, Fig 3).

Seed 003 takes runs that were not used to build the pool and asks, for a pool of depth n, which
share of their results down to a given rank fall in articles of the pool (and so were judged):
a pool that covers the new runs' top results well can evaluate a new system fairly. Here the
pool is built from the pooled runs, as INEX top-n (seed 003: n documents per topic, the
default) or TREC depth-k (`focal.pooling.strategies`); a result counts when its article is in its
topic's pool, and the share at rank r is over every result at rank r or better of every new run
on every topic the pool has (micro-averaged, as the figure's percentages of elements are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from focal.pooling.records import RankedRun
from focal.pooling.strategies import depth_k_pool, top_n_pool
from focal.reliability.judgements import pooled_articles

PoolKind = Literal["topn", "depth"]


@dataclass(frozen=True)
class CoveragePoint:
    """For a pool of `pool_size` (articles per topic, or depth), the share of the new runs'
    results at rank `rank` or better that are in the pool."""

    pool_size: int
    rank: int
    results: int
    pooled: int

    @property
    def share(self) -> float:
        return self.pooled / self.results if self.results else 0.0


def pool_coverage(
    pooled_runs: Sequence[RankedRun], new_runs: Sequence[RankedRun], sizes: Sequence[int],
    ranks: Sequence[int], kind: PoolKind = "topn",
) -> list[CoveragePoint]:  # fmt: skip
    """One point per (pool size, rank), pool sizes in the order given, ranks ascending.

    >>> from focal.pooling.records import RankedRun
    >>> old = [RankedRun("old", {"1": ["a", "b", "c", "d"]})]
    >>> new = [RankedRun("new", {"1": ["b", "x", "d", "a"]})]
    >>> [(p.rank, p.pooled, p.results) for p in pool_coverage(old, new, [2], [1, 2, 4])]
    [(1, 1, 1), (2, 1, 2), (4, 2, 4)]
    """
    if not pooled_runs or not new_runs:
        raise ValueError("give runs to pool and new runs (--new) to measure")
    points = []
    for size in sizes:
        pool = top_n_pool(pooled_runs, size) if kind == "topn" else depth_k_pool(pooled_runs, size)
        articles = pooled_articles(pool)
        for rank in sorted(ranks):
            results = pooled = 0
            for run in new_runs:
                for topic, ranked in run.topics.items():
                    if topic not in articles:
                        continue
                    top = ranked[:rank]
                    results += len(top)
                    pooled += sum(1 for article in top if article in articles[topic])
            points.append(CoveragePoint(size, rank, results, pooled))
    return points
