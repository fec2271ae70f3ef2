"""Swap-rate curves: observed error rates by topic-set size and their exponential fits."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluation.output.figures import (
    drawing,
    figure_path,
    legend_outside,
    line_style,
    write_figure,
)
from evaluation.statistics.swap_rates import SwapRates


def plot_swap_rates(rates: SwapRates, all_topics: int, path: str | Path) -> None:
    """One line per tolerance: points observed, the fitted curve extrapolated to `all_topics`.

    Tolerances in increasing order, each with its own marker and line style; the legend sits
    outside the axes (`evaluation.output.figures`).
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
