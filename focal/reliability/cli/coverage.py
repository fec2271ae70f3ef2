"""`focal reliability coverage`: how much of runs that were not pooled a pool would have judged
(Piwowarski et al. 2008 §5.2.1, Fig 3)."""

from __future__ import annotations

from pathlib import Path

import click

from focal.evaluation.cli.lists import list_option
from focal.reliability.cli.options import EXISTING_FILE, emit, one_line_errors, ranked_runs
from focal.reliability.tables import FORMATS, Table, parse_integers


@click.command("coverage")
@click.option(
    "--new",
    "new_paths",
    multiple=True,
    required=True,
    type=EXISTING_FILE,
    help="A run not used for the pool (repeatable).",
)
@list_option(
    "--sizes",
    default="50,100,200,300,400,500",
    show_default=True,
    help="Pool sizes: articles per topic (top-n), or depths with --pool depth.",
)
@click.option(
    "--pool",
    "kind",
    type=click.Choice(["topn", "depth"]),
    default="topn",
    show_default=True,
    help="INEX top-n pools (Piwowarski et al. 2008) or TREC depth-k pools.",
)
@list_option(
    "--ranks",
    default="1,5,10,25,50,100,200,500,1000",
    show_default=True,
    help="Rank cut-offs in the new runs.",
)
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Fig 3 (.png, .svg).")
@click.argument("run_paths", metavar="POOLED_RUN...", nargs=-1, required=True, type=EXISTING_FILE)
@one_line_errors
def coverage(
    new_paths: tuple[Path, ...], sizes: str, kind: str, ranks: str, output_format: str,
    plot_path: str | None, run_paths: tuple[Path, ...],
) -> None:  # fmt: skip
    """The share of the --new runs' results, down to each rank, whose article is in the pool of
    the POOLED_RUNs, for each pool size (Piwowarski et al. 2008 Fig 3)."""
    from focal.pooling.ranked import as_ranked
    from focal.reliability.coverage import pool_coverage

    chosen = parse_integers(sizes, "pool size", 1, 10**6)
    cut_offs = parse_integers(ranks, "rank", 1, 10**7)
    pooled = as_ranked(ranked_runs(run_paths))
    new = as_ranked(ranked_runs(new_paths))
    points = pool_coverage(pooled, new, chosen, cut_offs, "topn" if kind == "topn" else "depth")
    table: Table = [
        {"pool": point.pool_size, "rank": point.rank, "results": point.results,
         "in_pool": point.pooled, "percent": 100 * point.share}
        for point in points
    ]  # fmt: skip
    emit({f"coverage ({kind} pools)": table}, output_format)
    if plot_path:
        from focal.reliability.plots import plot_coverage

        curves = {
            size: ([p.rank for p in points if p.pool_size == size],
                   [p.share for p in points if p.pool_size == size])
            for size in chosen
        }  # fmt: skip
        plot_coverage(curves, kind, plot_path)
        click.echo(f"plot written to {plot_path}", err=True)
