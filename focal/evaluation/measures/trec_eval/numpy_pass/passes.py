"""The whole-file pass with numpy alone (`open_numpy_pass`): `engine/plain_pass.py`'s interface
and answers, for an install without the C part or with `FOCAL_KERNEL=numpy`.

A first look reads each file a chunk at a time (`look`): every line plain, each topic's group.
When both files are grouped by topic, the qrels topics are evaluated in trec_eval's order a
block (`BLOCK` bytes, at most `BLOCK_TOPICS` topics) at a time: the block's groups are read
into a reused buffer and evaluated with numpy (`block.evaluate`), so that memory holds a block
and the topic index. Files that are not grouped are read whole, as one block. No pyarrow, no
click: numpy and the measure families only (docs/trec_eval.md, "The C part").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from io import FileIO

import numpy as np

from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    PlainTopic,
    RowTuple,
)
from focal.evaluation.measures.trec_eval.numpy_pass import look
from focal.evaluation.measures.trec_eval.numpy_pass.block import evaluate
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD, Bytes, Ints
from focal.evaluation.measures.trec_eval.numpy_pass.look import Index, Joined
from focal.evaluation.measures.trec_eval.numpy_pass.rows import Asked, computable
from focal.evaluation.measures.trec_eval.numpy_pass.topics import (
    Changed,
    Lines,
    read_lines,
    topic_codes,
)

# bytes of qrels and run lines, and topics, evaluated at a time: each block costs a few dozen
# array calls and a call of every family, so blocks are larger than the C pass's
BLOCK = 1 << 21
BLOCK_TOPICS = 2048
Ranges = list[tuple[int, int]]  # byte ranges of a file, [start, end)


class NumpyPass:
    """The evaluation of one run, topic after topic (`open_numpy_pass`)."""

    def __init__(self, paths: tuple[str, str], rows: Sequence[RowTuple], options: PlainOptions,
                 indexes: tuple[Index, Index], joined: Joined) -> None:  # fmt: skip
        self._paths, self._rows, self._options = paths, list(rows), options
        self._asked = Asked(rows)
        self._indexes, self._joined = indexes, joined
        self.run_id = (indexes[1].tag or b"").decode(errors="replace")
        self.unknown = [t.decode(errors="replace") for t in joined.unknown]

    def __iter__(self) -> Iterator[PlainTopic]:
        """The qrels topics in trec_eval's order; PlainStop where trec_eval stops."""
        qrels_index, run_index = self._indexes
        with open(self._paths[0], "rb", buffering=0) as qrels, \
                open(self._paths[1], "rb", buffering=0) as run:  # fmt: skip
            if (look.identity(qrels), look.identity(run)) != (qrels_index.identity,
                                                              run_index.identity):  # fmt: skip
                raise PlainStop("", "changed", "")
            if qrels_index.kept is not None and run_index.kept is not None:
                yield from self._whole(qrels_index.kept, run_index.kept)
                return
            if not self._joined.grouped:
                sizes = qrels_index.identity[0], run_index.identity[0]
                whole = (_lines(qrels, [(0, sizes[0])], look.QRELS_FIELDS)[:2],
                         _lines(run, [(0, sizes[1])], look.RUN_FIELDS)[:2])  # fmt: skip
                yield from self._whole(*whole)
                return
            buffers: dict[int, Bytes] = {}
            for topics, q_ranges, r_ranges, r_codes in self._blocks():
                q_lines, q_bounds, q_offsets = _lines(qrels, q_ranges, look.QRELS_FIELDS, buffers)
                r_lines, r_bounds, r_offsets = _lines(run, r_ranges, look.RUN_FIELDS, buffers)
                codes = np.arange(len(topics), dtype=np.int64)
                q_lines = topic_codes(q_lines, q_bounds, q_offsets, codes)
                r_lines = topic_codes(r_lines, r_bounds, r_offsets, r_codes)
                yield from self._evaluated(q_lines, r_lines, topics)

    def _evaluated(self, qrels: Lines, run: Lines, topics: list[bytes]) -> Iterator[PlainTopic]:
        done, stop = evaluate(qrels, run, topics, self._rows, self._options, self._asked)
        yield from done
        if stop is not None:
            raise PlainStop(stop.topic.decode(errors="replace"), stop.reason,
                            stop.document.decode(errors="replace"))  # fmt: skip

    def _whole(self, qrels: tuple[Lines, Ints], run: tuple[Lines, Ints]) -> Iterator[PlainTopic]:
        """Both files' lines (and bounds), whole: one block, whatever their order."""
        topics = sorted(set(self._indexes[0].ids))
        code_of = {topic: i for i, topic in enumerate(topics)}
        q_lines = _coded(*qrels, self._indexes[0], code_of)
        r_lines = _coded(*run, self._indexes[1], code_of)
        yield from self._evaluated(q_lines, r_lines, topics)

    def _blocks(self) -> Iterator[tuple[list[bytes], Ranges, Ranges, Ints]]:
        """The qrels topics in byte order, a block at a time: its topics, the byte range of each
        one's qrels group, of each run group that answers one, and those groups' codes (their
        topics' places in the block)."""
        (q_index, r_index), joined = self._indexes, self._joined
        q_size, r_size = q_index.identity[0], r_index.identity[0]
        topics: list[bytes] = []
        q_ranges: Ranges = []
        r_ranges: Ranges = []
        r_codes: list[int] = []
        size = 0
        for group, answer in zip(joined.order, joined.match, strict=True):
            start, end = _bounds(q_index, group, q_size)
            q_ranges.append((start, end))
            size += end - start
            if answer >= 0:
                start, end = _bounds(r_index, answer, r_size)
                r_ranges.append((start, end))
                r_codes.append(len(topics))
                size += end - start
            topics.append(q_index.ids[group])
            if size >= BLOCK or len(topics) >= BLOCK_TOPICS:
                yield topics, q_ranges, r_ranges, np.array(r_codes, dtype=np.int64)
                topics, q_ranges, r_ranges, r_codes, size = [], [], [], [], 0
        if topics:
            yield topics, q_ranges, r_ranges, np.array(r_codes, dtype=np.int64)


def _bounds(index: Index, group: int, size: int) -> tuple[int, int]:
    end = index.starts[group + 1] if group + 1 < len(index.starts) else size
    return index.starts[group], end


def _coded(lines: Lines, bounds: Ints, index: Index, code_of: dict[bytes, int]) -> Lines:
    """A whole file's lines with their topics' codes (-1: a topic the qrels lack)."""
    codes = np.array([code_of.get(topic, -1) for topic in index.ids], dtype=np.int64)
    return topic_codes(lines, bounds, np.array(index.starts, dtype=np.int64), codes)


def _lines(stream: FileIO, groups: Ranges, count: int,
           buffers: dict[int, Bytes] | None = None) -> tuple[Lines, Ints, Ints]:  # fmt: skip
    """The lines of the groups' ranges (`_read`), their bounds, and where each group starts;
    PlainStop when they are no longer plain."""
    data, stop, offsets = _read(stream, groups, {} if buffers is None else buffers, count)
    try:
        lines, bounds = read_lines(data, stop, count)
    except Changed:
        raise PlainStop("", "changed", "") from None
    return lines, bounds, offsets


def _read(stream: FileIO, groups: Ranges, buffers: dict[int, Bytes],
          which: int) -> tuple[Bytes, int, Ints]:  # fmt: skip
    """The bytes of the groups (byte ranges of the file), one after the other, in
    `buffers[which]` (grown when needed, reused block after block), PAD zero bytes past them;
    how many, and where each group starts in them. Groups that follow each other in the file
    are read in one call; a range ending without a newline (the file's last line) gets one."""
    total = sum(end - start for start, end in groups) + len(groups) + PAD
    if len(buffers.setdefault(which, np.zeros(0, dtype=np.uint8))) < total:
        buffers[which] = np.zeros(max(total, 2 * len(buffers[which])), dtype=np.uint8)
    buffer = buffers[which]
    offsets = np.zeros(len(groups), dtype=np.int64)
    at = i = 0
    while i < len(groups):
        first, end = groups[i]
        offsets[i] = at
        i += 1
        while i < len(groups) and groups[i][0] == end:  # (the next group follows this one)
            offsets[i] = at + end - first
            end = groups[i][1]
            i += 1
        stream.seek(first)
        while first < end:
            got = stream.readinto(buffer.data[at : at + end - first])
            if not got:  # shorter than at the first look
                raise PlainStop("", "changed", "")
            at, first = at + got, first + got
        if at and buffer[at - 1] != NEWLINE:
            buffer[at] = NEWLINE
            at += 1
    buffer[at : at + PAD] = 0
    return buffer, at, offsets


def open_numpy_pass(qrels: str, run: str, rows: Sequence[RowTuple], options: PlainOptions
                    ) -> NumpyPass | None:  # fmt: skip
    """`plain_pass.open_plain_pass` with numpy: the same answers, the same declines (and a few
    more: see `fields`), None when the files or rows are not the pass's."""
    within = 0 <= options.level < 2**31 and -(2**63) <= options.num_docs < 2**63
    if not within or options.version not in (9, 10) or not computable(rows):
        return None
    qrels_index = look.look(qrels, look.QRELS_FIELDS)
    run_index = None if qrels_index is None else look.look(run, look.RUN_FIELDS)
    if qrels_index is None or run_index is None:
        return None
    return NumpyPass((qrels, run), rows, options, (qrels_index, run_index),
                     look.join(qrels_index, run_index))  # fmt: skip
