"""`focal pool build` and `focal pool stats` for pool files and for the database's pools.

One command for one thing, whatever the pools are kept in. Given RUN files, `focal pool build`
writes a pool file and `focal pool stats POOL RUN...` describes one (`focal.pooling.cli.commands`,
spec section 6). Given no RUN file, `focal pool build` pools the runs imported into the database for
the assessors (`focal.assessor.campaign.pools.build`), and `focal pool stats` with no POOL describes
the database's pools (`focal.assessor.campaign.pools.statistics`, which the organiser's Pools page
calls too). Options mean the same in both: `--size N` is n of top-n, `--depth K` is k of depth-k.
`focal pool-build` and `focal pool-stats`, the names of earlier versions, are kept as hidden
aliases of the database forms. The composition lives here, not in `pooling/`, because imports go
one way: evaluation <- pooling <- assessor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import click

from focal.assessor.cli.support import friendly_errors, transaction
from focal.evaluation.cli import numbers
from focal.evaluation.cli.lists import split
from focal.pooling.cli.commands import build as file_build
from focal.pooling.cli.commands import pool as file_pool
from focal.pooling.cli.commands import stats as file_stats
from focal.pooling.cli.forecast import forecast_command
from focal.pooling.ordering.policies import POLICIES
from focal.reliability.cli.simulate import simulate


@click.command("pool-build", hidden=True)
@click.option("--method", type=click.Choice(["topn", "depth"]), default="topn", show_default=True)
@click.option("--size", type=numbers.RANK, default=500, show_default=True, help="n of top-n.")
@click.option("--depth", type=numbers.RANK, default=None, help="k of depth-k.")
@click.option(
    "--order",
    type=click.Choice(["article", "rank", "random"]),
    default="article",
    show_default=True,
    help="Display order shown to assessors.",
)
@click.option(
    "--seed", type=numbers.SEED, default=0, show_default=True, help="Seed of --order random."
)
@click.option("--topic", "topics", multiple=True, callback=split,
              help="Only these topics (repeated or comma-separated).")  # fmt: skip
@friendly_errors
def pool_build(
    method: str, size: int, depth: int | None, order: str, seed: int, topics: tuple[str, ...]
) -> None:
    """Build the pools of the imported topics from the imported runs (replaces old pools)."""
    from focal.assessor.campaign.pools.build import Method, Order, build_pools

    if method == "depth":
        if depth is None:
            raise click.UsageError("--method depth needs --depth K")
        size = depth

    with transaction() as session:
        summaries = build_pools(
            session, cast(Method, method), size, cast(Order, order), seed, list(topics) or None
        )
    for summary in summaries:
        note = f" ({len(summary.missing)} pooled articles not in the collection)"
        click.echo(
            f"topic {summary.topic}: {summary.size} articles" + (note if summary.missing else "")
        )


@click.command("pool-stats", hidden=True)
@click.option(
    "--table",
    type=click.Choice(["topics", "runs", "groups", "overlap", "depths"]),
    default=None,
    help="Print only this table (plain TSV, header first).",
)
@friendly_errors
def pool_stats(table: str | None) -> None:
    """Statistics of the database pools, as `focal pool stats` reports them for a pool file."""
    from focal.assessor.campaign.pools.statistics import database_pool_report
    from focal.assessor.cli.support import CommandError
    from focal.pooling.tables import statistics_lines, statistics_tables

    with transaction() as session:
        report = database_pool_report(session)
    if report.statistics is None:
        raise CommandError("no top-n or depth pool in the database: run `focal pool build`")
    tables = statistics_tables(report.statistics)
    chosen = {table: tables[table]} if table else tables
    click.echo("".join(statistics_lines(chosen, titled=table is None)), nl=False)


def needs_database(missing: str) -> None:
    """Without files, the `focal pool` commands serve the database's pools: in an install
    without the assessor (no SQLAlchemy), the files were forgotten, a usage error that says
    so, rather than a request to install `focal[assessor]`."""
    import importlib.util

    if importlib.util.find_spec("sqlalchemy") is None:
        raise click.UsageError(
            f"{missing} (without them, the pools of the assessor's database, which this "
            "install has not)"
        )


# Options of the file command that have no meaning for a database pool.
_FILE_ONLY = ("output", "results", "fused")


def _build_params() -> list[click.Parameter]:
    params: list[click.Parameter] = []
    for param in file_build.params:
        if param.name == "runs":
            param = click.Argument(["runs"], nargs=-1, required=False, type=param.type)
        params.append(param)
    params.append(
        click.Option(
            ["--topic", "topics"],
            multiple=True,
            callback=split,
            help="Database pools only: pool just these topics (repeated or comma-separated).",
        )
    )
    return params


@click.pass_context
def _build(ctx: click.Context, /, **options: Any) -> None:
    topics: tuple[str, ...] = options.pop("topics")
    if options["runs"]:
        if topics:
            raise click.UsageError("--topic applies to database pools (no RUN files) only")
        ctx.invoke(file_build, **options)
        return
    needs_database("Missing argument 'RUN...': the run files to pool")
    method = options["method"]
    if method not in ("topn", "depth"):
        raise click.UsageError(f"database pools support --method topn or depth, not {method}")
    used = [name for name in _FILE_ONLY if options.get(name) is not None]
    if used:
        flags = ", ".join("--" + name for name in used)
        raise click.UsageError(f"{flags}: only for pools built from RUN files")
    ctx.invoke(
        pool_build,
        method=method,
        size=options["size"],
        depth=options["depth"],
        order=options["order"],
        seed=options["seed"],
        topics=topics,
    )


build = click.Command(
    "build",
    callback=_build,
    params=_build_params(),
    help=(
        "Build a pool from RUN files (written to a pool file), or, given no RUN file, pool the "
        "runs imported into the database for the assessors."
    ),
)


def _stats_params() -> list[click.Parameter]:
    params: list[click.Parameter] = []
    for param in file_stats.params:
        if param.name == "pool_file":
            param = click.Argument(["pool_file"], metavar="POOL", required=False, type=param.type)
        elif param.name == "runs":
            param = click.Argument(["runs"], metavar="RUN...", nargs=-1, type=param.type)
        params.append(param)
    return params


@click.pass_context
def _stats(ctx: click.Context, /, **options: Any) -> None:
    pool_file: Path | None = options["pool_file"]
    if pool_file is not None:
        if not options["runs"]:
            raise click.UsageError("POOL needs the RUN files it was built from")
        ctx.invoke(file_stats, **options)
        return
    needs_database("Missing argument 'POOL RUN...': a pool file and the run files it pools")
    used = [name for name, value in options.items() if name not in ("table", "runs", "pool_file")
            and value not in (None, "unique")]  # fmt: skip
    if used:
        flags = ", ".join("--" + name.replace("_", "-") for name in used)
        raise click.UsageError(f"{flags}: only for a POOL file and its RUN files")
    if options["table"] == "excluded":
        raise click.UsageError("--table excluded needs a POOL file and --exclude-group")
    ctx.invoke(pool_stats, table=options["table"])


stats = click.Command(
    "stats",
    callback=_stats,
    params=_stats_params(),
    help=(
        "Per topic and overall: pool size, run depths, unique contributions, overlap; of a POOL "
        "file built from RUN files, or, given none, of the pools in the database."
    ),
)


@click.command("policy")
@click.argument("policy", type=click.Choice(["fixed", *POLICIES]))
@click.option(
    "--topic",
    "topics",
    multiple=True,
    callback=split,
    help="Only these topics (repeated or comma-separated; default all).",
)
@click.option(
    "--seed", type=numbers.SEED, default=0, show_default=True, help="Seed of the random policies."
)
@click.option(
    "--budget", type=numbers.RANK, default=None, help="Judgements per assessor and topic."
)
@friendly_errors
def policy(policy: str, topics: tuple[str, ...], seed: int, budget: int | None) -> None:
    """Set the judging order of the database's pools: which article an assessor's "next" opens
    (`fixed`: the pool's display order; the others adapt to the judgements, docs/pooling.md)."""
    from focal.assessor.campaign.pools.ordering import set_order
    from focal.assessor.cli.support import CommandError

    with transaction() as session:
        try:
            changed = set_order(session, policy, list(topics) or None, seed, budget)
        except ValueError as error:
            raise CommandError(str(error)) from None
    limit = "" if budget is None else f", budget {budget} judgements"
    click.echo(f"{len(changed)} topic(s) now judged in {policy} order (seed {seed}{limit})")


pool = type(file_pool)(
    name="pool",
    commands={
        **file_pool.commands,
        "build": build,
        "stats": stats,
        "policy": policy,
        "simulate": simulate,
        "forecast": forecast_command,
    },
    help=file_pool.help,
)
