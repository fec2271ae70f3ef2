"""`focal pool`: build pools from run files, extend them adaptively, and report statistics.

    focal pool [build] --method topn --size 500 RUN...   (build is the default sub-command)
    focal pool extend POOL RUN... --judged QRELS --budget B [--step 5]
    focal pool stats POOL RUN... [--groups FILE] [--exclude-group G]

Errors in input files become one line on stderr and exit code 2; nothing is written then.
Files given with -o/--output or --results are written atomically; the pool goes to stdout
otherwise.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from evaluation.errors import FormatError
from evaluation.formats.records import Run
from pooling.io import (
    ArticleOrder,
    atomic_write,
    in_article_lines,
    in_article_rows,
    pool_lines,
    read_groups,
    read_pool,
)
from pooling.ranked import as_ranked, read_ranked_run
from pooling.records import Pool, RankedRun
from pooling.stats import leave_group_out, pool_statistics
from pooling.tables import TABLES, excluded_table, statistics_tables, table_lines

if TYPE_CHECKING:
    from evaluation.formats.columns import RunColumns

F = TypeVar("F", bound=Callable[..., Any])
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
OUTPUT_FILE = click.Path(dir_okay=False, writable=True, path_type=Path)


class _DefaultToBuild(click.Group):
    """A group whose default sub-command is `build`, so `focal pool --size 500 RUN...` works."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["build", *args]
        return super().parse_args(ctx, args)


def _reports_format_errors(command: F) -> F:
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


def _order_options(command: F) -> F:
    command = click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of --order random."
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
    return as_ranked(read_ranked_run(path) for path in paths)


def _iterate_runs(paths: Sequence[Path]) -> Iterator[Run | RunColumns]:
    """The runs again, one at a time, for the in-article results (FOL runs as columns)."""
    from evaluation.formats.columns import read_run_columns

    for path in paths:
        yield read_run_columns(path)


def _emit(lines: Iterable[str], output: Path | None) -> None:
    if output is None:
        sys.stdout.writelines(lines)
    else:
        atomic_write(output, lines)


def _write_pool_outputs(
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
        result_lines = list(in_article_lines(in_article_rows(pool, _iterate_runs(run_paths))))
    _emit(lines, output)
    if results is not None and result_lines is not None:
        atomic_write(results, result_lines)


@click.group(cls=_DefaultToBuild)
def pool() -> None:
    """Decide which articles the assessors read: pools from submitted runs (spec section 6).

    `focal pool [OPTIONS] RUN...` without a sub-command name means `focal pool build`.
    """


@pool.command("build")
@click.argument("runs", nargs=-1, required=True, type=EXISTING_FILE)
@click.option(
    "--method",
    type=click.Choice(["topn", "depth", "borda", "rrf"]),
    default="topn",
    show_default=True,
    help="topn: INEX rounds over k-th results; depth: TREC first K distinct articles; "
    "borda/rrf: top M fused articles filled up with top-n.",
)
@click.option(
    "--size",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Articles per topic (topn, borda, rrf).",
)
@click.option(
    "--depth", type=click.IntRange(min=1), default=None, help="Distinct articles per run (depth)."
)
@click.option(
    "--fused",
    type=click.IntRange(min=0),
    default=None,
    help="Articles taken from the fused ranking (borda, rrf).",
)
@click.option("--rrf-k", type=click.IntRange(min=0), default=60, show_default=True)
@click.option("-o", "--output", type=OUTPUT_FILE, default=None, help="Pool file (default stdout).")
@click.option(
    "--results",
    type=OUTPUT_FILE,
    default=None,
    help="Also write the runs' results inside the pooled articles to this file.",
)
@_order_options
@_reports_format_errors
def build(
    runs: tuple[Path, ...],
    method: str,
    size: int,
    depth: int | None,
    fused: int | None,
    rrf_k: int,
    output: Path | None,
    results: Path | None,
    order: str,
    seed: int,
) -> None:
    """Build a pool from RUN files, given in the order top-n rounds visit them."""
    from pooling.strategies import PoolMethod, build_pool

    if method == "depth" and depth is None:
        raise click.UsageError("--method depth needs --depth K")
    if method in ("borda", "rrf") and fused is None:
        raise click.UsageError(f"--method {method} needs --fused M")
    ranked = load_ranked_runs(runs)
    chosen = cast(PoolMethod, method)
    built = build_pool(ranked, chosen, size=size, depth=depth, fused=fused, rrf_k=rrf_k)
    _write_pool_outputs(built, runs, output, results, order, seed)


@pool.command("extend")
@click.argument("pool_file", metavar="POOL", type=EXISTING_FILE)
@click.argument("runs", nargs=-1, required=True, type=EXISTING_FILE)
@click.option(
    "--judged", type=EXISTING_FILE, required=True, help="Qrels of the pool's judged articles."
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    required=True,
    help="Most articles the whole pool (all topics) may hold after extension.",
)
@click.option("--step", type=click.IntRange(min=1), default=5, show_default=True)
@click.option(
    "--threshold",
    type=click.FloatRange(min=0.0),
    default=0.0,
    show_default=True,
    help="Extend topics whose recent relevant rate is above this.",
)
@click.option("-o", "--output", type=OUTPUT_FILE, default=None)
@click.option("--results", type=OUTPUT_FILE, default=None)
@_order_options
@_reports_format_errors
def extend(
    pool_file: Path,
    runs: tuple[Path, ...],
    judged: Path,
    budget: int,
    step: int,
    threshold: float,
    output: Path | None,
    results: Path | None,
    order: str,
    seed: int,
) -> None:
    """Deepen the topics of POOL whose recent rounds still yield relevant articles."""
    from evaluation.formats.qrels import read_qrels
    from pooling.adaptive import extend_pool

    current = read_pool(pool_file)
    qrels = read_qrels(judged)
    extension = extend_pool(current, load_ranked_runs(runs), qrels, budget, step, threshold)
    grown = [t for t in extension.topics if t.extended]
    added = sum(t.added for t in grown)
    click.echo(
        f"extended {len(grown)} of {len(extension.topics)} topics by {step} ranks: "
        f"+{added} articles, pool {extension.pool.size()} (budget {budget})",
        err=True,
    )
    _write_pool_outputs(extension.pool, runs, output, results, order, seed)


@pool.command("stats")
@click.argument("pool_file", metavar="POOL", type=EXISTING_FILE)
@click.argument("runs", nargs=-1, required=True, type=EXISTING_FILE)
@click.option(
    "--groups",
    type=EXISTING_FILE,
    default=None,
    help="`run-id<TAB>group` lines; unlisted runs are groups of their own.",
)
@click.option(
    "--exclude-group", default=None, help="Report on the pool without this group's contributions."
)
@click.option(
    "--excluded-pool",
    type=OUTPUT_FILE,
    default=None,
    help="Write the leave-one-group-out pool to this file.",
)
@click.option(
    "--table",
    type=click.Choice(TABLES),
    default=None,
    help="Print only this table (plain TSV, header first).",
)
@click.option("-o", "--output", type=OUTPUT_FILE, default=None)
@_reports_format_errors
def stats(
    pool_file: Path,
    runs: tuple[Path, ...],
    groups: Path | None,
    exclude_group: str | None,
    excluded_pool: Path | None,
    table: str | None,
    output: Path | None,
) -> None:
    """Per topic and overall: pool size, run depths, unique contributions, overlap."""
    full = read_pool(pool_file)
    ranked = load_ranked_runs(runs)
    group_of = read_groups(groups) if groups is not None else {}
    tables: dict[str, list[list[str]]] = {}
    examined = full
    if exclude_group is not None:
        if groups is None:
            raise click.UsageError("--exclude-group needs --groups FILE")
        members = {run for run, name in group_of.items() if name == exclude_group}
        if not members:
            raise click.UsageError(f"group {exclude_group!r} has no runs in {groups}")
        examined = leave_group_out(full, members)
        ranked = [run for run in ranked if run.run_id not in members]
        tables["excluded"] = excluded_table(full, examined)
    elif excluded_pool is not None or table == "excluded":
        raise click.UsageError("--excluded-pool and --table excluded need --exclude-group")
    tables = {**statistics_tables(pool_statistics(examined, ranked, group_of)), **tables}
    chosen = {table: tables[table]} if table else tables
    lines = list(table_lines(chosen, titled=table is None))
    _emit(lines, output)
    if excluded_pool is not None:
        atomic_write(excluded_pool, pool_lines(examined))
