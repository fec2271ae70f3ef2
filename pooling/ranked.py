"""Reduce parsed runs to `RankedRun`s, refusing what pooling cannot trust.

The run reader accepts a run whose topic lines are not contiguous (it groups them and warns).
Pooling refuses it: a repeated topic block usually means two runs were concatenated or a file was
edited by hand, and the rank of a result (its position in the topic block) is then meaningless.
The check works on the `line` each `Result` keeps, so it needs no strict mode in the reader.
"""

from __future__ import annotations

import bisect
import itertools
import sys
from collections.abc import Iterable, Sequence

from evaluation.formats.errors import FormatError
from evaluation.formats.records import Run
from pooling.records import RankedRun


def ranked_run(run: Run) -> RankedRun:
    """The article ids of `run`'s results per topic, in rank (line) order.

    Raises `FormatError` naming the file and line when the run is empty or repeats a topic block.
    Article ids are interned so that many runs share one string per article.
    """
    if not any(run.topics.values()):
        raise FormatError(run.file, None, "the run has no results (an empty run cannot be pooled)")
    check_contiguous_topics(run)
    topics = {
        topic: [sys.intern(result.article) for result in results]
        for topic, results in run.topics.items()
        if results
    }
    return RankedRun(run_id=run.run_id, topics=topics, file=run.file)


def check_contiguous_topics(run: Run) -> None:
    """Raise `FormatError` at the first line where a topic's block starts a second time."""
    spans: list[tuple[int, int, str]] = []  # (first line, last line, topic)
    for topic, results in run.topics.items():
        if results:
            spans.append((results[0].line, results[-1].line, topic))
    spans.sort()
    earliest: tuple[int, str, int] | None = None  # (repeat line, topic, first line)
    for (first, last, topic), (next_first, _, _) in itertools.pairwise(spans):
        if last <= next_first:
            continue
        # The topic has lines after another topic began: its block is repeated there.
        lines = [result.line for result in run.topics[topic]]
        repeat = lines[bisect.bisect_right(lines, next_first)]
        if earliest is None or repeat < earliest[0]:
            earliest = (repeat, topic, first)
    if earliest is not None:
        repeat, topic, first = earliest
        raise FormatError(
            run.file,
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


def as_ranked(runs: Iterable[RankedRun | Run]) -> list[RankedRun]:
    """Accept parsed `Run`s or `RankedRun`s; check that the run ids are distinct."""
    ranked = [run if isinstance(run, RankedRun) else ranked_run(run) for run in runs]
    check_distinct_run_ids(ranked)
    return ranked
