"""The numpy pass's first look at a file, a chunk at a time: every line plain, and where each
topic's group of lines lies (the C part's `index_groups`, kernel/_kernel_groups.c); then the two
files' groups joined in trec_eval's order (`join`).

The look keeps no line: per group its topic id (bytes) and where it starts in the file; for a
run, the last line's run id.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from io import FileIO

import numpy as np

from focal.evaluation.measures.trec_eval.numpy_pass import fields
from focal.evaluation.measures.trec_eval.numpy_pass.fields import NEWLINE, PAD, Bytes, Ints, Words
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Changed, Lines, read_lines

QRELS_FIELDS, RUN_FIELDS = 4, 6
CHUNK = 1 << 22  # bytes read at a time: 4 MiB measured faster than 1 (fewer array calls)


@dataclass(frozen=True)
class Index:
    """A file's topic groups in file order (`ids[i]` starts at `starts[i]`, ends where the next
    starts or at the file's end), its run id (a run), and its identity when read. A file read
    whole in one chunk keeps its lines, read once (a small file's second reading cost as much
    as its evaluation)."""

    ids: list[bytes]
    starts: list[int]
    tag: bytes | None
    identity: tuple[int, int, int, int]
    kept: tuple[Lines, Ints] | None = None  # a file read in one chunk: its lines and bounds


@dataclass(frozen=True)
class Joined:
    """The qrels groups in their ids' byte order (`order`), each one's run group or -1
    (`match`), the run topics the qrels lack (byte order), and whether both files are grouped
    (no id in two groups; otherwise order and match are empty)."""

    order: list[int]
    match: list[int]
    unknown: list[bytes]
    grouped: bool


def identity(stream: FileIO) -> tuple[int, int, int, int]:
    """An open file's size, modification time, device and inode (`plain_pass`'s check that a
    file stays as it was while it is read)."""
    status = os.fstat(stream.fileno())
    return status.st_size, status.st_mtime_ns, status.st_dev, status.st_ino


def look(path: str, count: int) -> Index | None:
    """The first look at a file of `count` fields a line; None when a line is not plain, the
    file is empty or not a readable regular file."""
    try:
        stream = open(path, "rb", buffering=0)  # noqa: SIM115 (closed below)
    except OSError:
        return None
    with stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode) or status.st_size == 0:
            return None
        size = status.st_size
        buffer = np.zeros(min(CHUNK, size) + 1 + PAD, dtype=np.uint8)
        ids: list[bytes] = []
        starts: list[int] = []
        tag: bytes | None = None
        base = 0
        while base < size:
            room = len(buffer) - 1 - PAD
            got = stream.readinto(buffer.data[:room])
            final = not got or base + got >= size
            stop = got
            if not final:
                newlines = np.flatnonzero(buffer[:got] == NEWLINE)
                stop = int(newlines[-1]) + 1 if len(newlines) else 0
                if stop == 0:  # a line longer than the buffer
                    buffer = np.zeros(2 * len(buffer), dtype=np.uint8)
                    stream.seek(base)
                    continue
            elif got and buffer[got - 1] != NEWLINE:
                buffer[got] = NEWLINE
                stop = got + 1
            buffer[stop : stop + PAD] = 0
            try:
                lines, bounds = read_lines(buffer, stop, count, strict=True)
            except Changed:  # (here: a line not plain)
                return None
            _groups(buffer, lines.raw, bounds, base, ids, starts)
            if count == RUN_FIELDS and len(bounds):
                tag = fields.text(buffer, int(bounds[-1, 4]) + 1,
                                  int(bounds[-1, 5] - bounds[-1, 4] - 1))  # fmt: skip
            if final:
                kept = (lines, bounds) if base == 0 else None
                return Index(ids, starts, tag, identity(stream), kept)
            base += stop
            stream.seek(base)
        return Index(ids, starts, tag, identity(stream))


def _groups(data: Bytes, raw: Words, bounds: Ints, base: int, ids: list[bytes],
            starts: list[int]) -> None:  # fmt: skip
    """The groups of the lines `bounds` of `data` (the chunk at `base`) added to ids and starts,
    a first group of the last topic before continuing its group."""
    if len(bounds) == 0:
        return
    line_starts, lengths = fields.field(bounds, 0)
    keys = fields.words(raw, line_starts, lengths)
    change = np.ones(len(keys[0]), dtype=bool)
    change[1:] = ~fields.same_rows([k[1:] for k in keys], [k[:-1] for k in keys])
    for line in np.flatnonzero(change).tolist():
        start, length = int(line_starts[line]), int(lengths[line])
        topic = data[start : start + length].tobytes()
        if not ids or line > 0 or ids[-1] != topic:
            ids.append(topic)
            starts.append(base + start)


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
