"""Swap-rate curves: observed error rates by topic-set size and their exponential fits; rank
correlations by sample, pool or topic-set size (seed 004 Figs 1-3); coverage of runs not pooled
(seed 003 Fig 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from focal.evaluation.output.figures import (
    drawing,
    figure_path,
    legend_outside,
    line_style,
    write_figure,
)
from focal.evaluation.statistics.swap_rates import SwapRates


def plot_swap_rates(rates: SwapRates, all_topics: int, path: str | Path) -> None:
    """One line per tolerance: points observed, the fitted curve extrapolated to `all_topics`.

    Tolerances in increasing order, each with its own marker and line style; the legend sits
    outside the axes (`focal.evaluation.output.figures`).
    """
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        sizes = np.array(rates.sizes)
        span = np.arange(1, all_topics + 1)
        order = sorted(range(len(rates.tolerances)), key=lambda c: rates.tolerances[c])
        for index, column in enumerate(order):
            tolerance, fit = rates.tolerances[column], rates.fits[column]
            observed = [rates.rate(row, column) for row in range(len(sizes))]
            style = line_style(index)
            (line,) = axes.plot(sizes, observed, style["marker"], label=f"{tolerance * 100:g} %")
            if fit is not None:
                axes.plot(
                    span, fit.a * np.exp(-fit.b * span), color=line.get_color(),
                    linestyle=style["linestyle"],
                )  # fmt: skip
        axes.axhline(0.05, color="grey", linewidth=0.8, linestyle="--")
        axes.set(xlabel="topics per subset", ylabel="error rate", ylim=(0, None))
        axes.set_title("swap rates by tolerance, with exponential fits")
        legend_outside(axes, "tolerance")
        write_figure(figure, target)


def plot_judging_curves(shares: dict[str, np.ndarray], path: str | Path) -> None:
    """One line per judging order: the mean share of relevant articles found after k
    judgements per topic (`focal pool simulate --plot`); markers and line styles tell the lines
    apart without colour, and the legend lists the orders by their area under the curve."""
    target = figure_path(path)
    styles = ("-", "--", "-.", ":")
    markers = ("o", "s", "^", "D", "v", "P", "X", "*")
    ranked = sorted(shares, key=lambda name: -float(np.mean(shares[name])))
    with drawing(7, 5) as (figure, axes):
        for index, name in enumerate(ranked):
            values = shares[name]
            axes.plot(
                np.arange(len(values)), values, label=name,
                linestyle=styles[index % len(styles)], marker=markers[index % len(markers)],
                markevery=max(1, len(values) // 10),
            )  # fmt: skip
        axes.set(xlabel="judgements per topic", ylabel="share of relevant articles found")
        axes.set(ylim=(0, 1.02))
        axes.set_title("relevant articles found, by judging order")
        axes.legend(title="order (best first)", loc="lower right")
        write_figure(figure, target)


def plot_correlations(
    levels: Sequence[float], taus: Sequence[tuple[float, float]],
    taus_ap: Sequence[tuple[float, float]], xlabel: str, title: str, path: str | Path,
) -> None:  # fmt: skip
    """Mean τ and τ_AP (each `(mean, sd)` per level) against the reference ranking, by level
    (topics sampled, percent of the pool kept, pool depth), with bars of one standard deviation
    and the 0.9 line: seed 004 Figs 1-3."""
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        for values, marker, label in ((taus, "o", "Kendall τ_b"), (taus_ap, "s", "τ_AP")):
            axes.errorbar(levels, [m for m, _ in values], yerr=[sd for _, sd in values],
                          marker=marker, capsize=3, label=label)  # fmt: skip
        axes.axhline(0.9, color="grey", linewidth=0.8, linestyle="--")
        axes.set(xlabel=xlabel, ylabel="correlation with the reference ranking", ylim=(None, 1.02))
        axes.set_title(title)
        axes.legend()
        write_figure(figure, target)


def plot_coverage(
    curves: Mapping[int, tuple[Sequence[int], Sequence[float]]], kind: str, path: str | Path
) -> None:
    """Seed 003 Fig 3: per pool size (a line each), the share of the new runs' results at each
    rank or better that the pool holds; `curves` maps a pool size to (ranks, shares)."""
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        for size, (ranks, shares) in curves.items():
            axes.plot(ranks, [100 * share for share in shares], marker="o", label=str(size))
        axes.set(xlabel="rank in the new run (results at this rank or better)",
                 ylabel="results in the pool (%)", ylim=(0, 101))  # fmt: skip
        axes.set_title("How much of runs not pooled a pool would have judged")
        axes.legend(title="top-n pool" if kind == "topn" else "pool depth")
        write_figure(figure, target)
