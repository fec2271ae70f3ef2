"""Swap-rate curves: observed error rates by topic-set size and their exponential fits; the
rank correlations of query sampling by topic-set size (seed 004 Fig 3)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from evaluation.output.figures import drawing, figure_path, write_figure
from evaluation.statistics.swap_rates import SwapRates

if TYPE_CHECKING:
    from reliability.queries import QueryRow


def plot_swap_rates(rates: SwapRates, all_topics: int, path: str | Path) -> None:
    """One line per tolerance: points observed, the fitted curve extrapolated to `all_topics`."""
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        sizes = np.array(rates.sizes)
        span = np.arange(1, all_topics + 1)
        for column, (tolerance, fit) in enumerate(zip(rates.tolerances, rates.fits, strict=True)):
            observed = [rates.rate(row, column) for row in range(len(sizes))]
            (line,) = axes.plot(sizes, observed, "o", label=f"{tolerance * 100:g} %")
            if fit is not None:
                axes.plot(span, fit.a * np.exp(-fit.b * span), color=line.get_color())
        axes.axhline(0.05, color="grey", linewidth=0.8, linestyle="--")
        axes.set(xlabel="topics per subset", ylabel="error rate", ylim=(0, None))
        axes.set_title("swap rates by tolerance, with exponential fits")
        axes.legend(title="tolerance")
        write_figure(figure, target)


def plot_query_sampling(rows: Sequence[QueryRow], measure: str, path: str | Path) -> None:
    """Mean τ and τ_AP against the ranking on every topic, by topics sampled, with bars of one
    standard deviation over the trials and the 0.9 line (seed 004 Fig 3)."""
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        sizes = [row.size for row in rows]
        axes.errorbar(sizes, [r.tau.mean for r in rows], yerr=[r.tau.sd for r in rows],
                      marker="o", capsize=3, label="Kendall τ_b")  # fmt: skip
        axes.errorbar(sizes, [r.tau_ap.mean for r in rows], yerr=[r.tau_ap.sd for r in rows],
                      marker="s", capsize=3, label="τ_AP")  # fmt: skip
        axes.axhline(0.9, color="grey", linewidth=0.8, linestyle="--")
        axes.set(xlabel="topics sampled", ylabel="correlation with all topics", ylim=(None, 1.02))
        axes.set_title(f"{measure}: rankings on random topic sets ({rows[0].trials} trials)")
        axes.legend()
        write_figure(figure, target)
