"""Plain qrels and a plain run evaluated whole in C, topic block after topic block (`focal
trec_eval`'s compiled path; docs/trec_eval.md, "The C part").

`open_plain_pass` first looks at each file once, a chunk at a time, in C (`index_groups`,
`engine/topic_index.py`): every line plain (as `engine/files.py`'s readers take them, but for
scores the interpreter would have to read and grades above a million: those files are left to
the numpy engine), and where each topic's group of lines lies. When each file is grouped (every
topic in one group: the case in practice), the topics are evaluated in trec_eval's order (the
qrels topic ids in byte order) a block (`BLOCK` bytes) at a time: the block's groups are read
into a reused buffer and evaluated in C (`evaluate_block`, without the interpreter lock), so
that memory holds one block and the topic index, whatever the number of topics. The index is
held in memory up to `topic_index.SPILL` groups a file (a few dozen bytes a topic, no temporary
file); beyond, it is sorted outside memory, in temporary files (`topic_index`), and memory holds
a batch of it. A file that is not grouped is read whole, as one block (memory then grows with
the file).

Every row of the selection is computed in C (relstring's text too) or the pass is declined
(`open_plain_pass` answers None) and the numpy engine evaluates the call. This module imports no
numpy, pyarrow or click: with it, `focal trec_eval` on plain files
needs none of them (their imports alone cost several times the C trec_eval's whole call).
The values are the numpy engine's (`engine/run.py` `evaluate_trec`) bit for bit, topic by
topic (tests/evaluation/measures/trec_eval/test_plain_pass.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from focal.evaluation.measures.trec_eval.engine.topic_index import (
    Index,
    InMemory,
    Joined,
    Runs,
    first_look,
    identity,
    merge,
    why,
)
from focal.evaluation.measures.trec_eval.kernel import compiled

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.families.declarations import Selection

# (family, parameter or None, a `list` family's values, a `pairs` family's items): one printed
# row as the C families read it (`measure_spec_from`, kernel/_kernel_measures.h)
RowTuple = tuple[str, float | None, tuple[float, ...], tuple[tuple[str, float], ...]]
Reason = Literal["judged twice", "appears twice", "changed", "no temporary file"]
# bytes of a file the first look reads at a time, and of qrels and run lines evaluated at a time
# (a larger topic: alone): half a MiB took the least time and memory, measured from 256 KiB to
# 4 MiB on 50 x 1,500 and 10,000 x 100 files (the lines' arrays stay in the processor's caches)
CHUNK = BLOCK = 1 << 19
# topics evaluated at a time at most: their values are Python objects until yielded (a block of
# small topics, thousands of them, held several MiB of floats)
BLOCK_TOPICS = 512
QRELS_FIELDS, RUN_FIELDS = 4, 6
NEWLINE = ord("\n")


@dataclass(frozen=True)
class PlainOptions:
    """trec_eval's switches as the pass reads them (`engine/run.py` `TrecOptions`)."""

    level: int = 1  # -l
    version: int = 10  # 9 or 10
    num_docs: int = 0  # -N
    max_docs: int | None = None  # -M (None: every document)
    judged_only: bool = False  # -J
    complete: bool = False  # -c


@dataclass(frozen=True)
class PlainTopic:
    """One qrels topic, in trec_eval's order (the qrels topic ids sorted by their bytes)."""

    topic: str
    answered: bool  # the run has results for it
    # per row of `rows` (a str for relstring's, a float for every other: counts too); None when
    # not answered and not evaluated
    values: tuple[float | str, ...] | None
    positive: int  # qrels lines of the topic with grade > 0 (num_rel with -c)
    judged: int  # qrels lines with grade >= 0 (10.0's first-topic check)


class PlainStop(Exception):
    """trec_eval stops at `topic` (the topics before it were yielded): `reason` "judged twice"
    (its qrels judge `document` twice), "appears twice" (`document` twice among the run's first
    -M results of the topic), "changed" (a file changed under the pass: a line no longer
    plain; `document` empty) or "no temporary file" (the topic index of files of many topics
    could not be written to a temporary file, `engine/topic_index.py`: `document` says why;
    `topic` empty)."""

    def __init__(self, topic: str, reason: Reason, document: str) -> None:
        super().__init__(f"topic {topic!r}: document {document!r} {reason}")
        self.topic, self.reason, self.document = topic, reason, document


class PlainPass:
    """The evaluation of one run, topic after topic (`open_plain_pass`)."""

    def __init__(self, qrels: str, run: str, rows: Sequence[RowTuple], options: PlainOptions,
                 indexes: tuple[Index, Index], joined: InMemory | Joined,
                 failure: str | None = None) -> None:  # fmt: skip
        self._paths, self._rows, self._options = (qrels, run), list(rows), options
        self._joined, self._failure = joined, failure
        self._identities = indexes[0].identity, indexes[1].identity
        self._sizes = indexes[0].identity[0], indexes[1].identity[0]
        self.run_id = _text(indexes[1].tag or b"")
        self.unknown: list[str] = [_text(t) for t in joined.unknown]

    def __iter__(self) -> Iterator[PlainTopic]:
        """The qrels topics in trec_eval's order; PlainStop at a topic where trec_eval stops.
        (A pass whose index went to a temporary file is iterated once: the file is closed.)"""
        try:
            yield from self._iterate()
        finally:
            self._joined.close()

    def _iterate(self) -> Iterator[PlainTopic]:
        if self._failure is not None:
            raise PlainStop("", "no temporary file", self._failure)
        with open(self._paths[0], "rb", buffering=0) as qrels, \
                open(self._paths[1], "rb", buffering=0) as run:  # fmt: skip
            if (identity(qrels), identity(run)) != self._identities:  # (replaced, rewritten)
                raise PlainStop("", "changed", "")
            if not self._joined.grouped:
                whole = (_read(qrels, [(0, self._sizes[0])], bytearray()),
                         _read(run, [(0, self._sizes[1])], bytearray()))  # fmt: skip
                yield from self._topics(self._evaluate(whole[0], whole[1])[0])
                return
            buffers = bytearray(), bytearray()
            for q_ranges, r_ranges in self._blocks():
                q_view = _read(qrels, q_ranges, buffers[0])
                r_view = _read(run, r_ranges, buffers[1])
                try:
                    answer = self._evaluate(q_view, r_view)
                finally:
                    q_view.release()
                    r_view.release()
                yield from self._topics(answer[0])

    def _evaluate(self, qrels: Any, run: Any) -> tuple[list[Any], list[bytes], bytes | None]:
        options, kernel = self._options, compiled()
        assert kernel is not None  # (open_plain_pass checked)
        max_docs = -1 if options.max_docs is None else min(options.max_docs, 2**63 - 1)
        try:
            answer: tuple[list[Any], list[bytes], bytes | None] = kernel.evaluate_block(
                qrels, run, self._rows, options.level, options.version, options.num_docs,
                max_docs, options.judged_only, options.complete and options.version == 10,
            )  # fmt: skip
        except ValueError:  # a line no longer plain: the file changed since the first look
            raise PlainStop("", "changed", "") from None
        return answer

    def _topics(self, topics: list[Any]) -> Iterator[PlainTopic]:
        for topic, answered, values, positive, judged, stop in topics:
            if stop is not None:
                raise PlainStop(_text(topic), stop[0], _text(stop[1]))
            yield PlainTopic(_text(topic), answered, values, positive, judged)

    def _blocks(self) -> Iterator[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
        """The qrels topics in byte order, cut into blocks of about BLOCK bytes (at most
        BLOCK_TOPICS topics): each block's byte ranges in the qrels and in the run (ranges that
        touch joined into one)."""
        q_ranges: list[tuple[int, int]] = []
        r_ranges: list[tuple[int, int]] = []
        size = topics = 0
        for q_start, q_end, r_start, r_end in self._joined.ranges():
            size += _add(q_ranges, q_start, q_end)
            if r_start >= 0:
                size += _add(r_ranges, r_start, r_end)
            topics += 1
            if size >= BLOCK or topics >= BLOCK_TOPICS:
                yield q_ranges, r_ranges
                q_ranges, r_ranges, size, topics = [], [], 0, 0
        if q_ranges:
            yield q_ranges, r_ranges


def _add(ranges: list[tuple[int, int]], start: int, end: int) -> int:
    """Range [start, end) added to `ranges` (joined to the last one when they touch); its size."""
    if ranges and ranges[-1][1] == start:
        ranges[-1] = (ranges[-1][0], end)
    else:
        ranges.append((start, end))
    return end - start


def _read(stream: Any, ranges: list[tuple[int, int]], buffer: bytearray) -> memoryview:
    """The bytes of `ranges` of the open file, one after the other, in `buffer` (grown when
    needed, never shrunk: reused block after block); a view of them. A range ending without a
    newline (the file's last line) gets one, so that the next range's first line stays apart."""
    total = sum(end - start for start, end in ranges) + len(ranges)
    if len(buffer) < total:
        buffer.extend(bytes(total - len(buffer)))
    view, at = memoryview(buffer), 0
    for start, end in ranges:
        stream.seek(start)
        while start < end:
            got = stream.readinto(view[at : at + end - start])
            if not got:  # shorter than at the first look
                view.release()
                raise PlainStop("", "changed", "")
            at, start = at + got, start + got
        if at and buffer[at - 1] != NEWLINE:
            buffer[at] = NEWLINE
            at += 1
    part = view[:at]
    view.release()
    return part


def _text(token: bytes) -> str:
    return token.decode(errors="replace")


def open_plain_pass(qrels: str, run: str, rows: Sequence[RowTuple], options: PlainOptions
                    ) -> PlainPass | None:  # fmt: skip
    """The evaluation of `run` against `qrels` for the rows `rows` (`row_tuples`), in C; None
    when the C part is not built or not chosen (`kernel.compiled()`), a file is not a readable
    regular file or not plain, or a row's family is not computed in C: the caller then takes
    the numpy engine, which names what is wrong. With `complete` and version 10, the qrels
    topics the run does not answer are evaluated as trec_eval's stand-in ranking (one document
    outside the pool; none with -J) and yielded with answered=False."""
    kernel = compiled()
    within = 0 <= options.level < 2**31 and -(2**63) <= options.num_docs < 2**63
    if kernel is None or not within or options.version not in (9, 10):
        return None  # (the numpy engine takes a level or -N beyond the C part's integers)
    probe = kernel.evaluate_block(b"", b"", list(rows), options.level, options.version,
                                  options.num_docs, -1, False, False)  # fmt: skip
    if probe is None:
        return None
    runs = Runs(kernel)
    try:
        qrels_index = first_look(qrels, QRELS_FIELDS, kernel, runs, 0, CHUNK)
        run_index = (
            None if qrels_index is None else first_look(run, RUN_FIELDS, kernel, runs, 1, CHUNK)
        )
        if qrels_index is None or run_index is None:
            return None
        indexes = qrels_index, run_index
        if not (runs.spilled(0) or runs.spilled(1)):  # (the index in memory: the usual case)
            answer = kernel.join_groups(qrels_index.ids, qrels_index.ends, run_index.ids,
                                        run_index.ends)  # fmt: skip
            joined = InMemory(answer, (qrels_index.starts, run_index.starts),
                              (qrels_index.identity[0], run_index.identity[0]))  # fmt: skip
            return PlainPass(qrels, run, rows, options, indexes, joined)
        for which, index in enumerate(indexes):  # (the other file's index joins its runs)
            if not runs.spilled(which):
                runs.write(which, index.ids, index.ends, index.starts, index.identity[0])
        if runs.failure is None:
            try:
                return PlainPass(qrels, run, rows, options, indexes, merge(runs))
            except OSError as error:
                runs.failure = why(error)
        return PlainPass(qrels, run, rows, options, indexes, Joined(None, [], False),
                         runs.failure)  # fmt: skip
    finally:
        runs.close()


def row_tuples(selection: Selection) -> list[RowTuple]:
    """The rows of `selection` that `topic_values` computes, in printed order, as the C
    families read them (`measure_spec_from`): PlainTopic.values follow this order."""
    from focal.evaluation.measures.trec_eval.families.declarations import BY_NAME

    tuples: list[RowTuple] = []
    for row in selection.rows():
        measure = BY_NAME[row.family]
        if measure.compute is None:
            continue
        values = selection.parameters(row.family) if measure.printed == "typed" else ()
        pairs = selection.pairs.get(row.family, ())
        tuples.append((row.family, row.parameter, tuple(values), tuple(pairs)))
    return tuples
