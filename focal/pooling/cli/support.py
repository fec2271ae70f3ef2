"""What the `focal pool` commands share: reading runs once, reporting bad input as one line,
writing outputs only when everything was computed (docs/pooling.md)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from focal.evaluation.cli import numbers
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Run
from focal.evaluation.output.files import atomic_write
from focal.pooling.io import ArticleOrder, in_article_lines, in_article_rows, pool_lines
from focal.pooling.ranked import as_ranked, read_ranked_runs
from focal.pooling.records import Pool, RankedRun

if TYPE_CHECKING:
    from focal.evaluation.formats.fol.columns import RunColumns

F = TypeVar("F", bound=Callable[..., Any])
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
OUTPUT_FILE = click.Path(dir_okay=False, writable=True, path_type=Path)


class DefaultToBuild(click.Group):
    """A group whose default sub-command is `build`, so `focal pool --size 500 RUN...` works."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["build", *args]
        return super().parse_args(ctx, args)


def reports_format_errors(command: F) -> F:
    """Turn a FormatError into one line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except FormatError as error:
            click.echo(f"focal pool: {error}", err=True)
            sys.exit(2)
        except OSError as error:  # e.g. an output folder that does not exist
            click.echo(f"focal pool: {error}", err=True)
            sys.exit(1)

    return cast(F, wrapper)


def order_options(command: F) -> F:
    command = click.option(
        "--seed", type=numbers.SEED, default=0, show_default=True, help="Seed of --order random."
    )(command)
    return click.option(
        "--order",
        type=click.Choice(["article", "random", "rank"]),
        default="article",
        show_default=True,
        help="Order of the articles within a topic: article id, seeded random, or pool rank.",
    )(command)


def load_ranked_runs(paths: Sequence[Path]) -> list[RankedRun]:
    """Read run files one at a time, keeping only their ranked article lists (FOL runs are
    read as columns, see `read_ranked_run`)."""
    return as_ranked(read_ranked_runs(paths))


def iterate_runs(paths: Sequence[Path]) -> Iterator[Run | RunColumns]:
    """The runs again, one at a time, for the in-article results (FOL runs as columns)."""
    from focal.evaluation.formats.fol.columns import read_run_columns

    for path in paths:
        yield read_run_columns(path)


def emit(lines: Iterable[str], output: Path | None) -> None:
    if output is None:
        sys.stdout.writelines(lines)
    else:
        atomic_write(output, lines)


def write_pool_outputs(
    pool: Pool,
    run_paths: Sequence[Path],
    output: Path | None,
    results: Path | None,
    order: str,
    seed: int,
) -> None:
    """Collect everything first (errors write nothing), then write the pool and results files."""
    lines = list(pool_lines(pool, cast(ArticleOrder, order), seed))
    result_lines = None
    if results is not None:
        result_lines = list(in_article_lines(in_article_rows(pool, iterate_runs(run_paths))))
    emit(lines, output)
    if results is not None and result_lines is not None:
        atomic_write(results, result_lines)
