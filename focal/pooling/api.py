"""Pooling from Python: build a pool from run files or runs in memory, write it, read it back,
and describe it (docs/python.md). Each function is `focal pool`'s own step: the strategies of
`focal.pooling.strategies`, the file of `focal.pooling.io`, the statistics of `focal.pooling.stats`;
runs given as paths are read as the command reads them (`focal.pooling.ranked.read_ranked_runs`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TextIO, TypeAlias

from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Run
from focal.pooling.records import Pool, RankedRun
from focal.pooling.stats import PoolStatistics

__all__ = ["build_pool", "pool_statistics", "read_pool", "write_pool"]

Source: TypeAlias = str | os.PathLike[str]
RunInput: TypeAlias = Source | Run | RunColumns | RankedRun


def ranked_runs(runs: Sequence[RunInput]) -> list[RankedRun]:
    """Runs as pooling sees them, in order: files read as `focal pool` reads them, runs in memory
    reduced to their articles (`focal.pooling.ranked.as_ranked`)."""
    from focal.pooling.ranked import as_ranked, read_ranked_runs

    paths = [os.fspath(run) for run in runs if isinstance(run, str | os.PathLike)]
    from_files = iter(read_ranked_runs(paths))
    read = [next(from_files) if isinstance(run, str | os.PathLike) else run for run in runs]
    return as_ranked(read)


def build_pool(
    runs: Sequence[RunInput],
    method: str = "topn",
    *,
    size: int = 500,
    depth: int | None = None,
    fused: int | None = None,
    rrf_k: int = 60,
) -> Pool:
    """The pool of `runs` (in pooling order) by `method`: `topn` (`size` articles per topic),
    `depth` (each run's first `depth` articles), `borda` or `rrf` (`fused` articles of the fused
    ranking, then top-n to `size`), as `focal pool build --method` (docs/pooling.md).

    >>> from focal.evaluation.formats.records import Result, Run
    >>> def run(name, *articles):
    ...     results = [Result("1", a, i, 1.0 / i, 0) for i, a in enumerate(articles, 1)]
    ...     return Run(name, "", "article", {"1": results})
    >>> runs = [run("A", "x", "y", "z"), run("B", "y", "w")]
    >>> [entry.article for entry in build_pool(runs, "depth", depth=1).articles()]
    ['x', 'y']
    >>> build_pool(runs, "topn", size=3).size()
    3
    """
    from focal.pooling.strategies import PoolMethod
    from focal.pooling.strategies import build_pool as build

    chosen: PoolMethod = method  # type: ignore[assignment]  # checked by `build`
    return build(ranked_runs(runs), chosen, size=size, depth=depth, fused=fused, rrf_k=rrf_k)


def write_pool(pool: Pool, target: Source | TextIO, order: str = "article", seed: int = 0) -> None:
    """Write `pool` as a pool file (docs/pooling.md) to a path (written whole, then renamed into
    place, as `focal pool build -o`) or an open stream; articles of a topic in `order`:
    `article` (by id), `rank` (pool rank) or `random` (shuffled from `seed`).

    >>> import io
    >>> from focal.pooling.records import Pool, PooledArticle, TopicPool
    >>> entry = PooledArticle("1", "x", 1, 1, ("A",))
    >>> pool = Pool("topn", ("A",), {"1": TopicPool("1", (entry,), {}, 1)})
    >>> stream = io.StringIO()
    >>> write_pool(pool, stream)
    >>> stream.getvalue().splitlines()[1]
    '1\\tx\\t1\\t1\\tA'
    """
    from focal.evaluation.output.files import atomic_write
    from focal.pooling.io import ArticleOrder, pool_lines

    chosen: ArticleOrder = order  # type: ignore[assignment]  # checked by `pool_lines`
    if isinstance(target, str | os.PathLike):
        atomic_write(os.fspath(target), pool_lines(pool, chosen, seed))
    else:
        target.writelines(pool_lines(pool, chosen, seed))


def read_pool(path: Source) -> Pool:
    """A pool file read back (topics and articles in the file's order; depths unknown); a bad
    line is a `FormatError` naming file and line.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pool.tsv"
    >>> _ = path.write_text("1\\tx\\t1\\t1\\tA\\n1\\ty\\t1\\t2\\tA,B\\n", encoding="utf-8")
    >>> pool = read_pool(path)
    >>> pool.size(), pool.run_ids
    (2, ('A', 'B'))
    """
    from focal.pooling.io import read_pool as read

    return read(os.fspath(path))


def pool_statistics(
    pool: Pool, runs: Sequence[RunInput], groups: Mapping[str, str] | None = None
) -> PoolStatistics:
    """What a pool holds and who contributed it, per topic, per run and per group of runs
    (`groups`: run id -> group), as `focal pool stats` prints it (docs/pooling.md).

    >>> from focal.evaluation.formats.records import Result, Run
    >>> results = [Result("1", a, i, 1.0, 0) for i, a in enumerate("xy", 1)]
    >>> runs = [Run("A", "", "article", {"1": results})]
    >>> statistics = pool_statistics(build_pool(runs, "topn", size=1), runs)
    >>> statistics.overall.pool_size, [run.run_id for run in statistics.runs]
    (1, ['A'])
    """
    from focal.pooling.stats import pool_statistics as statistics

    return statistics(pool, ranked_runs(runs), groups)
