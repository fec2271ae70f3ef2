"""`focal pool simulate`: complete judgements replayed under each judging order (docs/pooling.md).

    focal pool simulate --policy rank,mtf,thompson --repeats 5 --budgets 10,20,50 QRELS RUN...

Four tables: `budgets` (policy, topic, found, judgements: the judgements needed to find 50, 80, 90
and 95 % of a topic's relevant articles; `all` is the mean over topics; text shows only the `all`
rows, tsv and json every topic), `curves` (relevant articles and characters found after k
judgements, at the `--steps`), `rankings` (Kendall τ and τ_AP of the runs ranked with the first
k judgements of each topic against the full qrels) and `settled` (the judgements per topic from
which the ranking of the runs stays the full qrels' ranking at every larger budget, and what that
costs over all topics: docs/pooling.md). `--plot` draws the curves of every k.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from focal.evaluation.cli import numbers
from focal.evaluation.cli.lists import list_option
from focal.reliability.cli.options import (
    emit,
    one_line_errors,
    progress,
    study_options,
    study_setup,
)
from focal.reliability.tables import Table, parse_integers

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from focal.reliability.ordering import RankingRow, TopicOrders


@click.command("simulate")
@list_option(
    "--policy",
    "policies",
    default="rank,random,mtf,ucb,thompson,thompson-ns",
    show_default=True,
    help="Judging orders to replay, comma-separated or repeated (docs/pooling.md).",
)
@click.option(
    "--repeats",
    type=numbers.TRIALS,
    default=5,
    show_default=True,
    help="Replays of each random policy (seeds SEED, SEED+1, ...); the others run once.",
)
@click.option("--seed", type=numbers.SEED, default=0, show_default=True)
@list_option(
    "--budgets",
    default="10,20,50,100",
    show_default=True,
    help="Judgements per topic at which the runs are ranked again.",
)
@list_option(
    "--steps",
    default="10,20,50,100,200,500",
    show_default=True,
    help="Judgements per topic at which the curves table reports.",
)
@click.option(
    "--pool",
    "scope",
    type=click.Choice(["runs", "qrels"]),
    default="runs",
    show_default=True,
    help="Pool the judged articles the RUNs retrieve, or every judged article of QRELS.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Draw the curves (share of relevant articles found) to this PNG, SVG or PDF file.",
)
@study_options
@one_line_errors
def simulate(
    policies: str, repeats: int, seed: int, budgets: str, steps: str, plot: Path | None, scope: str,
    task: str, measure: str | None, alpha: float, output_format: str, jobs: int,
    qrels_path: Path, run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Replay the qrels under each judging order: judgements needed, curves, run rankings."""
    from focal.reliability.cli.options import ranked_runs
    from focal.reliability.ordering import (
        PoolScope,
        budget_rows,
        ranking_rows,
        settled_rows,
        simulate_orders,
    )

    chosen = [name.strip() for name in policies.split(",") if name.strip()]
    at_budgets = parse_integers(budgets, "budget", 1, 10**6)
    at_steps = parse_integers(steps, "step", 1, 10**6)
    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    setup = replace(setup, test_seed=seed)
    from focal.pooling.ranked import as_ranked

    ranked = as_ranked(ranked_runs(run_paths))
    topics = simulate_orders(
        setup.qrels, ranked, chosen, repeats, seed, progress, cast(PoolScope, scope)
    )
    shown = [row for row in budget_rows(topics, chosen)]
    budget_table: Table = [
        dict(row) for row in shown if output_format != "text" or row["topic"] == "all"
    ]
    curve_table, drawn = _curve_rows(topics, chosen, at_steps)
    rankings = _ranking_table(ranking_rows(setup, topics, chosen, at_budgets, progress))
    settled = [asdict(row) for row in settled_rows(setup, topics, chosen, progress)]
    emit({"budgets": budget_table, "curves": curve_table, f"rankings {setup.measure}": rankings,
          f"settled {setup.measure}": cast(Table, settled)}, output_format)  # fmt: skip
    if plot is not None:
        from focal.reliability.plots import plot_judging_curves

        plot_judging_curves(drawn, plot)


def _curve_rows(
    topics: Sequence[TopicOrders], chosen: list[str], at_steps: list[int]
) -> tuple[Table, dict[str, NDArray[np.float64]]]:
    """The curves table (each policy at each step; a step past the longest pool reports the
    last judgement) and, per policy, the share of relevant articles found to draw."""
    from focal.reliability.ordering import curves

    curve_table: Table = []
    drawn = {}
    for name in chosen:
        found, share, characters = curves(topics, name)
        drawn[name] = share
        for step in at_steps:
            k = min(step, len(found) - 1)
            curve_table.append(
                {
                    "policy": name,
                    "judgements": step,
                    "relevant": float(found[k]),
                    "relevant_share": float(share[k]),
                    "characters_share": float(characters[k]),
                }
            )
    return curve_table, drawn


def _ranking_table(rows: Sequence[RankingRow]) -> Table:
    """The rankings table: τ and τ_AP of each policy at each budget."""
    return [
        {
            "policy": row.policy,
            "budget": row.budget,
            "judged": row.judged,
            "relevant": row.relevant,
            "tau": row.tau,
            "tau_sd": row.tau_sd,
            "tau_ap": row.tau_ap,
            "tau_ap_sd": row.tau_ap_sd,
        }
        for row in rows
    ]
