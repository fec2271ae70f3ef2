"""The whole-file pass's topic index sorted outside memory, for files of more topics than it
should hold (`engine/plain_pass.py`; docs/trec_eval.md, "The C part").

The pass evaluates the qrels topics in trec_eval's order (their ids' byte order), so it needs,
per topic, where its group of lines lies in each file. Up to `SPILL` groups a file, that index
stays in memory (`plain_pass._index`, then `join_groups` in C). Beyond, the first look hands
each full batch of groups to `Runs.write`: sorted by id in C (`sort_groups`, equal ids in file
order) and written as one sorted run to a temporary file. `merge` then reads `RUN_BUFFER` bytes
of each run at a time and merges all runs of both files in byte order, joining qrels topics to
run topics as it goes (`merge_join` in C): it finds, as `join_groups` does, a file that is not
grouped (an id in two groups) and the run topics the qrels lack, and writes each qrels topic's
byte ranges (qrels group, run group or none: four int64) to a second temporary file, which
`Joined.ranges` streams back. Memory then holds a batch, or a buffer per run, whatever the
number of topics. The temporary files are the system's anonymous ones (`tempfile.TemporaryFile`,
in the default temporary folder): gone when closed, and closed when the merge or the
evaluation ends, also on an error or a stop.
"""

from __future__ import annotations

import os
import stat
import sys
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from io import FileIO
from typing import IO, Any

# topic groups a file's first look holds before it writes them as a sorted run (about 20 bytes
# a group while held, 8 more while sorted), and bytes of each run the merge reads at a time:
# measured on 1,000,000 topics x 100 (a run per 2**15 groups: 31 runs a file), 2**15 and 2**15
# took the least memory at the same time (19 MiB; 2**16 and 2**16: 21 MiB; 2**14 and 2**14: 18
# MiB but 10% more CPU, 61 runs a file to merge; 2**18 groups: 36 MiB)
SPILL = 1 << 15
RUN_BUFFER = 1 << 15
JOINED = 1 << 12  # joined topics read back at a time
HEAD = 20  # a run record's fixed part (kernel/_kernel_merge.c): start, end, id size
Ranges = tuple[int, int, int, int]  # a topic's qrels group, its run group (-1, -1: none)


class Runs:
    """Sorted runs of the groups of both files (0: the qrels, 1: the run) in one temporary
    file, opened at the first write. A write that fails (no temporary folder, a full disk) is
    kept in `failure` (why, for trec_eval's message) and later writes are dropped: the first
    look goes on, so that a file not plain still goes to the numpy engine."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.file: IO[bytes] | None = None
        self.runs: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self.failure: str | None = None
        self._size = 0

    def write(self, which: int, ids: Any, ends: Any, starts: Any, end: int) -> None:
        """A batch of file `which`'s groups (`plain_pass._index`'s arrays; the last group
        ends at `end`) written as one sorted run."""
        if self.failure is not None:
            return
        records = self.kernel.sort_groups(ids, ends, starts, end)
        try:
            if self.file is None:
                self.file = _temporary()  # (closed by close())
            self.file.write(records)
        except OSError as error:
            self.failure = why(error)
            self.close()
            return
        self.runs[which].append((self._size, len(records)))
        self._size += len(records)

    def spilled(self, which: int) -> bool:
        return bool(self.runs[which]) or self.failure is not None

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class Joined:
    """The qrels topics joined to the run's in byte order, from a merge (`merge`): their
    ranges in a temporary file (when `grouped`), the run topics the qrels lack."""

    def __init__(self, file: IO[bytes] | None, unknown: list[bytes], grouped: bool) -> None:
        self.file, self.unknown, self.grouped = file, unknown, grouped

    def ranges(self) -> Iterator[Ranges]:
        """Each qrels topic's ranges, in byte order, `JOINED` topics read at a time; the file
        is closed when they are all read (or the caller stops)."""
        if self.file is None:
            return
        try:
            self.file.seek(0)
            while chunk := self.file.read(32 * JOINED):
                values = array("q")
                values.frombytes(chunk)
                yield from zip(values[0::4], values[1::4], values[2::4], values[3::4],
                               strict=True)  # fmt: skip
        finally:
            self.close()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class _Reader:
    """One sorted run read a buffer at a time: `buffer` its next bytes, `final` when they are
    its rest."""

    def __init__(self, file: IO[bytes], start: int, size: int) -> None:
        self.file, self.at, self.end = file, start, start + size
        self.buffer = bytearray()
        self.fill()

    @property
    def final(self) -> bool:
        return self.at >= self.end

    def fill(self) -> None:
        """More bytes, until the buffer holds a whole record (or the run's rest)."""
        while not self.final and not _whole(self.buffer):
            self.file.seek(self.at)
            got = self.file.read(min(RUN_BUFFER, self.end - self.at))
            if not got:  # (our own file, shorter than written)
                raise OSError("the topic index's temporary file was cut short")
            self.buffer += got
            self.at += len(got)


def why(error: OSError) -> str:
    """What went wrong with a temporary file, for trec_eval's message."""
    if error.strerror and error.filename:
        return f"{error.strerror}: {error.filename}"
    return error.strerror or str(error)


def _temporary() -> IO[bytes]:
    """A new anonymous temporary file (tempfile imported here: it costs a few milliseconds,
    more than the rest of a small call's first look, which never needs it)."""
    import tempfile

    return tempfile.TemporaryFile()


def _whole(buffer: bytearray) -> bool:
    """Whether the buffer starts with a whole record."""
    if len(buffer) < HEAD:
        return False
    return len(buffer) - HEAD >= int.from_bytes(buffer[16:HEAD], sys.byteorder, signed=True)


def merge(runs: Runs) -> Joined:
    """The runs of both files merged and joined (`merge_join` in C), their runs' file closed
    on the way out. Raises OSError when the joined topics cannot be written."""
    assert runs.file is not None  # (the caller checked runs.spilled)
    joined = None
    try:
        joined = _temporary()
        readers = [[_Reader(runs.file, *run) for run in runs.runs[which]] for which in (0, 1)]
        every = readers[0] + readers[1]
        lasts: tuple[bytes | None, bytes | None] = (None, None)
        unknown: list[bytes] = []
        repeated = False
        while True:
            answer = runs.kernel.merge_join(
                [(r.buffer, r.final) for r in readers[0]],
                [(r.buffer, r.final) for r in readers[1]], *lasts,
            )  # fmt: skip
            out, names, q_used, r_used, twice, *last = answer
            lasts = (last[0], last[1])
            unknown += names
            repeated = repeated or twice
            if not repeated:
                joined.write(out)
            for reader, used in zip(every, q_used + r_used, strict=True):
                del reader.buffer[:used]
                reader.fill()
            if all(reader.final and not reader.buffer for reader in every):
                break
        if repeated:  # (not grouped: the caller reads the files whole)
            joined.close()
        return Joined(None if repeated else joined, unknown, not repeated)
    except BaseException:
        if joined is not None:
            joined.close()
        raise
    finally:
        runs.close()


class InMemory:
    """The qrels topics joined to the run's in byte order from the index held in memory
    (`join_groups`' answer: the qrels groups in byte order, the run group of each) and each
    file's group starts and size: the same `ranges`, `unknown` and `grouped` as `Joined`."""

    def __init__(self, joined: tuple[Any, ...], starts: tuple[Any, Any],
                 sizes: tuple[int, int]) -> None:  # fmt: skip
        order, match, self.unknown, self.grouped = joined
        self._order, self._match = memoryview(order).cast("i"), memoryview(match).cast("i")
        self._starts, self._sizes = starts, sizes

    def ranges(self) -> Iterator[Ranges]:
        (q_starts, r_starts), (q_size, r_size) = self._starts, self._sizes
        q_count, r_count = len(q_starts), len(r_starts)
        for group, answer in zip(self._order, self._match, strict=True):
            end = q_starts[group + 1] if group + 1 < q_count else q_size
            if answer < 0:
                yield q_starts[group], end, -1, -1
            else:
                answer_end = r_starts[answer + 1] if answer + 1 < r_count else r_size
                yield q_starts[group], end, r_starts[answer], answer_end

    def close(self) -> None:
        """(Nothing to close: the `Joined` protocol.)"""


@dataclass(frozen=True)
class Index:
    """A file's topic groups in file order: their ids (concatenated, the i-th ending at
    `ends[i]`), where each starts (`starts[i]`; it ends where the next starts, the last at the
    file's end), the last line's run id (a run), and the file's identity when it was read
    (`identity`)."""

    ids: bytearray
    ends: array[int]
    starts: array[int]
    tag: bytes | None
    identity: tuple[int, int, int, int]


def first_look(path: str, fields: int, kernel: Any, runs: Runs, which: int, chunk: int
               ) -> Index | None:  # fmt: skip
    """The first look at a file: its topic groups, or None when a line is not plain, the file
    is empty or not a readable regular file; read `chunk` bytes at a time. Beyond `SPILL`
    groups, each batch of groups goes to `runs` as a sorted run (file `which`), and so does the
    last: the index answered is then empty (its file's identity and run id only)."""
    ids, ends, starts = bytearray(), array("i"), array("q")  # (ends: 32 bits, the C part's)
    tag: bytes | None = None
    previous: bytes | None = None
    opened = open_regular(path)
    if opened is None:
        return None
    stream, size = opened
    with stream:
        known = identity(stream)
        buffer, base = bytearray(min(chunk, size)), 0
        while base < size:
            with memoryview(buffer) as view:
                got = stream.readinto(view)
                final = base + got >= size or not got
                answer = kernel.index_groups(view[:got], fields, final, base, len(ids), previous)
            if answer is None:
                return None
            consumed, chunk_ids, chunk_ends, chunk_starts, last_tag = answer
            if chunk_ids:
                ids += chunk_ids
                ends.frombytes(chunk_ends)
                starts.frombytes(chunk_starts)
                previous = bytes(ids[ends[-2] if len(ends) > 1 else 0 :])
            tag = last_tag if last_tag is not None else tag
            if len(ends) > SPILL:  # all but the last group (its end is not known)
                cut, kept = ends[-2], len(ends) - 1
                runs.write(which, ids[:cut], ends[:kept], starts[:kept], starts[kept])
                del ids[:cut]
                ends, starts = array("i", [ends[kept] - cut]), starts[kept:]
            if final:
                break
            if consumed == 0:  # a line longer than the buffer
                buffer.extend(bytes(len(buffer)))
            base += consumed
            stream.seek(base)
    if runs.spilled(which):
        runs.write(which, ids, ends, starts, size)
        ids, ends, starts = bytearray(), array("i"), array("q")
    return Index(ids, ends, starts, tag, known)


def open_regular(path: str) -> tuple[FileIO, int] | None:
    """`path` opened for reading without a buffer, and its size; None (nothing left open) when
    it cannot be opened, is not a regular file or is empty: the whole-file passes (C and numpy)
    leave such a file to the numpy engine, which names what is wrong. The file is looked at
    (`stat`, which never blocks) before it is opened, as `formats.source.check_regular_file`
    does: opening a FIFO would wait for a writer forever."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        stream = open(path, "rb", buffering=0)  # noqa: SIM115 (the caller closes it)
    except OSError:
        return None
    status = os.fstat(stream.fileno())
    if not stat.S_ISREG(status.st_mode) or status.st_size == 0:
        stream.close()
        return None
    return stream, status.st_size


def identity(stream: Any) -> tuple[int, int, int, int]:
    """An open file's size, modification time, device and inode: the same while the pass reads
    it, or the file changed under the pass."""
    status = os.fstat(stream.fileno())
    return status.st_size, status.st_mtime_ns, status.st_dev, status.st_ino
