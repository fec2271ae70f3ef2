"""`focal reliability sample` and `depth`: the judgements reduced, the runs scored again
(Pal et al. 2011, "Pool Sampling"; spec section 9)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from focal.evaluation.cli import numbers
from focal.evaluation.cli.lists import list_option
from focal.reliability.cli.options import (
    emit,
    one_line_errors,
    progress,
    ranked_runs,
    significance_options,
    study_options,
    study_setup,
)
from focal.reliability.cli.pool_percent import percent_pools, plot_levels
from focal.reliability.judgements import LeaveOutMethod, Population
from focal.reliability.tables import Table, parse_integers, parse_numbers

if TYPE_CHECKING:
    from focal.reliability.leave_out import LeaveOut


@click.command("sample")
@list_option("--fractions", default="80,60,40,20", show_default=True, help="Percent kept.")
@click.option("--repeats", type=numbers.TRIALS, default=10, show_default=True)
@click.option("--seed", type=numbers.SEED, default=0, show_default=True)
@click.option(
    "--population",
    type=click.Choice(["relevant", "judged"]),
    default="relevant",
    show_default=True,
    help="Sample among relevant articles (Pal et al. 2011) or all judged ones.",
)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Pal et al. 2011, Fig 1: tau by percent kept (.png, .svg).")  # fmt: skip
@significance_options
@study_options
@one_line_errors
def sample(
    fractions: str, repeats: int, seed: int, population: str, plot_path: str | None, test: str,
    correction: str, task: str, measure: str | None, alpha: float, output_format: str,
    jobs: int, qrels_path: Path, run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Random pool sampling at article granularity (Pal et al. 2011 Tables 1-2), and the relevant
    articles a sample needs for a mean τ of 0.9 (Table 3)."""
    from focal.reliability.studies import pool_sampling

    percents = parse_numbers(fractions, "fraction", 0, 100)
    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    setup = replace(setup, test=test, correction=correction, test_seed=seed)
    rows = pool_sampling(
        setup,
        [p / 100 for p in percents],
        repeats,
        seed,
        cast(Population, population),
        progress,
    )
    table: Table = [
        {
            "percent": int(percent) if percent.is_integer() else percent,
            "repeats": row.repeats,
            "relevant": row.relevant,
            "tau_mean": row.tau.mean,
            "tau_sd": row.tau.sd,
            "tau_ap_mean": row.tau_ap.mean,
            "tau_ap_sd": row.tau_ap.sd,
            "change_mean": row.change.mean,
            "change_sd": row.change.sd,
            "significant_full": row.significant_full,
            "kept_mean": row.kept.mean,
            "kept_sd": row.kept.sd,
        }
        for percent, row in zip(percents, rows, strict=True)
    ]
    from focal.reliability.queries import threshold

    relevant = sum(1 for topic in setup.qrels.values() for j in topic.values() if j.relevant)
    found = threshold([row.relevant for row in rows], [row.tau.mean for row in rows])
    summary: Table = [
        {"threshold": found.threshold, "relevant_all": relevant, "reaching": found.reaching,
         "below": found.below, "needed": found.text(relevant)}
    ]  # fmt: skip
    emit({f"sample {setup.measure}": table, "summary": summary}, output_format)
    if plot_path:
        plot_levels(
            percents, [(r.tau.mean, r.tau.sd) for r in rows],
            [(r.tau_ap.mean, r.tau_ap.sd) for r in rows], "relevant articles kept (%)",
            f"{setup.measure}: rankings with sampled judgements ({repeats} repeats)", plot_path,
        )  # fmt: skip


@click.command("depth")
@list_option("--depths", default="5,10,20,50,100", show_default=True, help="Articles per run.")
@list_option("--pool-percent", "pool_percents", default=None,
              help="Instead of --depths: Pal et al. 2011's X %% pools (e.g. 5,10,20,...,90), each "
              "topic's depth chosen so that its pool holds X %% of its original pool size, "
              "against the 100 %% pool rebuilt the same way (Tables 4-5).")  # fmt: skip
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Pal et al. 2011, Fig 2: tau by depth or percent (.png, .svg).")  # fmt: skip
@list_option(
    "--holding",
    default="50,80,90,100",
    show_default=True,
    help="Per topic, the depth whose pool holds this percent of its relevant articles.",
)
@significance_options
@study_options
@one_line_errors
def depth(
    depths: str, pool_percents: str | None, plot_path: str | None, holding: str, test: str,
    correction: str, task: str, measure: str | None, alpha: float, output_format: str,
    jobs: int, qrels_path: Path, run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Qrels restricted to the depth-d pool of the runs, or to Pal et al. 2011's X % pools against
    the 100 % pool (Pal et al. 2011 Tables 4-5)."""
    from focal.pooling.ranked import as_ranked
    from focal.reliability.judgements import depth_holding, depth_pools
    from focal.reliability.studies import pool_depths

    chosen = parse_integers(depths, "depth", 1, 10**6)
    shares = parse_numbers(holding, "share", 0, 100)
    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    setup = replace(setup, test=test, correction=correction)
    ranked = as_ranked(ranked_runs(run_paths))
    if pool_percents is not None:
        percent_pools(setup, ranked, pool_percents, output_format, plot_path)
        return
    rows = pool_depths(setup, depth_pools(ranked, chosen), progress)
    if plot_path:
        plot_levels(
            [r.depth for r in rows], [(r.comparison.tau, 0.0) for r in rows],
            [(r.comparison.tau_ap, 0.0) for r in rows], "pool depth (articles per run)",
            f"{setup.measure}: rankings with depth-d pools", plot_path,
        )  # fmt: skip
    table: Table = [
        {
            "depth": row.depth,
            "judged": row.judged,
            "relevant": row.relevant,
            "tau": row.comparison.tau,
            "tau_ap": row.comparison.tau_ap,
            "change": row.comparison.change,
            "significant_full": row.comparison.significant_full,
            "kept": row.comparison.kept,
        }
        for row in rows
    ]
    deepest = max(chosen)
    per_share = {s: depth_holding(ranked, setup.qrels, s / 100, deepest) for s in shares}
    topics: Table = [
        {
            "topic": topic,
            "relevant": sum(1 for j in judgements.values() if j.relevant),
            **{f"depth_{s:g}": per_share[s][topic] for s in shares},
        }
        for topic, judgements in setup.qrels.items()
    ]
    emit({f"depth {setup.measure}": table, "topics": topics}, output_format)


@click.command("leave-out")
@click.option(
    "--groups",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="`run-id<TAB>group` lines; unlisted runs are groups of their own.",
)
@click.option("--depth", "pool_depth", type=numbers.RANK, help="Depth-D pool (articles).")
@click.option("--size", "pool_size", type=numbers.RANK, help="Top-n pool of N articles.")
@click.option(
    "--method",
    type=click.Choice(["unique", "repool"]),
    default="unique",
    show_default=True,
    help="unique: the group's sole contributions become unjudged, other runs keep their depths "
    "(Pal et al. 2011); repool: the pool is built again without the group (Piwowarski et al. "
    "2008).",
)
@study_options
@one_line_errors
def leave_out(
    groups: Path, pool_depth: int | None, pool_size: int | None, method: str, task: str,
    measure: str | None, alpha: float, output_format: str, jobs: int, qrels_path: Path,
    run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Leave one group out of the pool and score its runs again (Pal et al. 2011,
    Tables 8-10; Piwowarski et al. 2008, Table V: "Same", runs whose score changes
    significantly, and "Other", pairs of runs whose significant order changes). Scores average
    over every qrels topic, as `focal eval -c`."""
    from focal.pooling.io import read_groups
    from focal.pooling.ranked import as_ranked
    from focal.reliability.leave_out import leave_one_group_out

    if (pool_depth is None) == (pool_size is None):
        raise click.UsageError("give one of --depth D and --size N")
    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    group_of = read_groups(groups)
    given = {run.run_id for run in setup.runs}
    for run_id in group_of:
        if run_id not in given:
            raise ValueError(f"{groups}: run {run_id!r} is not among the given runs")
    ranked = as_ranked(ranked_runs(run_paths))
    study = leave_one_group_out(
        setup,
        ranked,
        group_of,
        pool_depth,
        pool_size,
        cast(LeaveOutMethod, method),
        progress,
    )
    pool = f"depth {pool_depth}" if pool_depth else f"top-{pool_size}"
    click.echo(
        f"{pool} pool, method {method}: {study.judged_full} of {study.judged_in_qrels} "
        f"judgements in the baseline; {setup.measure} averaged over every qrels topic",
        err=True,
    )
    emit(_leave_out_tables(study), output_format)


def _leave_out_tables(study: LeaveOut) -> dict[str, Table]:
    """The study's four tables: each run's scores and ranks with and without its group, how
    many runs (and topic runs) changed by how much, each run's paired t-test, and Table V."""
    runs: Table = [
        {
            "group": row.group,
            "run": row.run,
            "score_full": row.score_full,
            "score_left_out": row.score_left_out,
            "rank_full": row.rank_full,
            "rank_left_out": row.rank_left_out,
        }
        for row in study.runs
    ]
    changes: Table = [
        {"change_percent": label, "runs": overall, "topic_runs": per_topic}
        for (label, overall), per_topic in zip(
            study.change_counts(per_topic=False).items(),
            study.change_counts(per_topic=True).values(),
            strict=True,
        )
    ]
    tests: Table = [
        {"group": r.group, "run": r.run, "t": r.t, "p": r.p, "significant": r.significant}
        for r in study.runs
    ]
    table_v: Table = [
        {"row": row, "count": count, "of": total, "percent": 100 * count / total if total else None}
        for row, count, total in study.table_v()
    ]
    return {"runs": runs, "changes": changes, "paired_t": tests, "table_v": table_v}
