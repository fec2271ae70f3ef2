"""How trec_eval's measures spread the runs of `focal eval --task articles` over workers (`-j`).

- **Where processes are forked** (Linux): worker processes, one run a task, in order.
  A run is read and evaluated in short C, pyarrow and numpy steps with Python between them; on
  threads those steps wait for each other's GIL. The workers inherit the qrels' table (its pages
  shared, not copied) and send back only their rows; each holds one run at a time, so the
  largest process holds the qrels and one run (the peak memory of 10,000-query runs).
- **Where they are not** (spawned on macOS and Windows, or as `FOCAL_START_METHOD` says):
  threads, which read one large run at a time (a run's columns are built while another run is
  evaluated, never two large runs' at once), with one glibc arena for them all (`tune_malloc`).
  A spawned worker would start Python again and read the qrels again before its first run,
  which cost more than threads save (docs/performance.md, "Worker processes on every platform").
- **Runs of less than 1 MiB in all** (`FEW_BYTES`): in turn, in this process; starting workers
  would cost more than they save.

`on_processes` works with every start method (`focal.evaluation.processes`): `prepare` and
`evaluate` go to each worker whole, so they must pickle (module-level functions, or methods of
an object that pickles, as `running.articles.ArticleSteps` pickles as the qrels' path).
docs/performance.md has the measurements behind these choices.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import TypeVar

import pyarrow as pa

from focal.evaluation.formats.source import SMALL_FILE
from focal.evaluation.processes import map_on_processes, start_method

Prepared = TypeVar("Prepared")
Evaluation = TypeVar("Evaluation")

FEW_BYTES = 1 << 20  # runs smaller than this in all are evaluated in turn


def tune_malloc() -> None:
    """Ask glibc's allocator to keep and reuse the memory of freed arrays, before any run is read:
    - one arena for every thread (`M_ARENA_MAX` 1): by default each thread gets an arena of its
      own, which keeps what its large arrays freed (with two runs of 10,000 queries in flight,
      some 60 MiB more at the peak);
    - arrays up to 32 MiB from the heap (`M_MMAP_THRESHOLD`, glibc's largest) and the heap kept
      (`M_TRIM_THRESHOLD` 1 GiB): by default an array over 128 KiB is a fresh mapping, and every
      page of a fresh mapping is a fault and a page for the kernel to clear. On a virtual
      machine that clearing was a sixth of a 10,000-query evaluation's time; run after run, the
      heap gives the same pages back instead (docs/performance.md).
    Nothing happens where the C library is not glibc."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(-8, 1)  # M_ARENA_MAX
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


def file_size(path: str) -> float:
    """The bytes of a file; infinite when it cannot be sized (it is then taken as large, and
    its reader says what is wrong with it)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return float("inf")


def is_large(path: str) -> bool:
    """Whether a run is read from its path in batches rather than whole (`columnar_source`):
    the runs whose reading the worker threads take in turn."""
    return file_size(path) > SMALL_FILE


def forking() -> bool:
    """Whether worker processes are forked here (then they inherit the qrels' table)."""
    return start_method() == "fork"


def evaluate_runs(
    run_paths: Sequence[str], jobs: int, prepare: Callable[[str], Prepared],
    evaluate: Callable[[Prepared], Evaluation],
) -> list[Evaluation]:  # fmt: skip
    """`evaluate(prepare(path))` of every run, in order, on up to `jobs` workers (see above);
    the first error in run order is raised."""
    sizes = [file_size(path) for path in run_paths]
    steps = (prepare, evaluate)
    if jobs <= 1 or len(run_paths) <= 1 or sum(sizes) < FEW_BYTES:
        return [evaluate_one(steps, path) for path in run_paths]
    if forking():
        return on_processes(steps, run_paths, jobs)
    from concurrent.futures import ThreadPoolExecutor

    reading = threading.Lock()  # one large run read at a time, while others are evaluated
    with ThreadPoolExecutor(jobs) as threads:
        return list(threads.map(partial(evaluate_one, steps, reading=reading), run_paths))


def evaluate_one(
    steps: tuple[Callable[[str], Prepared], Callable[[Prepared], Evaluation]], path: str,
    reading: AbstractContextManager[object] | None = None,
) -> Evaluation:  # fmt: skip
    """`evaluate(prepare(path))`; a large run is read holding `reading` (threads read one at
    a time) and what reading it needed goes back to the system before it is evaluated."""
    prepare, evaluate = steps
    if file_size(path) <= SMALL_FILE:  # a few MiB: read side by side, nothing to hold back
        return evaluate(prepare(path))
    with reading or nullcontext():
        run = prepare(path)
        pa.default_memory_pool().release_unused()
    return evaluate(run)


def on_processes(
    steps: tuple[Callable[[str], Prepared], Callable[[Prepared], Evaluation]],
    run_paths: Sequence[str], jobs: int,
) -> list[Evaluation]:  # fmt: skip
    """`evaluate_one` of every run on worker processes, one run a task, in order: `steps` (and
    what they hold, the qrels' table) go to each worker once, and only paths go out."""
    return list(map_on_processes(evaluate_one, steps, run_paths, jobs))
