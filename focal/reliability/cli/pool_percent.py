"""`focal reliability depth --pool-percent`: Pal et al. 2011's X % pools against the 100 % pool
(Tables 4-5), and the figures of τ by level that `sample` and `depth` draw (Figs 1-2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import click

from focal.reliability.cli.options import emit, progress
from focal.reliability.tables import Table, parse_integers


def plot_levels(
    levels: Sequence[float], taus: Sequence[tuple[float, float]],
    taus_ap: Sequence[tuple[float, float]], xlabel: str, title: str, path: str,
) -> None:  # fmt: skip
    """Pal et al. 2011, Figs 1-2: τ and τ_AP by level, and a note on stderr."""
    from focal.reliability.plots import plot_correlations

    plot_correlations(levels, taus, taus_ap, xlabel, title, path)
    click.echo(f"plot written to {path}", err=True)


def percent_pools(
    setup: Any, ranked: Any, percents: str, output_format: str, plot_path: str | None = None
) -> None:
    """Pal et al. 2011, Tables 4-5: the X % qrels against the 100 % qrels, and each topic's
    d_Q(X)."""
    from focal.reliability.judgements import percent_pools as pools_of
    from focal.reliability.judgements import restrict_to
    from focal.reliability.studies import pool_depths

    chosen = parse_integers(percents, "pool percent", 1, 100)
    pools, depths = pools_of(ranked, setup.qrels, [*chosen, 100])
    hundred = restrict_to(setup.qrels, pools[100])
    relevant_all = sum(1 for t in setup.qrels.values() for j in t.values() if j.relevant)
    baseline = replace(setup, qrels=hundred)
    rows = pool_depths(baseline, {x: pools[x] for x in chosen}, progress)
    table: Table = [
        {"percent": row.depth, "judged": row.judged, "relevant": row.relevant,
         "tau": row.comparison.tau, "tau_ap": row.comparison.tau_ap,
         "change": row.comparison.change, "significant_full": row.comparison.significant_full,
         "kept": row.comparison.kept}
        for row in rows
    ]  # fmt: skip
    judged_100 = sum(len(t) for t in hundred.values())
    relevant_100 = sum(1 for t in hundred.values() for j in t.values() if j.relevant)
    summary: Table = [
        {"pool": "100 %", "judged": judged_100, "relevant": relevant_100,
         "judged_in_qrels": sum(len(t) for t in setup.qrels.values()),
         "relevant_in_qrels": relevant_all}
    ]  # fmt: skip
    per_topic: Table = [
        {"topic": topic, "original_pool": len(setup.qrels[topic]),
         **{f"d_Q({x})": depths[x][topic] for x in [*chosen, 100]}}
        for topic in setup.qrels
    ]  # fmt: skip
    emit({f"pool percent {setup.measure}": table, "baseline": summary, "topics": per_topic},
         output_format)  # fmt: skip
    if plot_path:
        plot_levels(
            [r.depth for r in rows], [(r.comparison.tau, 0.0) for r in rows],
            [(r.comparison.tau_ap, 0.0) for r in rows], "pool size (% of the original pool)",
            f"{setup.measure}: rankings with X % pools against the 100 % pool", plot_path,
        )  # fmt: skip
