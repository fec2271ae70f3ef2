"""The numpy pass's first look at a file, a chunk at a time: every line plain, and where each
topic's group of lines lies (`joined.Topics`; the C part's `index_groups`,
kernel/_kernel_groups.c).

The file is read a chunk at a time into one buffer, reused chunk after chunk (memory written
for the first time costs more than the reading: about 3.5 µs a page on the benchmarks' machine).
A file within the memory budget (`KEEP` bytes of kept lines) has its lines kept (`Kept`): per
line its document id's words and its grade or score, so that the blocks are slices of them, not
a second reading and parse. Beyond the budget the look keeps no line: per group its topic
id's words and where it starts in the file, and the blocks are read again (docs/performance.md,
"The numpy pass"). For a run, the last line's run id.
"""

from __future__ import annotations

from io import FileIO
from typing import TYPE_CHECKING, Any

import numpy as np

from focal.evaluation.measures.trec_eval.engine.topic_index import identity, open_regular
from focal.evaluation.measures.trec_eval.numpy_pass import fields
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD
from focal.evaluation.measures.trec_eval.numpy_pass.joined import TopicParts, Topics
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Changed, Lines, read_lines

if TYPE_CHECKING:
    import numpy.typing as npt

    from focal.evaluation.measures.trec_eval.numpy_pass.fields import Bytes, Columns, Ints, Words

QRELS_FIELDS, RUN_FIELDS = 4, 6
CHUNK = 3 << 18  # bytes looked at a time: a chunk's temporaries stay in the cache (and in the
# heap, reused chunk after chunk): 768 KiB measured faster than 256 KiB to 4 MiB on 3 MB and 85 MB
# bytes of kept lines held for both files (`Kept`): 2,000,000 qrels lines of ids up to 16 bytes
# take about 34 MiB, a run's 1,000,000 lines 24 MiB; above it a file is read twice, as the C
# pass reads it
KEEP = 256 << 20


class Kept:
    """A file's lines, kept from the first look: per line its document id's words (`docs`:
    `topics.Lines`') and its grade or score, `firsts[g]` group g's first line (and `firsts[-1]`
    the lines' count); `size` the bytes held."""

    __slots__ = ("docs", "firsts", "size", "values")

    def __init__(self, docs: Columns, values: fields.Grades | fields.Floats, firsts: Ints,
                 size: int) -> None:  # fmt: skip
        self.docs, self.values, self.firsts, self.size = docs, values, firsts, size


class Index:
    """A file's topic groups in file order (`Topics`: group i ends where the next starts or
    at the file's end), its run id (a run), its identity when read, and its lines when they
    fit in the budget (`Kept`)."""

    __slots__ = ("identity", "kept", "tag", "topics")

    def __init__(self, topics: Topics, tag: bytes | None, identity: tuple[int, int, int, int],
                 kept: Kept | None = None) -> None:  # fmt: skip
        self.topics, self.tag, self.identity, self.kept = topics, tag, identity, kept


def look(path: str, count: int, budget: int = KEEP) -> Index | None:
    """The first look at a file of `count` fields a line, its lines kept when the file takes
    at most `budget` bytes and they do too; None when a line is not plain, the file is empty or
    not a readable regular file."""
    opened = open_regular(path)
    if opened is None:
        return None
    stream, size = opened
    with stream:
        return _read(stream, size, count, _Keeper(budget, size) if size <= budget else None)


def _read(stream: FileIO, size: int, count: int, keeper: _Keeper | None) -> Index | None:
    """The look, a chunk read at a time into one buffer: the line a chunk ends inside of is
    moved to the buffer's start and completed by the next chunk; a line longer than the buffer
    doubles it. The file is read up to the size it had when opened (shorter: what there is)."""
    buffer = np.zeros(min(CHUNK, size) + 1 + PAD, dtype=np.uint8)
    topics = TopicParts()
    tag: bytes | None = None
    base = held = 0  # where buffer[0] lies in the file; the bytes of a line begun there
    while True:
        wanted = min(len(buffer) - 1 - PAD, size - base)  # (held of them there already)
        got = _fill(stream, buffer, held, wanted)
        final = got < wanted or base + got >= size
        buffer[got : got + 1 + PAD] = 0
        stop = _stop(buffer, got, final)
        if stop == 0:
            if final:
                break
            grown = np.zeros(2 * len(buffer), dtype=np.uint8)  # a line longer than the buffer
            grown[:got] = buffer[:got]
            buffer, held = grown, got
            continue
        try:
            lines, bounds = read_lines(buffer, stop, count, strict=True, ids=keeper is not None)
        except Changed:  # (here: a line not plain)
            return None
        opens = _groups(fields.raw_words(buffer[: stop + PAD]), bounds, base, topics)
        tag = _tag(buffer, bounds, count, tag)
        if keeper is not None and not keeper.add(lines, opens, base + stop):
            keeper = None
        if final:
            break
        held = got - stop
        buffer[:held] = buffer[stop:got]
        base += stop
    kept = None if keeper is None else keeper.kept()
    return Index(topics.topics(), tag, identity(stream), kept)


def _fill(stream: FileIO, buffer: Bytes, read: int, wanted: int) -> int:
    """The file read on into `buffer` from byte `read` up to `wanted`, or to its end: where the
    bytes read end now."""
    while read < wanted:
        got = stream.readinto(buffer.data[read:wanted])
        if not got:
            break
        read += got
    return read


class _Keeper:
    """A file's lines as the look reads them (`Kept`), written chunk after chunk into arrays
    sized from the lines a byte read so far (a tenth more), grown when short: written once
    rather than kept in parts and joined (19,000 page faults instead of 35,000 on 3,000,000
    lines), a grown array's unwritten part left untouched. An id column that a later chunk
    brings (a longer id) is zero for the lines before; grades take the narrowest dtype they
    need so far (`_narrow`)."""

    def __init__(self, room: int, size: int) -> None:
        self._room, self._size = room, size
        self._docs: list[Words] = []
        self._values: npt.NDArray[Any] | None = None
        self._opens: list[Ints] = []  # per chunk, the lines opening a group (of all the lines)
        self._lines = self._groups = 0

    def add(self, lines: Lines, opens: Ints, done: int) -> bool:
        """A chunk's lines and which of them open a group, the file read up to `done` bytes;
        False once the lines take more than the room (nothing is kept then)."""
        count, at = len(lines.codes), self._lines
        self._groups += len(opens)
        kind = _narrow(lines.values)
        if self._values is not None:
            kind = np.promote_types(self._values.dtype, kind)
        width = max(len(self._docs), len(lines.docs))
        if _held(at + count, width, kind.itemsize, self._groups + 1) > self._room:
            self._docs, self._values = [], None
            return False
        capacity = 0 if self._values is None else len(self._values)
        if at + count > capacity:
            capacity = max(int((at + count) * self._size / done * 1.1) + 64, 2 * capacity)
        self._values = _placed(self._values, lines.values, kind, capacity, (at, count))
        self._docs = [_placed(self._docs[k] if k < len(self._docs) else None,
                              lines.docs[k] if k < len(lines.docs) else 0, np.dtype(np.uint64),
                              capacity, (at, count))
                      for k in range(width)]  # fmt: skip
        self._opens.append(opens + at)
        self._lines += count
        return True

    def kept(self) -> Kept:
        """The lines kept (`Kept`)."""
        lines = self._lines
        values = np.zeros(0, dtype=np.int64) if self._values is None else self._values[:lines]
        docs = [column[:lines] for column in self._docs]
        firsts = np.concatenate([*self._opens, [lines]]).astype(np.int64, copy=False)
        return Kept(docs, values, firsts, _held(lines, len(docs), values.itemsize, len(firsts)))


def _held(lines: int, words: int, value_size: int, firsts: int) -> int:
    """The bytes kept lines hold: per line its id's words and its value, per group its first
    line (and the lines' count)."""
    return lines * (8 * words + value_size) + 8 * firsts


def _placed(column: npt.NDArray[Any] | None, part: npt.NDArray[Any] | int, kind: np.dtype[Any],
            capacity: int, where: tuple[int, int]) -> npt.NDArray[Any]:  # fmt: skip
    """`column` (None: a new one, zero before `at`) with `part` (an array, or 0 for every
    line) written to its `count` lines from `at` (`where`), grown to `capacity` or widened to
    `kind` first when it is not so already."""
    at, count = where
    if column is None:
        column = np.zeros(capacity, kind)
    elif len(column) != capacity or column.dtype != kind:
        grown = np.empty(capacity, kind)
        grown[:at] = column[:at]
        column = grown
    column[at : at + count] = part
    return column


def _narrow(array: npt.NDArray[Any]) -> np.dtype[Any]:
    """The dtype a kept column needs for a chunk's `array`: integers (grades) in the fewest
    bytes that hold them (one for most grades: fewer pages to touch), scores as they are."""
    if array.dtype.kind not in "iu" or len(array) == 0:
        return array.dtype
    low, high = int(array.min()), int(array.max())
    # (a signed dtype holding -high - 1 holds high: [-1, 2] in one byte, not two)
    return np.promote_types(np.min_scalar_type(low),
                            np.min_scalar_type(-high - 1 if low < 0 <= high else high))  # fmt: skip


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


def _groups(raw: Words, bounds: Ints, base: int, topics: TopicParts) -> Ints:
    """The groups of the lines `bounds` (of the chunk at `base`, `raw` its words) added to
    `topics`, a first group of the last topic before continuing its group; the lines that open
    a group. (A topic changes where a line's first field's words differ from the line before's.)"""
    if len(bounds) == 0:
        return np.zeros(0, dtype=np.int64)
    line_starts, lengths = fields.field(bounds, 0)
    keys = fields.words(raw, line_starts, lengths, order=False)
    change = np.empty(len(bounds), dtype=bool)
    change[0] = True
    np.not_equal(keys[0][1:], keys[0][:-1], out=change[1:])
    for key in keys[1:]:
        change[1:] |= key[1:] != key[:-1]
    lines = np.flatnonzero(change)
    if topics.last is not None and fields.texts(keys, lines[:1])[0] == topics.last:
        lines = lines[1:]  # (the chunk's first line continues the last group)
    topics.add([key[lines] for key in keys], line_starts[lines] + base)
    return lines
