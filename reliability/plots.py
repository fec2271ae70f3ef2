"""Swap-rate curves: observed error rates by topic-set size and their exponential fits."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluation.statistics.swap_rates import SwapRates

SUFFIXES = (".png", ".svg")


def plot_swap_rates(rates: SwapRates, all_topics: int, path: str | Path) -> None:
    """One line per tolerance: points observed, the fitted curve extrapolated to `all_topics`."""
    target = Path(path)
    if target.suffix.lower() not in SUFFIXES:
        raise ValueError(f"plot file must end in {' or '.join(SUFFIXES)}: {target}")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 5))
    try:
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
        temporary = target.with_name(f".{target.name}.tmp{target.suffix}")
        figure.savefig(temporary)
        temporary.replace(target)
    finally:
        pyplot.close(figure)
