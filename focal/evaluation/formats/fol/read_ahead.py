"""FOL runs parsed ahead, on a thread of their own, while the caller does other work.

`focal eval` spends its first fifth of a second in Python, reading the qrels, with one core
idle; parsing a run is nearly all pyarrow's C++ (`fol_arrow.parse_fol`), which runs without the
GIL. So the runs are parsed on one thread from the start, in the order they will be evaluated,
and each worker takes its run's parsing when it comes to it (`take`). Parsing keeps at most
`AHEAD_BYTES` of files ahead of the workers (and always at least one), so memory does not grow
with the number of runs.

Python hands the GIL to a waiting thread only every `sys.getswitchinterval()` (5 ms): a thread
that needs it for a moment between two pyarrow calls would wait that long behind the qrels
reader. While a `ReadAhead` is open the interval is `SWITCH_INTERVAL`, which let the reading
thread parse 12 runs in the time the qrels took instead of 4 (measured on the benchmark's runs:
docs/performance.md).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType

from focal.evaluation.formats.fol.arrow_table import ParsedFol, parse_fol
from focal.evaluation.formats.source import read_bytes

AHEAD_BYTES = 64 << 20  # files parsed ahead of the workers, at most (their tables a little more)
SWITCH_INTERVAL = 0.0005  # seconds


def parse_file(path: str) -> ParsedFol | None:
    """`parse_fol` of the file at `path` (an unreadable file raises FormatError)."""
    return parse_fol(read_bytes(path))


class ReadAhead:
    """Parsings of `paths`, started in order on one thread; use as a context manager."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = list(paths)
        self._next = 0
        self._taken: set[int] = set()  # taken before they were started: not to start again
        self._ahead: dict[int, tuple[Future[ParsedFol | None], int]] = {}
        self._bytes = 0
        self._lock = threading.Lock()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="focal-parse")
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, SWITCH_INTERVAL))
        self._fill()

    def _fill(self) -> None:
        with self._lock:
            while self._next < len(self._paths) and (not self._ahead or self._bytes < AHEAD_BYTES):
                index, path = self._next, self._paths[self._next]
                self._next += 1
                if index in self._taken:
                    continue
                try:
                    size = os.stat(path).st_size
                except OSError:
                    size = 0  # `read_bytes` will say why, when the run is taken
                self._ahead[index] = (self._thread.submit(parse_file, path), size)
                self._bytes += size

    def take(self, index: int) -> ParsedFol | None:
        """The parsing of `paths[index]`: waited for if the thread has begun it, else done here
        (the workers parse their runs themselves once the thread is behind them)."""
        with self._lock:
            started = self._ahead.pop(index, None)
            if started is not None:
                self._bytes -= started[1]
            elif index >= self._next:
                self._taken.add(index)
        try:
            if started is None or started[0].cancel():  # not begun: parsed here, at once
                return parse_file(self._paths[index])
            return started[0].result()
        finally:
            self._fill()

    def close(self) -> None:
        """Stop parsing (what is not started is dropped) and restore the switch interval."""
        self._thread.shutdown(wait=False, cancel_futures=True)
        sys.setswitchinterval(self._interval)

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
