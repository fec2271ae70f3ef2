"""Plain TREC runs and qrels read by the article engine's C readers (`_article_kernel.c`).

A file whose every line is six fields (a run) or four (qrels) of printable ASCII but `#`, one
space apart, with a plain decimal score or an integer grade (and, for a run, topics the qrels
know) is read in one pass straight into the engine's columns: no Arrow table, no Python object
per line. Any other file gets None, and the caller reads it with pyarrow or line by line
(`formats/trec.py`, `formats/trec_batches.py`), which name what is wrong: these readers take
only files those readers take, and give the same columns (tests/evaluation/measures/engines/
test_plain_files.py compares them on random files). docs/trec_eval.md, "Reading".
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from evaluation.errors import FormatError
from evaluation.formats._source import check_regular_file
from evaluation.formats.trec import text_field
from evaluation.measures.engines import _article_kernel, qrels_ahead
from evaluation.measures.engines.qrels_ahead import PlainQrels
from evaluation.measures.engines.trec_keys import PairIndex, column_buffers

PlainRun = tuple[str, npt.NDArray[Any], Any, npt.NDArray[np.float64]]  # codes: int32
PLAIN_BLOCK = 4 << 20  # bytes of a run file `plain_run` reads at a time


def plain_qrels(path: str) -> PlainQrels | None:
    """`qrels_ahead.parse` of the file: rows, topic codes (the ids' ranks in byte order), the
    topic ids in that order, document offsets and bytes, grades; the reading begun on a thread
    when the command started (`qrels_ahead.start`), if it did. None when it is not a readable
    regular file, is empty, or is not plain qrels."""
    return qrels_ahead.read(path)


def plain_run(path: str, topics: PairIndex) -> PlainRun | None:
    """A run read by `_article_kernel.parse_run`, `PLAIN_BLOCK` bytes at a time (a line cut by
    a block's end is carried to the next): its run id (the last line's, as trec_eval keeps it),
    topic codes (`topics`: the qrels' topic ids, one table whose rows are their codes), document
    ids (an Arrow chunk per block) and scores. None when the file is not plain, names a topic
    the qrels do not know, or cannot be opened: the other readers then decide."""
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
                answer = _article_kernel.parse_run(view[:end], final, topics.bases,
                                                   topics.slots, offsets, data)  # fmt: skip
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
        self.size, self.count, self.read = size, 0, 0
        self.codes = np.empty(0, dtype=np.int32)
        self.scores = np.empty(0, dtype=np.float64)

    def add(self, codes: bytes, scores: bytes, rows: int, used: int) -> None:
        """A block's `rows` codes and scores, read from `used` bytes of the file."""
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
    grown = np.empty(size, dtype=column.dtype)
    grown[:kept] = column[:kept]
    return grown
