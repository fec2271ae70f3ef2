"""What the `focal reliability` commands share: QRELS RUN... and the study options, reading
the inputs once, one-line errors (exit 2), a progress bar, and printing the tables."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from focal.evaluation.cli import numbers
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.registry.declarations import TASKS
from focal.evaluation.processes import usable_cpus
from focal.reliability.tables import FORMATS, Table, write_tables

F = TypeVar("F", bound=Callable[..., Any])
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def progress(items: Iterator[Any], total: int) -> Iterator[Any]:
    """A progress bar on stderr when it is a terminal (tqdm)."""
    from tqdm import tqdm

    return iter(tqdm(items, total=total, file=sys.stderr, disable=None, leave=False))


def one_line_errors(command: F) -> F:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (FormatError, ValueError) as error:
            click.echo(f"focal reliability: {error}", err=True)
            sys.exit(2)

    return cast(F, wrapper)


def study_options(command: F) -> F:
    """QRELS RUN..., the task and measure, and how to run."""
    decorators = [
        click.option("--task", type=click.Choice(TASKS), default="focused", show_default=True),
        click.option(
            "-m",
            "--measure",
            default=None,
            help="Per-topic measure the runs are ranked by (default: AiP for focused and "
            "thorough, AgP for ric, bic and t2i, MAP for articles, MAep for elements; MAiP and "
            "MAgP are accepted).",
        ),
        click.option(
            "--quant",
            default="generalised",
            show_default=True,
            help="Task elements: the quantisation, as `focal eval --task elements`.",
        ),
        click.option(
            "--collection",
            "collection_dir",
            type=click.Path(exists=True, file_okay=False, path_type=Path),
            help="Task elements: the articles, to derive element qrels from FOL QRELS.",
        ),
        click.option(
            "--alpha", type=numbers.Real(0, 1, min_open=True, max_open=True), default=0.05
        ),
        click.option("--format", "output_format", type=click.Choice(FORMATS), default="text"),
        click.option(
            "-j", "--jobs", type=numbers.JOBS, default=0, help="Processes (0: all cores)."
        ),
        click.argument("qrels_path", metavar="QRELS", type=EXISTING_FILE),
        click.argument("run_paths", metavar="RUN...", nargs=-1, required=True, type=EXISTING_FILE),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def significance_options(command: F) -> F:
    """The test and correction deciding which pairs of runs differ (as `focal compare`)."""
    from focal.evaluation.statistics.significance.corrections import CORRECTIONS
    from focal.evaluation.statistics.significance.pairwise import TESTS

    command = click.option(
        "--correction",
        type=click.Choice(CORRECTIONS),
        default="none",
        show_default=True,
        help="Multiple-comparison correction over the pairs of runs.",
    )(command)
    return click.option(
        "--test",
        type=click.Choice(TESTS),
        default="t",
        show_default=True,
        help="Paired test, two-sided, on the per-topic scores of each pair of runs.",
    )(command)


def study_setup(
    qrels_path: Path, run_paths: tuple[Path, ...], task: str, measure: str | None, alpha: float,
    jobs: int, quant: str = "generalised", collection_dir: Path | None = None,
) -> Any:  # fmt: skip
    """The command's options as `focal.reliability.api.study_setup` takes them (one rule for
    both)."""
    from focal.reliability.api import study_setup as setup_of

    if task != "elements" and (collection_dir is not None or quant != "generalised"):
        raise click.UsageError("--quant and --collection are for --task elements")
    return setup_of(
        qrels_path, run_paths, task, measure, alpha, jobs=jobs or usable_cpus(),
        quant=quant, collection=collection_dir,
    )  # fmt: skip


def emit(tables: dict[str, Table], output_format: str) -> None:
    write_tables(tables, output_format, sys.stdout)


def ranked_runs(run_paths: tuple[Path, ...]) -> Iterator[Any]:
    from focal.pooling.ranked import read_ranked_run

    for path in run_paths:
        yield read_ranked_run(path)
