"""`focal pool`: build pools from run files, extend them adaptively, and report statistics.

    focal pool [build] --method topn --size 500 RUN...   (build is the default sub-command)
    focal pool extend POOL RUN... --judged QRELS --budget B [--step 5]
    focal pool stats POOL RUN... [--groups FILE] [--exclude-group G]

Errors in input files become one line on stderr and exit code 2; nothing is written then.
Files given with -o/--output or --results are written atomically; the pool goes to stdout
otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import click

from focal.evaluation.cli import numbers
from focal.evaluation.output.files import atomic_write
from focal.pooling.cli.support import (
    EXISTING_FILE,
    OUTPUT_FILE,
    DefaultToBuild,
    emit,
    load_ranked_runs,
    order_options,
    reports_format_errors,
    write_pool_outputs,
)
from focal.pooling.io import pool_lines, read_groups, read_pool
from focal.pooling.stats import EXCLUDE_METHODS, leave_group_out, pool_statistics
from focal.pooling.tables import TABLES, excluded_table, statistics_lines, statistics_tables


@click.group(cls=DefaultToBuild)
def pool() -> None:
    """Decide which articles the assessors read: pools from the submitted runs.

    Spec section 6 (docs/pooling.md).

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
    type=numbers.RANK,
    default=500,
    show_default=True,
    help="Articles per topic (topn, borda, rrf).",
)
@click.option("--depth", type=numbers.RANK, default=None, help="Distinct articles per run (depth).")
@click.option(
    "--fused",
    type=numbers.COUNT,
    default=None,
    help="Articles taken from the fused ranking (borda, rrf).",
)
@click.option("--rrf-k", type=numbers.COUNT, default=60, show_default=True)
@click.option("-o", "--output", type=OUTPUT_FILE, default=None, help="Pool file (default stdout).")
@click.option(
    "--results",
    type=OUTPUT_FILE,
    default=None,
    help="Also write the runs' results inside the pooled articles to this file.",
)
@order_options
@reports_format_errors
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
    from focal.pooling.strategies import PoolMethod, build_pool

    if method == "depth" and depth is None:
        raise click.UsageError("--method depth needs --depth K")
    if method in ("borda", "rrf") and fused is None:
        raise click.UsageError(f"--method {method} needs --fused M")
    ranked = load_ranked_runs(runs)
    chosen = cast(PoolMethod, method)
    built = build_pool(ranked, chosen, size=size, depth=depth, fused=fused, rrf_k=rrf_k)
    write_pool_outputs(built, runs, output, results, order, seed)


@pool.command("extend")
@click.argument("pool_file", metavar="POOL", type=EXISTING_FILE)
@click.argument("runs", nargs=-1, required=True, type=EXISTING_FILE)
@click.option(
    "--judged", type=EXISTING_FILE, required=True, help="Qrels of the pool's judged articles."
)
@click.option(
    "--budget",
    type=numbers.RANK,
    required=True,
    help="Most articles the whole pool (all topics) may hold after extension.",
)
@click.option(
    "--step",
    type=numbers.RANK,
    default=5,
    show_default=True,
    help="Distinct articles per run added to a topic's depth (as `focal pool build --method "
    "depth` counts).",
)
@click.option(
    "--threshold",
    type=numbers.Real(min=0.0),
    default=0.0,
    show_default=True,
    help="Extend topics whose recent relevant rate is above this.",
)
@click.option("-o", "--output", type=OUTPUT_FILE, default=None)
@click.option("--results", type=OUTPUT_FILE, default=None)
@order_options
@reports_format_errors
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
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.pooling.adaptive import extend_pool

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
    write_pool_outputs(extension.pool, runs, output, results, order, seed)


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
    "--exclude-method",
    type=click.Choice(["unique", "repool"]),
    default="unique",
    show_default=True,
    help="unique: the other runs keep their depths, the group's sole contributions go (Pal et "
    "al. 2011); repool: a top-n pool of --size N built again without the group (Piwowarski et "
    "al. 2008).",
)
@click.option("--size", type=numbers.RANK, default=None, help="N for --exclude-method repool.")
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
@reports_format_errors
def stats(
    pool_file: Path,
    runs: tuple[Path, ...],
    groups: Path | None,
    exclude_group: str | None,
    exclude_method: str,
    size: int | None,
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
        ranked = [run for run in ranked if run.run_id not in members]
        if exclude_method == "repool":
            if size is None:
                raise click.UsageError("--exclude-method repool needs --size N")
            from focal.pooling.strategies import top_n_pool

            examined = top_n_pool(ranked, size)
        else:
            examined = leave_group_out(full, members)
        tables["excluded"] = excluded_table(full, examined)
        click.echo(f"without group {exclude_group}: {EXCLUDE_METHODS[exclude_method]}", err=True)
    elif excluded_pool is not None or table == "excluded":
        raise click.UsageError("--excluded-pool and --table excluded need --exclude-group")
    tables = {**statistics_tables(pool_statistics(examined, ranked, group_of)), **tables}
    chosen = {table: tables[table]} if table else tables
    lines = list(statistics_lines(chosen, titled=table is None))
    emit(lines, output)
    if excluded_pool is not None:
        atomic_write(excluded_pool, pool_lines(examined))
