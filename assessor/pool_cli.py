"""`focal pool`: the pooling package's file commands, plus pools stored in the database.

`focal pool build [...] RUN...` writes a pool file (`pooling.cli`, spec section 6). Given no RUN
file, the same command pools the runs imported into the database for the assessors (issue 5's
`focal pool build --method topn --size N`), exactly as `focal pool-build` does. The composition
lives here, not in `pooling/`, because imports go one way: evaluation <- pooling <- assessor.
"""

from __future__ import annotations

from typing import Any

import click

from pooling.cli import build as file_build
from pooling.cli import pool as file_pool

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
            help="Database pools only: pool just these topics (repeatable).",
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
    method = options["method"]
    if method not in ("topn", "depth"):
        raise click.UsageError(f"database pools support --method topn or depth, not {method}")
    used = [name for name in _FILE_ONLY if options.get(name) is not None]
    if used:
        flags = ", ".join("--" + name for name in used)
        raise click.UsageError(f"{flags}: only for pools built from RUN files")
    if method == "depth" and options["depth"] is None:
        raise click.UsageError("--method depth needs --depth K")
    size = options["depth"] if method == "depth" else options["size"]
    from assessor.commands import pool_build

    ctx.invoke(
        pool_build,
        method=method,
        size=size,
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

pool = type(file_pool)(
    name="pool",
    commands={**file_pool.commands, "build": build},
    help=file_pool.help,
)
