"""Focal's own engines on run files: the passage tasks and Focal's article measures, each run read
and evaluated where it is read, on threads for the focused task and on worker processes for the
others (`evaluate_files`: `focal eval`, `focal compare` and `focal.evaluation.evaluate`).

Which engine evaluates a run, and how the run is read, is
`focal.evaluation.measures.providers.evaluate_file`'s choice; the prepared qrels and the
`Settings` go whole to each worker (`focal.evaluation.processes`: inherited where processes are
forked, pickled where they are spawned), and the focused task's index of the qrels travels with
them (`PreparedQrels.derived`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from focal.evaluation.measures.evaluate import PreparedQrels, RunEvaluation, Settings
from focal.evaluation.measures.providers import FOCUSED_RUN, Call, choose, evaluate_file
from focal.evaluation.processes import map_on_processes

if TYPE_CHECKING:
    from focal.evaluation.formats.fol.read_ahead import ReadAhead


def _evaluate_file(shared: tuple[PreparedQrels, Settings], path: str) -> RunEvaluation:
    return evaluate_file(*shared, path)


def evaluate_focused_files(
    prepared: PreparedQrels, settings: Settings, runs: ReadAhead, paths: Sequence[str], jobs: int
) -> list[RunEvaluation]:
    """The focused task of run files parsed by `runs` (a `ReadAhead` of `paths`), on `jobs`
    threads: the runs are parsed and evaluated in pyarrow and numpy, mostly without the GIL,
    and a thread costs no fork and returns no pickle."""
    from focal.evaluation.measures.engines.focused_run import judged_articles

    def evaluate_one(index: int) -> RunEvaluation:
        return evaluate_file(prepared, settings, paths[index], runs.take(index))

    if jobs <= 1 or len(paths) <= 1:
        return [evaluate_one(index) for index in range(len(paths))]
    judged_articles(prepared)  # built once, before the workers start, so that they share it
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as threads:
        return list(threads.map(evaluate_one, range(len(paths))))


def evaluate_files(
    prepared: PreparedQrels,
    settings: Settings,
    paths: Sequence[str],
    jobs: int,
    runs: ReadAhead | None = None,
) -> list[RunEvaluation]:
    """Evaluate run files, on `jobs` workers when there are several: threads for the focused
    task (`evaluate_focused_files`, the runs parsed ahead by `runs`, or by a `ReadAhead` opened
    here), worker processes for the others."""
    if choose(Call(settings.task))[0] is FOCUSED_RUN:
        if runs is not None:
            return evaluate_focused_files(prepared, settings, runs, paths, jobs)
        from focal.evaluation.formats.fol.read_ahead import ReadAhead

        with ReadAhead(paths) as ahead:
            return evaluate_focused_files(prepared, settings, ahead, paths, jobs)
    if jobs > 1 and len(paths) > 1:
        for topic in prepared.qrels:  # index once, before the workers start, so they share it
            prepared.text(topic)
    # One run per task: a task is a path out and ~100 rows back, nothing next to reading and
    # evaluating a run (chunks of several runs left one core idle for the last chunk).
    return list(map_on_processes(_evaluate_file, (prepared, settings), paths, jobs))


def evaluate_qrels_file(
    qrels_path: str,
    settings: Settings,
    paths: Sequence[str],
    jobs: int,
    runs: ReadAhead | None = None,
) -> list[RunEvaluation]:
    """`evaluate_files` against FOL qrels read from their file (as columns when the fast path
    takes them: the whole-run focused engine indexes those without records); FormatError for
    a bad file."""
    from focal.evaluation.formats.fol.qrels import read_qrels_columns

    prepared = PreparedQrels(*read_qrels_columns(qrels_path))
    return evaluate_files(prepared, settings, paths, jobs, runs)
