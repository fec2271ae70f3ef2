"""`focal reliability topics`, `queries` and `rankcorr`: how many topics, and how far two
rankings agree (Pal et al. 2011, "Error Rates" and "Query Sampling"; Voorhees & Buckley 2002; spec
section 9)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from focal.evaluation.cli import numbers
from focal.evaluation.cli.lists import list_option
from focal.evaluation.output.tables import Cell
from focal.reliability.cli.options import emit, one_line_errors, study_options, study_setup
from focal.reliability.tables import FORMATS, Table, parse_integers, parse_numbers

if TYPE_CHECKING:
    from focal.evaluation.statistics.swap_rates import Matrix, SwapRates


@click.command("topics")
@list_option("--sizes", default=None, help="Topic subset sizes (default 5, 10, ... up to half).")
@click.option("--trials", type=numbers.TRIALS, default=50, show_default=True)
@list_option("--tolerance", default="0,5,10,20,30", show_default=True, help="Percent.")
@click.option("--seed", type=numbers.SEED, default=0, show_default=True)
@click.option("--bins", "bin_size", type=int, default=None, help="Also Voorhees & Buckley's "
              "0.01-wide difference bins at this subset size.")  # fmt: skip
@click.option("--margin", type=click.Choice(["above", "at-least"]), default="above",
              show_default=True, help="A run beats another when its mean is higher by more "
              "than the tolerance (above) or by at least it (Pal et al. 2011).")  # fmt: skip
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Curves (.png, .svg).")
@study_options
@one_line_errors
def topics(
    sizes: str | None, trials: int, tolerance: str, seed: int, bin_size: int | None,
    margin: str, plot_path: str | None, task: str, measure: str | None, alpha: float,
    output_format: str, jobs: int, qrels_path: Path, run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Swap rates on disjoint topic subsets, their exponential fit, and the fewest topics for
    an error rate under 5 %."""
    import numpy as np

    from focal.evaluation.statistics.swap_rates import swap_rates

    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    full = setup.score(setup.qrels)
    half = len(full.topics) // 2
    if half < 1:
        raise ValueError(f"{qrels_path}: topic subsets need at least two topics")
    chosen = _subset_sizes(sizes, half)
    tolerances = _tolerances(tolerance)
    rng = np.random.default_rng(seed)
    rates = swap_rates(full.values, chosen, trials, tolerances, rng, margin == "at-least")
    table: Table = [
        {"size": size, **{f"error_{t * 100:g}": rates.rate(r, c) for c, t in enumerate(tolerances)}}
        for r, size in enumerate(chosen)
    ]
    fits = _fit_rows(rates, tolerances, chosen, len(full.topics))
    tables = {f"error rates {setup.measure}": table, "fit": fits}
    if bin_size is not None:
        tables["bins"] = _bin_rows(full.values, bin_size, half, trials, seed)
    emit(tables, output_format)
    if plot_path:
        from focal.reliability.plots import plot_swap_rates

        plot_swap_rates(rates, len(full.topics), plot_path)
        click.echo(f"plot written to {plot_path}", err=True)


def _subset_sizes(sizes: str | None, half: int) -> list[int]:
    """`--sizes`, else 5, 10, ... up to half the topics (half itself when fewer than 5)."""
    if sizes:
        return parse_integers(sizes, "topic subset size", 1, half)
    return list(range(min(5, half), half + 1, 5)) or [half]


def _tolerances(tolerance: str) -> list[float]:
    """`--tolerance`'s percentages as fractions, each at least 0."""
    tolerances = [p / 100 for p in parse_numbers(f"-1,{tolerance}", "tolerance", -2, 100)[1:]]
    if any(t < 0 for t in tolerances):
        raise ValueError("a tolerance is a percentage of at least 0")
    return tolerances


def _fit_rows(rates: SwapRates, tolerances: list[float], sizes: list[int], topics: int) -> Table:
    """A row per tolerance: the exponential fit of its error rates and the fewest topics for
    an error rate under 5 % (empty cells where no fit was possible).

    `error_at_all_topics` extrapolates the fit from the largest size measured to all the
    topics, and a warning on stderr says so; where it would exceed every error measured (a fit
    that rises with the topics, or through too few sizes), it is not printed and the warning
    says why (docs/reliability.md, "Fit")."""
    fits: Table = []
    extrapolated = False
    for column, (tolerance_value, fit) in enumerate(zip(tolerances, rates.fits, strict=True)):
        at_all = fit.predicted(topics) if fit else None
        measured = max(rates.rate(row, column) for row in range(len(sizes)))
        if at_all is not None and at_all > measured:
            click.echo(f"warning: tolerance {tolerance_value * 100:g} %: the fit gives "
                       f"{at_all:.4f} at {topics} topics, above every error measured (at most "
                       f"{measured:.4f}): not printed", err=True)  # fmt: skip
            at_all = None
        extrapolated = extrapolated or at_all is not None
        fits.append(
            {
                "tolerance": tolerance_value * 100,
                "a": fit.a if fit else None,
                "b": fit.b if fit else None,
                "sizes_fitted": fit.sizes_used if fit else 0,
                "error_at_all_topics": at_all,
                "minimum_topics": fit.minimum_topics if fit else None,
                "minimum_reported": fit.minimum_text(min(sizes), topics) if fit else None,
            }
        )
    if extrapolated:
        click.echo(f"warning: error_at_all_topics extrapolates each fit from {max(sizes)} topics "
                   f"(the largest size measured) to {topics}", err=True)  # fmt: skip
    return fits


def _bin_rows(values: Matrix, bin_size: int, half: int, trials: int, seed: int) -> Table:
    """Voorhees & Buckley's 0.01-wide difference bins at subset size `bin_size`."""
    import numpy as np

    from focal.evaluation.statistics.swap_rates import binned_swap_rates

    if not 1 <= bin_size <= half:
        raise ValueError(f"--bins {bin_size} is outside [1, {half}]")
    bins = binned_swap_rates(values, bin_size, trials, np.random.default_rng(seed))
    return [
        {"difference": low, "swaps": swaps, "comparisons": count, "error": swaps / count}
        for low, swaps, count in bins
    ]


@click.command("queries")
@list_option("--sizes", default=None, help="Topics per sample (default: 80, 60, 40 and 20 % of "
              "the topics, as Pal et al. 2011).")  # fmt: skip
@click.option("--trials", type=numbers.TRIALS, default=10, show_default=True)
@click.option("--seed", type=numbers.SEED, default=0, show_default=True)
@click.option("--threshold", type=numbers.Real(-1, 1), default=0.9, show_default=True,
              help="τ the summary looks for (Pal et al. 2011 Table 6).")  # fmt: skip
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Fig 3 (.png, .svg).")
@study_options
@one_line_errors
def queries(
    sizes: str | None, trials: int, seed: int, threshold: float, plot_path: str | None,
    task: str, measure: str | None, alpha: float, output_format: str, jobs: int,
    qrels_path: Path, run_paths: tuple[Path, ...],
    quant: str = "generalised", collection_dir: Path | None = None,
) -> None:  # fmt: skip
    """Rankings on random subsets of the topics against the ranking on all of them: mean and
    spread of τ_b and τ_AP per subset size (Pal et al. 2011, Fig 3), and the fewest topics whose
    mean τ reaches --threshold (their Table 6)."""
    from focal.reliability.queries import query_sampling
    from focal.reliability.queries import threshold as reaching

    setup = study_setup(qrels_path, run_paths, task, measure, alpha, jobs, quant, collection_dir)
    full = setup.score(setup.qrels)
    count = len(full.topics)
    chosen = (
        parse_integers(sizes, "topic sample size", 1, count)
        if sizes
        else sorted({max(1, round(p * count)) for p in (0.8, 0.6, 0.4, 0.2)}, reverse=True)
    )
    rows = query_sampling(full, chosen, trials, seed)
    table: Table = [
        {"topics": row.size, "percent": 100 * row.size / count, "trials": row.trials,
         "tau_mean": row.tau.mean, "tau_sd": row.tau.sd, "tau_min": row.tau_min,
         "tau_ap_mean": row.tau_ap.mean, "tau_ap_sd": row.tau_ap.sd}
        for row in rows
    ]  # fmt: skip
    found = reaching([r.size for r in rows], [r.tau.mean for r in rows], threshold)
    summary: Table = [
        {"threshold": threshold, "topics_all": count, "reaching": found.reaching,
         "below": found.below, "needed": found.text(count)}
    ]  # fmt: skip
    emit({f"queries {setup.measure}": table, "summary": summary}, output_format)
    if plot_path:
        from focal.reliability.plots import plot_correlations

        plot_correlations(
            [r.size for r in rows], [(r.tau.mean, r.tau.sd) for r in rows],
            [(r.tau_ap.mean, r.tau_ap.sd) for r in rows], "topics sampled",
            f"{setup.measure}: rankings on random topic sets ({trials} trials)", plot_path,
        )  # fmt: skip
        click.echo(f"plot written to {plot_path}", err=True)


@click.command("rankcorr")
@click.option("-m", "--measure", default=None, help="Measure of the `all` rows (default: both "
              "files' only ranked measure, AiP/MAiP, AgP/MAgP or MAP).")  # fmt: skip
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text")
@click.argument("reference", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("other", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@one_line_errors
def rankcorr(measure: str | None, output_format: str, reference: Path, other: Path) -> None:
    """Kendall τ_a, τ_b and τ_AP between the run rankings of two `focal eval --format tsv`
    outputs; the first is the reference (τ_AP is not symmetric)."""
    from focal.evaluation.statistics.rank_correlation import rank_correlation
    from focal.reliability.eval_tables import run_means

    chosen, reference_means = run_means(reference, measure)
    _, other_means = run_means(other, chosen)
    if set(reference_means) != set(other_means):
        missing = sorted(set(reference_means) ^ set(other_means))
        raise ValueError(f"{reference} and {other} rank different runs: {', '.join(missing[:5])}")
    if len(reference_means) < 3:
        raise ValueError(
            f"a rank correlation needs at least three runs, got {len(reference_means)}"
        )
    result = rank_correlation(reference_means, other_means)
    row: dict[str, Cell] = {"measure": chosen, "tau_a": result.tau_a, "tau_b": result.tau_b}
    emit({"rankcorr": [{**row, "tau_ap": result.tau_ap, "runs": result.runs}]}, output_format)
