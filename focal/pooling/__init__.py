"""Pooling: which articles of the submitted runs the assessors will read (pure Python).

Public, as the lower-level API beneath `focal`'s: `__all__` (`focal.pooling.api`, documented in
docs/python.md, "The packages underneath"): `build_pool(runs, method, ...)`, `write_pool(pool,
path or stream)`, `read_pool(path)`, `pool_statistics(pool, runs)`, runs given as files or in
memory. The modules below are internal and may change between releases. The names load on first
use, so that importing a module of the package does not load them all. The modules (see
docs/pooling.md for the definitions):

Records (`focal.pooling.records`)
    `RankedRun(run_id, topics, file)` — a run reduced to topic -> article id per result, in rank
    order; `PooledArticle(topic, article, first_round, best_rank, contributing_runs)`;
    `TopicPool(topic, articles, depths, rounds)` (articles in pool-rank order);
    `Pool(method, run_ids, topics)` with `size()` and `articles()`; `natural_key(id)`.

Runs (`focal.pooling.ranked`)
    `ranked_run(run: Run | RunColumns) -> RankedRun` — refuses empty runs and repeated topic
    blocks with a `FormatError` naming file and line; `read_ranked_run(path)` reads a run file
    (canonical FOL runs with pyarrow, their article ids kept as `ArticleColumn` arrays; other FOL
    runs as columns, others as records) into a `RankedRun`; `read_ranked_runs(paths)` reads
    several side by side, in order; `as_ranked(runs)` accepts `Run`s, `RunColumns` or
    `RankedRun`s.

Strategies (`focal.pooling.strategies`) — each accepts `Run`s or `RankedRun`s, in pooling order
    `build_pool(runs, "topn"|"depth"|"borda"|"rrf", size=, depth=, fused=, rrf_k=) -> Pool`,
    `top_n_pool(runs, size=500) -> Pool`, `depth_k_pool(runs, depth) -> Pool`,
    `fusion_pool(runs, size, fused, method="borda"|"rrf", rrf_k=60) -> Pool`,
    `fused_ranking(lists, method) -> list[str]`.

Adaptive depth (`focal.pooling.adaptive`)
    `extend_pool(pool, runs, judged_qrels, budget, step=5, threshold=0.0) -> Extension`
    (`Extension.pool`, `Extension.topics`: one `TopicExtension` decision per topic).

Statistics (`focal.pooling.stats`)
    `pool_statistics(pool, ranked_runs, groups=None) -> PoolStatistics`,
    `leave_group_out(pool, excluded_run_ids) -> Pool`,
    `results_read(articles, contributed, rounds) -> int`.

Stats tables (`focal.pooling.tables`): `statistics_tables(statistics)`,
`statistics_lines(tables, titled)`.

Files (`focal.pooling.io`)
    `write_pool(pool, stream, order="article"|"random"|"rank", seed=0)`, `pool_lines(...)`,
    `read_pool(path) -> Pool`, `order_articles(topic_pool, order, seed)`,
    `in_article_results(pool, runs) -> list[InArticleResult]`, `in_article_rows(pool, runs)`
    (runs as records or FOL columns), `in_article_lines(results or rows)`,
    `read_groups(path) -> dict[run_id, group]`; output files are written by
    `focal.evaluation.output.files.atomic_write`.

Command line: `focal pool [build]`, `focal pool extend`, `focal pool stats`
(`focal.pooling.cli.commands`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as mypy and editors see them
    from focal.pooling.api import build_pool, pool_statistics, read_pool, write_pool

__all__ = ["build_pool", "pool_statistics", "read_pool", "write_pool"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("focal.pooling.api"), name)
    raise AttributeError(f"module 'focal.pooling' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
