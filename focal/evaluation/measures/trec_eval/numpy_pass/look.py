"""The numpy pass's first look at a file, a chunk at a time: every line plain, and where each
topic's group of lines lies (the C part's `index_groups`, kernel/_kernel_groups.c); then the two
files' groups joined in trec_eval's order (`join`).

A file within the memory budget (`KEEP` bytes: the file's bytes and its lines' arrays) is read
once: its bytes in one buffer, looked at a chunk at a time, and its lines kept (`Kept`), so that
the blocks are slices of them, not a second reading and parse. Beyond the budget the look keeps
no line: per group its topic id (bytes) and where it starts in the file, and the blocks are
read again (docs/performance.md, "The numpy pass"). For a run, the last line's run id.
"""

from __future__ import annotations

from io import FileIO
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from focal.evaluation.measures.trec_eval.engine.topic_index import identity, open_regular
from focal.evaluation.measures.trec_eval.numpy_pass import fields
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD, Bytes, Ints, Words
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Changed, read_lines

QRELS_FIELDS, RUN_FIELDS = 4, 6
CHUNK = 1 << 22  # bytes looked at a time: 4 MiB measured faster than 1 (fewer array calls)
# bytes of files and kept lines held for both files (`Kept`): 2,000,000 qrels lines take about
# 110 MiB, a run's 1,000,000 lines 70 MiB; above it a file is read twice, as the C pass reads it
KEEP = 256 << 20


class Kept(NamedTuple):
    """A file's lines, kept from the first look: its bytes (`data`, `raw`: `topics.Lines`'),
    per line its document id's start and length and its grade or score, `firsts[g]` group g's
    first line (and `firsts[-1]` the lines' count); `size` the bytes held."""

    data: Bytes
    raw: Words
    doc_starts: Ints
    doc_lengths: Ints
    values: Ints | fields.Floats
    firsts: Ints
    size: int


class Index(NamedTuple):
    """A file's topic groups in file order (`ids[i]` starts at `starts[i]`, ends where the next
    starts or at the file's end), its run id (a run), its identity when read, and its lines
    when they fit in the budget (`Kept`)."""

    ids: list[bytes]
    starts: list[int]
    tag: bytes | None
    identity: tuple[int, int, int, int]
    kept: Kept | None = None


class Joined(NamedTuple):
    """The qrels groups in their ids' byte order (`order`), each one's run group or -1
    (`match`), the run topics the qrels lack (byte order), and whether both files are grouped
    (no id in two groups; otherwise order and match are empty)."""

    order: list[int]
    match: list[int]
    unknown: list[bytes]
    grouped: bool


def look(path: str, count: int, budget: int = KEEP) -> Index | None:
    """The first look at a file of `count` fields a line, its lines kept when the file and
    they take at most `budget` bytes; None when a line is not plain, the file is empty or not a
    readable regular file."""
    opened = open_regular(path)
    if opened is None:
        return None
    stream, size = opened
    with stream:
        if size <= budget:
            return _whole(stream, size, count, budget)
        return _chunks(stream, size, count)


def _chunks(stream: FileIO, size: int, count: int) -> Index | None:
    """The look a chunk read at a time, keeping no line."""
    buffer = np.zeros(min(CHUNK, size) + 1 + PAD, dtype=np.uint8)
    ids: list[bytes] = []
    starts: list[int] = []
    tag: bytes | None = None
    base = 0
    while base < size:
        got = stream.readinto(buffer.data[: len(buffer) - 1 - PAD])
        final = not got or base + got >= size
        stop = _stop(buffer, got, final)
        if stop == 0 and not final:  # a line longer than the buffer
            buffer = np.zeros(2 * len(buffer), dtype=np.uint8)
            stream.seek(base)
            continue
        buffer[stop : stop + PAD] = 0
        try:
            lines, bounds = read_lines(buffer, stop, count, strict=True)
        except Changed:  # (here: a line not plain)
            return None
        _groups(buffer, lines.raw, bounds, base, ids, starts)
        tag = _tag(buffer, bounds, count, tag)
        if final:
            break
        base += stop
        stream.seek(base)
    return Index(ids, starts, tag, identity(stream))


def _whole(stream: FileIO, size: int, count: int, budget: int) -> Index | None:
    """The look at a file read whole into one buffer, a chunk at a time; its lines kept while
    they and the file's bytes fit in `budget`."""
    buffer = np.zeros(-(-(size + 1 + PAD) // 8) * 8, dtype=np.uint8)  # (whole words)
    read = 0
    while read < size:
        got = stream.readinto(buffer.data[read:size])
        if not got:  # shorter than it was: read what there is
            break
        read += got
    ids: list[bytes] = []
    starts: list[int] = []
    tag: bytes | None = None
    keeper = _Keeper(budget - read, read)
    base, chunk = 0, CHUNK
    while base < read:
        window = buffer[base:]
        got = min(chunk, read - base)
        final = base + got >= read
        stop = _stop(window, got, final)
        if stop == 0 and not final:  # a line longer than the chunk
            chunk *= 2
            continue
        try:
            lines, bounds = read_lines(window, stop, count, strict=True)
        except Changed:  # (here: a line not plain)
            return None
        opens = _groups(window, lines.raw, bounds, base, ids, starts)
        tag = _tag(window, bounds, count, tag)
        keeper.add((lines.doc_starts + base, lines.doc_lengths, lines.values, opens), base + stop)
        base += stop
    return Index(ids, starts, tag, identity(stream), keeper.kept(buffer, read))


class _Keeper:
    """A file's lines as the look reads them, written chunk after chunk into arrays sized from
    the lines a byte read so far (a tenth more), grown when short: written once rather than kept
    in parts and joined (19,000 page faults instead of 35,000 on 3,000,000 lines); none once
    they take more than `room` bytes."""

    def __init__(self, room: int, size: int) -> None:
        self._room, self._size = room, size
        self._columns: list[npt.NDArray[Any]] | None = []  # doc starts, lengths, values, opens
        self._lines = 0

    def add(self, part: tuple[npt.NDArray[Any], ...], done: int) -> None:
        """A chunk's lines (`part`: `_columns`' arrays), the file read up to `done` bytes."""
        if self._columns is None:
            return
        count, lines = len(part[0]), self._lines
        if (lines + count) * sum(array.itemsize for array in part) > self._room:
            self._columns = None
            return
        capacity = len(self._columns[0]) if self._columns else 0
        if lines + count > capacity:
            wanted = max(int((lines + count) * self._size / done * 1.1) + 64, 2 * capacity)
            grown = zip(self._columns or part, part, strict=True)
            self._columns = [np.concatenate((column[:lines], np.empty(wanted - lines, array.dtype)))
                             for column, array in grown]  # fmt: skip
        for column, array in zip(self._columns, part, strict=True):
            column[lines : lines + count] = array
        self._lines += count

    def kept(self, buffer: Bytes, size: int) -> Kept | None:
        """The lines kept (`Kept`), or None."""
        if self._columns is None:
            return None
        doc_starts, doc_lengths, values, opens = (column[: self._lines] for column in self._columns)
        firsts = np.append(np.flatnonzero(opens), self._lines).astype(np.int64)
        held = size + sum(column.itemsize * self._lines for column in self._columns)
        return Kept(buffer, fields.raw_words(buffer), doc_starts, doc_lengths, values, firsts,
                    held)  # fmt: skip


def _stop(buffer: Bytes, got: int, final: bool) -> int:
    """Where the complete lines of `buffer[:got]` end (0: none); the file's last line given a
    newline when it has none."""
    if not final:  # (the last newline: looked for in the chunk's tail first)
        for first in (max(got - 4096, 0), 0):
            newlines = np.flatnonzero(buffer[first:got] == NEWLINE)
            if len(newlines):
                return first + int(newlines[-1]) + 1
        return 0
    if got and buffer[got - 1] != NEWLINE:
        buffer[got] = NEWLINE
        return got + 1
    return got


def _tag(data: Bytes, bounds: Ints, count: int, tag: bytes | None) -> bytes | None:
    """A run's last line's run id so far."""
    if count != RUN_FIELDS or len(bounds) == 0:
        return tag
    return fields.text(data, int(bounds[-1, 4]) + 1, int(bounds[-1, 5] - bounds[-1, 4] - 1))


def _groups(data: Bytes, raw: Words, bounds: Ints, base: int, ids: list[bytes],
            starts: list[int]) -> fields.Bools:  # fmt: skip
    """The groups of the lines `bounds` of `data` (the chunk at `base`) added to ids and starts,
    a first group of the last topic before continuing its group; which lines open a group."""
    opens = np.zeros(len(bounds), dtype=bool)
    if len(bounds) == 0:
        return opens
    line_starts, lengths = fields.field(bounds, 0)
    keys = fields.words(raw, line_starts, lengths, order=False)
    change = np.ones(len(keys[0]), dtype=bool)
    change[1:] = ~fields.same_rows([k[1:] for k in keys], [k[:-1] for k in keys])
    for line in np.flatnonzero(change).tolist():
        start, length = int(line_starts[line]), int(lengths[line])
        topic = data[start : start + length].tobytes()
        if not ids or line > 0 or ids[-1] != topic:
            ids.append(topic)
            starts.append(base + start)
            opens[line] = True
    return opens


def join(qrels: Index, run: Index) -> Joined:
    """The two files' groups in trec_eval's order (`Joined`)."""
    grouped = len(set(qrels.ids)) == len(qrels.ids) and len(set(run.ids)) == len(run.ids)
    known = set(qrels.ids)
    unknown = sorted({t for t in run.ids if t not in known})
    if not grouped:
        return Joined([], [], unknown, False)
    order = sorted(range(len(qrels.ids)), key=qrels.ids.__getitem__)
    at = {topic: i for i, topic in enumerate(run.ids)}
    match = [at.get(qrels.ids[i], -1) for i in order]
    return Joined(order, match, unknown, True)
