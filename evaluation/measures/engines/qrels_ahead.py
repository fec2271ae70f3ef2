"""Plain TREC qrels read by the C reader on a thread of their own, from the moment the command
knows their path.

An article evaluation spends its first tenth of a second importing numpy, pyarrow and the
engines, on one core. The C reader of plain qrels (`_article_kernel.parse_qrels`) runs without
the GIL, so `start` hands it the file at once, and the engine takes the result (`read`) when it
asks for the qrels: on the 10,000-query benchmark, the 0.06-0.08 s of reading 2 million
judgements no longer adds to the evaluation (docs/performance.md). This module imports nothing
heavy, so that starting costs nothing. A file changed in between (size, time or inode) is read
again, and a file the reader does not take gives None either way (`trec_files`).
"""

from __future__ import annotations

import mmap
import os
import threading

from evaluation.errors import FormatError
from evaluation.formats._source import check_regular_file
from evaluation.measures.engines import _article_kernel

PlainQrels = tuple[int, bytes, list[bytes], bytes, bytes, bytes]
# the file's pages mapped at once (Linux), rather than one fault at a time
POPULATE = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)

_started: dict[str, tuple[tuple[int, int, int] | None, threading.Thread, list[PlainQrels | None]]]
_started = {}


def _identity(path: str) -> tuple[int, int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns, status.st_ino


def parse(path: str) -> PlainQrels | None:
    """`_article_kernel.parse_qrels` of the file, mapped into memory (its pages are the page
    cache's: nothing to copy, nothing fresh to clear): rows, topic codes (the topic ids' ranks
    in byte order), the topic ids in that order, document offsets and bytes, grades. None when
    it is not a readable regular file, is empty, or is not plain qrels."""
    try:
        check_regular_file(path)
        with open(path, "rb") as stream:
            if os.fstat(stream.fileno()).st_size == 0:
                return None
            with mmap.mmap(stream.fileno(), 0, flags=POPULATE, prot=mmap.PROT_READ) as data:
                result: PlainQrels | None = _article_kernel.parse_qrels(data)
                return result
    except (OSError, FormatError, ValueError):
        return None


def start(path: str) -> None:
    """Begin reading `path` on a thread (once per path); `read` takes the result."""
    if path in _started:
        return
    answer: list[PlainQrels | None] = []
    thread = threading.Thread(target=lambda: answer.append(parse(path)), daemon=True,
                              name="focal-qrels-ahead")  # fmt: skip
    _started[path] = (_identity(path), thread, answer)
    thread.start()


def read(path: str) -> PlainQrels | None:
    """`parse(path)`: the reading `start` began, if the file is unchanged since, else now."""
    began = _started.pop(path, None)
    if began is not None:
        identity, thread, answer = began
        thread.join()
        if answer and identity is not None and identity == _identity(path):
            return answer[0]
    return parse(path)
