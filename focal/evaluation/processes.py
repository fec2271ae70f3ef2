"""Worker processes and usable CPUs the same way on Linux, macOS and Windows.

Every command that spreads work over processes (`focal eval -j`, `focal compare -j`,
`focal reliability ... -j`) or threads (`focal pool build`) asks here: `usable_cpus` for how
many CPUs this process may use, `map_on_processes` for a pool of worker processes.

A worker gets what it needs through the pool's initializer, never through a module global of the
parent: where processes are forked (Linux) it inherits that state, its pages shared with the
parent and not copied; where they are spawned (macOS and Windows by default) the state is pickled
once per worker, so it must pickle (objects that hold a file's worth of tables can pickle as the
path their worker reads again). The initializer keeps it in `_WORKER`, a global of the worker
process alone: the only module-level state any evaluation reads (every other input travels in
values: options, prepared qrels, settings). `FOCAL_START_METHOD` (`focal.settings`) forces one
of Python's start methods (docs/performance.md, "Worker processes on every platform"); the
output is the same with each, and the same as one process.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

import click

from focal import settings

State = TypeVar("State")
Item = TypeVar("Item")
Result = TypeVar("Result")

VARIABLE = "FOCAL_START_METHOD"

# In a worker process only: the function and state its pool's initializer received. This is the
# one module-level state an evaluation reads, and the one place where state crosses a process
# boundary: `ProcessPoolExecutor` hands a task only its item, and the state (qrels read once,
# tables of many MiB) must reach each worker once, not with every item; its initializer runs in
# the worker and can leave it nowhere but in a global of the worker's own. The parent never sets
# it (a forked worker starts from the parent's copy, empty), and each worker serves one pool.
_WORKER: dict[str, Any] = {}


class StartMethodError(click.ClickException, ValueError):
    """`FOCAL_START_METHOD` names a start method this platform does not offer (`fork` on
    Windows): one line, exit code 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"focal: {self.format_message()}", err=True)


def usable_cpus() -> int:
    """The CPUs this process may run on, at least 1: `os.process_cpu_count` (Python 3.13+,
    which also reads `PYTHON_CPU_COUNT`), else the affinity mask where the platform has one
    (Linux), else every CPU of the machine (macOS, Windows)."""
    process_cpu_count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if process_cpu_count is not None:
        count = process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:
        count = os.cpu_count()
    return max(1, count or 1)


def start_method() -> str:
    """How worker processes start: `FOCAL_START_METHOD` when set, else `fork` on Linux (workers
    inherit the parent's state instead of unpickling it) and `spawn` elsewhere (macOS, where
    forking a process that has loaded system frameworks is unsafe, and Windows, which has
    nothing else). A value not of the setting's form is `focal.settings.SettingError`; one this
    platform does not offer, StartMethodError."""
    import multiprocessing

    offered = multiprocessing.get_all_start_methods()
    chosen = str(settings.value(VARIABLE))
    if chosen == "auto":
        return "fork" if sys.platform.startswith("linux") and "fork" in offered else "spawn"
    if chosen not in offered:
        expected = ", ".join(["auto", *offered])
        raise StartMethodError(f"{VARIABLE}={chosen}: not on this platform; expected {expected}")
    return chosen


def _start_worker(function: Callable[[Any, Any], Any], state: Any) -> None:
    _WORKER.update(function=function, state=state)


def _call(item: Any) -> Any:
    return _WORKER["function"](_WORKER["state"], item)


def map_on_processes(
    function: Callable[[State, Item], Result], state: State, items: Iterable[Item], jobs: int
) -> Iterator[Result]:
    """`function(state, item)` of every item, in order, on up to `jobs` worker processes, one
    item a task (workers that take items one at a time finish within one item of each other);
    in this process when `jobs` is 1 or there is one item (a worker would only cost).

    `function` must be a module-level function (a spawned worker imports it by name); `state`
    goes to each worker once, through the pool's initializer. The first error in item order is
    raised, and the items not yet started are cancelled. When processes are forked, the
    collector is kept off the objects that exist before the pool (`gc.freeze`): scanning them in
    a worker would copy their pages into it for nothing."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    work = list(items)
    if jobs <= 1 or len(work) <= 1:
        yield from (function(state, item) for item in work)
        return
    method = start_method()
    if method == "fork":
        gc.freeze()
    pool = ProcessPoolExecutor(
        min(jobs, len(work)),
        mp_context=multiprocessing.get_context(method),
        initializer=_start_worker,
        initargs=(function, state),
    )
    try:
        yield from pool.map(_call, work)
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True)
        if method == "fork":
            gc.unfreeze()
