"""Plain TREC runs and qrels read by the article engine's C readers (`_article_kernel.c`).

A file whose every line is six fields (a run) or four (qrels) of printable ASCII but `#`, one
space apart, with a plain decimal score or an integer grade (and, for a run, topics the qrels
know) is read in one pass straight into the engine's columns: no Arrow table, no Python object
per line. Any other file gets None, and the caller reads it with pyarrow or line by line
(`formats/trec.py`, `formats/trec_batches.py`), which name what is wrong: these readers take
only files those readers take, and give the same columns (tests/evaluation/measures/engines/
test_plain_files.py compares them on random files). docs/trec_eval.md, "Reading". Without the
compiled module (`kernel.compiled()` is None) every file gets None: the others read them all.

Qrels are read ahead. An article evaluation spends its first tenth of a second importing
numpy, pyarrow and the engines, on one core, and the C reader of qrels runs without the GIL:
`start_qrels` hands it the file on a thread as soon as the command knows the path, and
`plain_qrels` takes the result (a `QrelsAhead`, handed on by the caller: this module keeps no
reading of its own) when the engine asks for the qrels (docs/performance.md). So this module
imports nothing heavy until a run is read: starting costs nothing.
"""

from __future__ import annotations

import mmap
import os
import threading
from typing import TYPE_CHECKING, Any

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.source import check_regular_file
from focal.evaluation.measures.trec_eval.kernel import compiled

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from focal.evaluation.measures.trec_eval.engine.keys import PairIndex

PlainQrels = tuple[int, bytes, list[bytes], bytes, bytes, bytes]
PlainRun = tuple[str, "npt.NDArray[Any]", Any, "npt.NDArray[np.float64]"]  # codes: int32
PLAIN_BLOCK = 4 << 20  # bytes of a run file `plain_run` reads at a time
# the file's pages mapped at once (Linux's MAP_POPULATE), rather than one fault at a time
POPULATE = getattr(mmap, "MAP_POPULATE", 0)


class QrelsAhead:
    """A reading of a qrels file begun on a thread (`start_qrels`), with the file's identity
    (size, time, inode) when it began: a value its caller hands to `plain_qrels`."""

    def __init__(self, path: str) -> None:
        self.path, self.identity = path, _identity(path)
        self._answer: list[PlainQrels | None] = []
        self._thread = threading.Thread(
            target=lambda: self._answer.append(parse_qrels(path)), daemon=True,
            name="focal-qrels-ahead",
        )  # fmt: skip
        self._thread.start()

    def read(self, path: str) -> bool:
        """Whether the reading is done, of `path`, not yet taken, and the file unchanged since
        (`take`)."""
        self._thread.join()
        same = path == self.path and self.identity is not None
        return bool(self._answer) and same and self.identity == _identity(path)

    def take(self) -> PlainQrels | None:
        """What the reading found (None: not plain qrels), given once: this value lets go of
        it, so that the tables read ahead live no longer than the grade table built from them
        (a caller may keep the value for the whole evaluation)."""
        return self._answer.pop()


def _identity(path: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns, status.st_ino


def plain_qrels(path: str, ahead: QrelsAhead | None = None) -> PlainQrels | None:
    """`parse_qrels` of the file: what `ahead` (begun by `start_qrels`) read of it, if the file
    is unchanged since (size, time, inode), else a reading now."""
    if ahead is not None and ahead.read(path):
        return ahead.take()
    return parse_qrels(path)


def parse_qrels(path: str) -> PlainQrels | None:
    """`_article_kernel.parse_qrels` of the file, mapped into memory (its pages are the page
    cache's: nothing to copy, nothing fresh to clear): rows, topic codes (the topic ids' ranks
    in byte order), the topic ids in that order, document offsets and bytes, grades. None when
    it is not a readable regular file, is empty, or is not plain qrels, or without the compiled
    module."""
    kernel = compiled()
    if kernel is None:
        return None
    try:
        check_regular_file(path)
        with open(path, "rb") as stream:
            if os.fstat(stream.fileno()).st_size == 0:
                return None
            with mapped(stream.fileno()) as data:
                result: PlainQrels | None = kernel.parse_qrels(data)
                return result
    except (OSError, FormatError, ValueError):
        return None


def mapped(descriptor: int) -> mmap.mmap:
    """The whole open file, mapped read-only: on Linux with its pages populated at once, on
    every other platform (where `mmap` takes no flags: Windows) with the portable `access`."""
    if POPULATE:
        flags = mmap.MAP_SHARED | POPULATE
        return mmap.mmap(descriptor, 0, flags=flags, prot=mmap.PROT_READ)
    return mmap.mmap(descriptor, 0, access=mmap.ACCESS_READ)


def start_qrels(path: str) -> QrelsAhead | None:
    """Begin reading the qrels at `path` on a thread; `plain_qrels(path, ahead)` takes the
    result. Without the compiled module there is nothing to begin (None)."""
    return None if compiled() is None else QrelsAhead(path)


def plain_run(path: str, topics: PairIndex) -> PlainRun | None:
    """A run read by `_article_kernel.parse_run`, `PLAIN_BLOCK` bytes at a time (a line cut by
    a block's end is carried to the next): its run id (the last line's, as trec_eval keeps it),
    topic codes (`topics`: the qrels' topic ids, one table whose rows are their codes), document
    ids (an Arrow chunk per block) and scores. None when the file is not plain, names a topic
    the qrels do not know, or cannot be opened, or without the compiled module (or tables of
    it: `topics` built without): the other readers then decide."""
    kernel = compiled()
    if kernel is None or topics.numpy is not None:
        return None
    import pyarrow as pa

    from focal.evaluation.formats.trec import text_field
    from focal.evaluation.measures.trec_eval.engine.keys import column_buffers

    offsets, data = column_buffers(topics.docs)
    docs: list[Any] = []
    run: bytes | None = None
    try:
        check_regular_file(path)
        stream = open(path, "rb", buffering=0)  # noqa: SIM115 (closed below)
    except (OSError, FormatError):
        return None
    buffer, held = bytearray(PLAIN_BLOCK), 0
    with stream:
        columns = _Columns(os.fstat(stream.fileno()).st_size)
        while True:
            if held == len(buffer):  # a line longer than the buffer
                buffer.extend(bytes(len(buffer)))
            with memoryview(buffer) as view:
                end = held + stream.readinto(view[held:])
                final = end == held
                answer = kernel.parse_run(view[:end], final, topics.bases, topics.slots,
                                          offsets, data)  # fmt: skip
            if answer is None:
                return None
            used, rows, codes, scores, ends, ids, last = answer
            if rows:
                buffers = [None, pa.py_buffer(ends), pa.py_buffer(ids)]
                docs.append(pa.Array.from_buffers(pa.binary(), rows, buffers))
                columns.add(codes, scores, rows, used)
                run = last
            if final:
                break
            buffer[: end - used] = buffer[used:end]
            held = end - used
    if run is None:
        return None
    count = columns.count
    return (text_field(run, path, count, "run id"), columns.codes[:count],
            pa.chunked_array(docs, type=pa.binary()), columns.scores[:count])  # fmt: skip


class _Columns:
    """A run's topic codes and scores, block after block, in arrays sized for the whole file
    from the rows per byte read so far, with a quarter to spare (pages never written cost
    nothing), and grown if the file's later lines are shorter: no arrays per block to join at
    the end, which held the columns twice at once."""

    def __init__(self, size: int) -> None:
        import numpy as np

        self.size, self.count, self.read = size, 0, 0
        self.codes = np.empty(0, dtype=np.int32)
        self.scores = np.empty(0, dtype=np.float64)

    def add(self, codes: bytes, scores: bytes, rows: int, used: int) -> None:
        """A block's `rows` codes and scores, read from `used` bytes of the file."""
        import numpy as np

        end, self.read = self.count + rows, self.read + used
        if end > len(self.codes):
            want = max(end, int(end * self.size / max(self.read, 1) * 1.25) + 1024)
            self.codes = _grown(self.codes, want, self.count)
            self.scores = _grown(self.scores, want, self.count)
        self.codes[self.count : end] = np.frombuffer(codes, dtype=np.int32)
        self.scores[self.count : end] = np.frombuffer(scores, dtype=np.float64)
        self.count = end


def _grown(column: npt.NDArray[Any], size: int, kept: int) -> npt.NDArray[Any]:
    """`column` in an array of `size` items, its first `kept` copied."""
    import numpy as np

    grown = np.empty(size, dtype=column.dtype)
    grown[:kept] = column[:kept]
    return grown
