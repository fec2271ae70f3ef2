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
from typing import TYPE_CHECKING, Any

import numpy as np

from focal.evaluation.measures.trec_eval.engine.topic_index import identity, open_regular
from focal.evaluation.measures.trec_eval.numpy_pass import fields
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Changed, read_lines

if TYPE_CHECKING:
    import numpy.typing as npt

    from focal.evaluation.measures.trec_eval.numpy_pass.fields import Bytes, Ints, Words

QRELS_FIELDS, RUN_FIELDS = 4, 6
CHUNK = 3 << 18  # bytes looked at a time: a chunk's temporaries stay in the cache (and in the
# heap, reused chunk after chunk): 768 KiB measured faster than 256 KiB to 4 MiB on 3 MB and 85 MB
# bytes of files and kept lines held for both files (`Kept`): 2,000,000 qrels lines take about
# 59 MiB, a run's 1,000,000 lines 48 MiB; above it a file is read twice, as the C pass reads it
KEEP = 256 << 20


class Kept:
    """A file's lines, kept from the first look: its bytes (`data`, `raw`: `topics.Lines`'),
    per line its document id's start and length and its grade or score, `firsts[g]` group g's
    first line (and `firsts[-1]` the lines' count); `size` the bytes held."""

    __slots__ = ("data", "doc_lengths", "doc_starts", "firsts", "raw", "size", "values")

    def __init__(self, data: Bytes, raw: Words, doc_starts: fields.Positions,
                 doc_lengths: fields.Positions, values: fields.Grades | fields.Floats,
                 firsts: Ints, size: int) -> None:  # fmt: skip
        self.data, self.raw, self.doc_starts, self.doc_lengths = data, raw, doc_starts, doc_lengths
        self.values, self.firsts, self.size = values, firsts, size


class Index:
    """A file's topic groups in file order (`ids[i]` starts at `starts[i]`, ends where the next
    starts or at the file's end), its run id (a run), its identity when read, and its lines
    when they fit in the budget (`Kept`)."""

    __slots__ = ("identity", "ids", "kept", "starts", "tag")

    def __init__(self, ids: list[bytes], starts: list[int], tag: bytes | None,
                 identity: tuple[int, int, int, int],
                 kept: Kept | None = None) -> None:  # fmt: skip
        self.ids, self.starts, self.tag, self.identity, self.kept = ids, starts, tag, identity, kept


class Joined:
    """The qrels groups in their ids' byte order (`order`), each one's run group or -1
    (`match`), the run topics the qrels lack (byte order), and whether both files are grouped
    (no id in two groups; otherwise order and match are empty)."""

    __slots__ = ("grouped", "match", "order", "unknown")

    def __init__(self, order: list[int], match: list[int], unknown: list[bytes],
                 grouped: bool) -> None:  # fmt: skip
        self.order, self.match, self.unknown, self.grouped = order, match, unknown, grouped


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
        _groups(lines.raw, bounds, base, ids, starts)
        tag = _tag(buffer, bounds, count, tag)
        if final:
            break
        base += stop
        stream.seek(base)
    return Index(ids, starts, tag, identity(stream))


def _whole(stream: FileIO, size: int, count: int, budget: int) -> Index | None:
    """The look at a file read whole into one buffer, a chunk at a time, each chunk looked at
    as it is read (its bytes still in the cache); its lines kept while they and the file's
    bytes fit in `budget`."""
    buffer = np.zeros(-(-(size + 1 + PAD) // 8) * 8, dtype=np.uint8)  # (whole words)
    ids: list[bytes] = []
    starts: list[int] = []
    tag: bytes | None = None
    keeper = _Keeper(budget - size, size)
    read, ended = 0, size == 0
    base, chunk = 0, CHUNK
    while True:
        if not ended:
            wanted = min(base + chunk, size)
            read = _fill(stream, buffer, read, wanted)
            ended = read < wanted or read >= size  # (shorter than it was: what there is)
        if base >= read:
            break
        window = buffer[base:]
        got = min(chunk, read - base)
        final = ended and base + got >= read
        stop = _stop(window, got, final)
        if stop == 0 and not final:  # a line longer than the chunk
            chunk *= 2
            continue
        try:
            lines, bounds = read_lines(window, stop, count, strict=True)
        except Changed:  # (here: a line not plain)
            return None
        opens = _groups(lines.raw, bounds, base, ids, starts)
        tag = _tag(window, bounds, count, tag)
        keeper.add((lines.doc_starts + base, lines.doc_lengths, lines.values), opens, base + stop)
        base += stop
    return Index(ids, starts, tag, identity(stream), keeper.kept(buffer, read))


def _fill(stream: FileIO, buffer: Bytes, read: int, wanted: int) -> int:
    """The file read into `buffer` from byte `read` up to `wanted`, or to its end: where the
    bytes read end now."""
    while read < wanted:
        got = stream.readinto(buffer.data[read:wanted])
        if not got:
            break
        read += got
    return read


class _Keeper:
    """A file's lines as the look reads them, written chunk after chunk into arrays sized from
    the lines a byte read so far (a tenth more), grown when short: written once rather than kept
    in parts and joined (19,000 page faults instead of 35,000 on 3,000,000 lines), a grown
    array's unwritten part left untouched, each in the narrowest dtype its values need so far
    (`_narrow`); and the lines opening a group. None once they take more than `room` bytes."""

    def __init__(self, room: int, size: int) -> None:
        self._room, self._size = room, size
        self._columns: list[npt.NDArray[Any]] | None = []  # doc starts, lengths, values
        self._opens: list[Ints] = []  # per chunk, the lines opening a group (of all the lines)
        self._lines = self._groups = 0

    def add(self, part: tuple[npt.NDArray[Any], ...], opens: Ints, done: int) -> None:
        """A chunk's lines (`part`: `_columns`' arrays) and which of them open a group, the
        file read up to `done` bytes."""
        if self._columns is None:
            return
        count, lines = len(part[0]), self._lines
        self._groups += len(opens)
        columns = self._columns or [np.empty(0, _narrow(array)) for array in part]
        kinds = [np.promote_types(column.dtype, _narrow(array))
                 for column, array in zip(columns, part, strict=True)]  # fmt: skip
        held = (lines + count) * sum(kind.itemsize for kind in kinds) + 8 * (self._groups + 1)
        if held > self._room:
            self._columns = None
            return
        capacity = len(columns[0])
        if lines + count > capacity:
            capacity = max(int((lines + count) * self._size / done * 1.1) + 64, 2 * capacity)
        for i, (kind, array) in enumerate(zip(kinds, part, strict=True)):
            if len(columns[i]) != capacity or columns[i].dtype != kind:  # grown, or widened
                grown = np.empty(capacity, kind)
                grown[:lines] = columns[i][:lines]
                columns[i] = grown
            columns[i][lines : lines + count] = array
        self._columns = columns
        self._opens.append(opens + lines)
        self._lines += count

    def kept(self, buffer: Bytes, size: int) -> Kept | None:
        """The lines kept (`Kept`), or None."""
        if self._columns is None:
            return None
        doc_starts, doc_lengths, values = (column[: self._lines] for column in self._columns)
        firsts = np.concatenate([*self._opens, [self._lines]]).astype(np.int64, copy=False)
        held = size + sum(column.itemsize * self._lines for column in self._columns)
        return Kept(buffer, fields.raw_words(buffer), doc_starts, doc_lengths, values, firsts,
                    held + 8 * len(firsts))  # fmt: skip


def _narrow(array: npt.NDArray[Any]) -> np.dtype[Any]:
    """The dtype a kept column needs for a chunk's `array`: integers (byte positions, lengths,
    grades) in the fewest bytes that hold them (one for most lengths and grades, four for the
    positions in a file below 4 GiB: fewer pages to touch), scores as they are."""
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


def _groups(raw: Words, bounds: Ints, base: int, ids: list[bytes], starts: list[int]) -> Ints:
    """The groups of the lines `bounds` (of the chunk at `base`, `raw` its words) added to ids
    and starts, a first group of the last topic before continuing its group; the lines that
    open a group. (A topic changes where a line's first field's words differ from the line
    before's; the ids are read from the words of those lines alone.)"""
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
    topics = fields.texts(keys, lines)
    if ids and ids[-1] == topics[0]:  # the chunk's first line continues the last group
        lines, topics = lines[1:], topics[1:]
    ids.extend(topics)
    starts.extend((line_starts[lines] + base).tolist())
    return lines


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
