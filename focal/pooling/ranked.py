"""Reduce parsed runs to `RankedRun`s, refusing what pooling cannot trust.

The run reader accepts a run whose topic lines are not contiguous (it groups them and warns).
Pooling refuses it: a repeated topic block usually means two runs were concatenated or a file was
edited by hand, and the rank of a result (its position in the topic block) is then meaningless.
The check works on the `line` each `Result` keeps, so it needs no strict mode in the reader.

A canonical FOL run file is read by pyarrow (`focal.evaluation.formats.fol.arrow_table`), its
article ids kept as arrays (`focal.pooling.article_column`); other FOL run files are read as columns
(`focal.evaluation.formats.fol.columns.read_run_columns`, about five times faster than `read_run`
and refusing exactly what it refuses): a `RankedRun` is then made
from each topic's distinct articles and result codes, and the same check runs on the columns'
line numbers. A run whose topic blocks are split takes `read_run`'s path inside the columns
reader and keeps its lines, so pooling's error is the same on either path.
"""

from __future__ import annotations

import bisect
import itertools
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Run
from focal.evaluation.processes import usable_cpus
from focal.pooling.records import RankedRun

if TYPE_CHECKING:  # the columns module loads numpy: only `read_ranked_run` needs it at run time
    from focal.evaluation.formats.fol.columns import RunColumns, TopicColumns

EMPTY_RUN = "the run has no results (an empty run cannot be pooled)"


def ranked_run(run: Run | RunColumns) -> RankedRun:
    """The article ids of `run`'s results per topic, in rank (line) order.

    Accepts a parsed `Run` or the `RunColumns` of a FOL run. Raises `FormatError` naming the file
    and line when the run is empty or repeats a topic block. Article ids are interned so that
    many runs share one string per article.
    """
    if not isinstance(run, Run):
        return _ranked_columns(run)
    if not any(run.topics.values()):
        raise FormatError(run.file, None, EMPTY_RUN)
    check_contiguous_topics(run)
    topics = {
        topic: [sys.intern(result.article) for result in results]
        for topic, results in run.topics.items()
        if results
    }
    return RankedRun(run_id=run.run_id, topics=topics, file=run.file)


def read_ranked_run(path: str | Path) -> RankedRun:
    """Read a run file for pooling: canonical FOL runs through pyarrow
    (`focal.evaluation.formats.fol.arrow_table`, article ids kept as arrays, see `ArticleColumn`),
    other FOL
    runs through columns, other runs through records.

    Errors are those of `read_run` and `ranked_run`, whichever path the file takes: the pyarrow
    path only takes files the others accept without a warning.
    """
    from focal.evaluation.formats.fol.arrow_table import read_fol_table
    from focal.evaluation.formats.fol.columns import read_run_columns
    from focal.evaluation.formats.source import read_bytes
    from focal.pooling.article_column import ArticleColumn

    table = read_fol_table(read_bytes(path))
    if table is None:
        return ranked_run(read_run_columns(path))
    bounds = [*table.firsts.tolist(), len(table)]
    names = None if table.names is None else list(map(sys.intern, table.names))  # shared by runs
    topics = {
        topic: ArticleColumn(table.articles[begin:end], names)
        for topic, begin, end in zip(table.topics, bounds[:-1], bounds[1:], strict=True)
    }
    return RankedRun(table.run_id, topics, str(path))


def read_ranked_runs(paths: Iterable[str | Path], threads: int | None = None) -> list[RankedRun]:
    """`read_ranked_run` of every path, in order, several files at a time.

    pyarrow parses without the GIL, so on a machine with several cores the files are read side
    by side (`threads`, default: the usable cores, at most 4). The first error in path order is
    raised, as a one-at-a-time loop would raise it.
    """
    paths = list(paths)
    workers = threads or min(4, usable_cpus())
    if workers <= 1 or len(paths) <= 1:
        return [read_ranked_run(path) for path in paths]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(read_ranked_run, paths))


def _ranked_columns(run: RunColumns) -> RankedRun:
    topics = {topic: columns for topic, columns in run.topics.items() if len(columns)}
    if not topics:
        raise FormatError(run.file, None, EMPTY_RUN)
    spans = [(int(c.lines[0]), int(c.lines[-1]), topic) for topic, c in topics.items()]
    _refuse_repeated_blocks(run.file, spans, lambda topic: topics[topic].lines.tolist())
    return RankedRun(run.run_id, {t: _article_list(c) for t, c in topics.items()}, run.file)


def _article_list(columns: TopicColumns) -> list[str]:
    """Each result's (interned) article id, from the distinct ids and the results' codes."""
    unique = list(map(sys.intern, columns.unique))
    return list(map(unique.__getitem__, columns.codes.tolist()))


def check_contiguous_topics(run: Run) -> None:
    """Raise `FormatError` at the first line where a topic's block starts a second time."""
    spans = [
        (results[0].line, results[-1].line, topic)
        for topic, results in run.topics.items()
        if results
    ]
    _refuse_repeated_blocks(
        run.file, spans, lambda topic: [result.line for result in run.topics[topic]]
    )


def _refuse_repeated_blocks(
    file: str, spans: list[tuple[int, int, str]], lines_of: Callable[[str], Sequence[int]]
) -> None:
    """`spans`: (first line, last line, topic) of every topic; `lines_of(topic)`: its lines, in
    file order (only asked for a topic that is split)."""
    spans.sort()
    earliest: tuple[int, str, int] | None = None  # (repeat line, topic, first line)
    for (first, last, topic), (next_first, _, _) in itertools.pairwise(spans):
        if last <= next_first:
            continue
        # The topic has lines after another topic began: its block is repeated there.
        lines = lines_of(topic)
        repeat = int(lines[bisect.bisect_right(lines, next_first)])
        if earliest is None or repeat < earliest[0]:
            earliest = (repeat, topic, first)
    if earliest is not None:
        repeat, topic, first = earliest
        raise FormatError(
            file,
            repeat,
            f"topic {topic} starts a second block here (its first block began at line {first});"
            " pooling needs each topic's results in one contiguous block",
        )


def check_distinct_run_ids(runs: Sequence[RankedRun]) -> None:
    """Raise `FormatError` when two runs share a run id (their contributions would merge)."""
    seen: dict[str, str] = {}
    for run in runs:
        if run.run_id in seen:
            raise FormatError(
                run.file,
                None,
                f"run id {run.run_id!r} is also the id of {seen[run.run_id]}; run ids must differ",
            )
        if "," in run.run_id:
            raise FormatError(run.file, None, f"run id {run.run_id!r} contains a comma")
        seen[run.run_id] = run.file or run.run_id


def as_ranked(runs: Iterable[RankedRun | Run | RunColumns]) -> list[RankedRun]:
    """Accept parsed `Run`s, `RunColumns` or `RankedRun`s; check that the run ids are distinct."""
    ranked = [run if isinstance(run, RankedRun) else ranked_run(run) for run in runs]
    check_distinct_run_ids(ranked)
    return ranked
