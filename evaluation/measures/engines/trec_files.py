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
    parts: list[tuple[bytes, bytes, Any]] = []
    run: bytes | None = None
    try:
        check_regular_file(path)
        stream = open(path, "rb", buffering=0)  # noqa: SIM115 (closed below)
    except (OSError, FormatError):
        return None
    buffer, held = bytearray(PLAIN_BLOCK), 0
    with stream:
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
            used, rows, codes, scores, ends, docs, last = answer
            if rows:
                buffers = [None, pa.py_buffer(ends), pa.py_buffer(docs)]
                parts.append((codes, scores, pa.Array.from_buffers(pa.binary(), rows, buffers)))
                run = last
            if final:
                break
            buffer[: end - used] = buffer[used:end]
            held = end - used
    if run is None:
        return None
    count = sum(len(part[2]) for part in parts)
    return (
        text_field(run, path, count, "run id"),
        np.concatenate([np.frombuffer(part[0], dtype=np.int32) for part in parts]),
        pa.chunked_array([part[2] for part in parts], type=pa.binary()),
        np.concatenate([np.frombuffer(part[1], dtype=np.float64) for part in parts]),
    )
