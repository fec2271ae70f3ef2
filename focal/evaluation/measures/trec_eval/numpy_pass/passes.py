"""The whole-file pass with numpy alone (`open_numpy_pass`): `engine/plain_pass.py`'s interface
and answers, for an install without the C part or with `FOCAL_KERNEL=numpy`.

A first look reads each file a chunk at a time (`look`): every line plain, each topic's group;
a file within the memory budget (`look.KEEP`) is read once and its lines kept. When both files
are grouped by topic, the qrels topics are evaluated in trec_eval's order a block (`BLOCK`
bytes, at most `BLOCK_TOPICS` topics) at a time: the block's groups are sliced from the kept
lines, or read again into a reused buffer (a file beyond the budget, so that memory holds a
block and the topic index), and evaluated with numpy (`block.evaluate`). Files that are not
grouped are evaluated whole, as one block. No pyarrow, no
click: numpy and the measure families only (docs/trec_eval.md, "The C part").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from io import FileIO
from typing import TYPE_CHECKING

import numpy as np

from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    PlainTopic,
    RowTuple,
)
from focal.evaluation.measures.trec_eval.engine.topic_index import identity
from focal.evaluation.measures.trec_eval.numpy_pass import look
from focal.evaluation.measures.trec_eval.numpy_pass.block import evaluate
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD
from focal.evaluation.measures.trec_eval.numpy_pass.joined import Joined, join
from focal.evaluation.measures.trec_eval.numpy_pass.look import Index
from focal.evaluation.measures.trec_eval.numpy_pass.rows import Asked, computable
from focal.evaluation.measures.trec_eval.numpy_pass.topics import (
    Changed,
    Lines,
    read_lines,
    topic_codes,
)

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.numpy_pass.fields import Bytes, Ints

# bytes of qrels and run lines, and topics, evaluated at a time: each block costs a few dozen
# array calls and a call of every family, so blocks are larger than the C pass's; twice as
# large when the files hold more than LARGE bytes (3-5% less time on 10,000 topics, where 41
# blocks paid those calls; 3% more on 50 x 1,500, where a larger block writes fresh memory)
BLOCK, BLOCK_LARGE, LARGE = 1 << 21, 1 << 22, 1 << 25
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
            if (identity(qrels), identity(run)) != (qrels_index.identity, run_index.identity):
                raise PlainStop("", "changed", "")
            q_file = _File(qrels, qrels_index, look.QRELS_FIELDS)
            r_file = _File(run, run_index, look.RUN_FIELDS)
            if not self._joined.grouped:  # one block, whatever the files' order
                topics = sorted(set(qrels_index.topics.texts()))
                code_of = {topic: i for i, topic in enumerate(topics)}
                q_lines, r_lines = (file.lines(np.arange(len(file.index.topics), dtype=np.int64),
                                               _codes(file.index, code_of))
                                    for file in (q_file, r_file))  # fmt: skip
                yield from self._evaluated(q_lines, r_lines, topics)
                return
            for topics, q_groups, r_groups, r_codes in self._blocks():
                q_lines = q_file.lines(q_groups, np.arange(len(topics), dtype=np.int64))
                r_lines = r_file.lines(r_groups, r_codes)
                yield from self._evaluated(q_lines, r_lines, topics)

    def _evaluated(self, qrels: Lines, run: Lines, topics: list[bytes]) -> Iterator[PlainTopic]:
        done, stop = evaluate(qrels, run, topics, self._rows, self._options, self._asked)
        yield from done
        if stop is not None:
            raise PlainStop(stop.topic.decode(errors="replace"), stop.reason,
                            stop.document.decode(errors="replace"))  # fmt: skip

    def _blocks(self) -> Iterator[tuple[list[bytes], Ints, Ints, Ints]]:
        """The qrels topics in byte order, a block at a time (`BLOCK` bytes of both files' groups
        or `BLOCK_TOPICS` topics): its topics, their qrels groups, the run groups that answer
        one and those groups' codes (their topics' places in the block)."""
        (q_index, r_index), joined = self._indexes, self._joined
        order, match = joined.order, joined.match
        sizes = _sizes(q_index)[order]
        answered = match >= 0
        sizes[answered] += _sizes(r_index)[match[answered]]
        ends = np.cumsum(sizes)
        block_bytes = BLOCK_LARGE if len(ends) and int(ends[-1]) > LARGE else BLOCK
        start = 0
        while start < len(order):
            reach = int(np.searchsorted(ends, (ends[start - 1] if start else 0) + block_bytes)) + 1
            end = min(reach, start + BLOCK_TOPICS, len(order))
            block = match[start:end]
            codes = np.flatnonzero(block >= 0)
            topics = q_index.topics.texts(order[start:end])
            yield topics, order[start:end], block[codes], codes
            start = end


class _File:
    """Where a block's lines of one file come from: its kept lines, taken group by group (a
    slice when the groups follow each other), or its bytes, read again (`_read`)."""

    def __init__(self, stream: FileIO, index: Index, count: int) -> None:
        self.stream, self.index, self._count = stream, index, count
        self._buffers: dict[int, Bytes] = {}
        self._starts = _group_bounds(index)

    def lines(self, groups: Ints, codes: Ints) -> Lines:
        """The lines of `groups` (group numbers, in the block's order), each group's lines
        with its code in `codes`."""
        kept = self.index.kept
        if kept is None:
            return self._read(groups, codes)
        firsts, ends = kept.firsts[groups], kept.firsts[groups + 1]
        sizes = ends - firsts
        line_codes = np.repeat(codes, sizes)
        if len(groups) and np.array_equal(firsts[1:], ends[:-1]):
            taken: slice | Ints = slice(int(firsts[0]), int(ends[-1]))
        else:
            taken = np.repeat(firsts - np.cumsum(sizes) + sizes, sizes) + \
                np.arange(int(sizes.sum()), dtype=np.int64)  # fmt: skip
        return Lines(line_codes, [column[taken] for column in kept.docs], kept.values[taken])

    def _read(self, groups: Ints, codes: Ints) -> Lines:
        """The groups' lines read again from the file; PlainStop when they are no longer
        plain."""
        starts = self._starts
        ranges = list(zip(starts[groups].tolist(), starts[groups + 1].tolist(), strict=True))
        data, stop, offsets = _read(self.stream, ranges, self._buffers, self._count)
        try:
            lines, bounds = read_lines(data, stop, self._count)
        except Changed:
            raise PlainStop("", "changed", "") from None
        return topic_codes(lines, bounds, offsets, codes)


def _group_bounds(index: Index) -> Ints:
    """Where each group of a file starts, and the file's size after them."""
    return np.append(index.topics.starts, index.identity[0]).astype(np.int64, copy=False)


def _sizes(index: Index) -> Ints:
    """The bytes of each group of a file."""
    return np.diff(_group_bounds(index))


def _codes(index: Index, code_of: dict[bytes, int]) -> Ints:
    """Each group's topic code (-1: a topic the qrels lack)."""
    return np.array([code_of.get(topic, -1) for topic in index.topics.texts()], dtype=np.int64)


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
    qrels_index = look.look(qrels, look.QRELS_FIELDS, look.KEEP)
    if qrels_index is None:
        return None
    held = 0 if qrels_index.kept is None else qrels_index.kept.size
    run_index = look.look(run, look.RUN_FIELDS, look.KEEP - held)
    if run_index is None:
        return None
    return NumpyPass((qrels, run), rows, options, (qrels_index, run_index),
                     join(qrels_index.topics, run_index.topics))  # fmt: skip
