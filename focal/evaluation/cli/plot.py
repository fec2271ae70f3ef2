"""Interpolated precision–recall curves of several runs in one figure (matplotlib, Agg): the
passage tasks' iP or gP curves, and for task articles trec_eval's iprec_at_recall."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from focal.evaluation.measures.evaluate import RunEvaluation, aggregate
from focal.evaluation.output.figures import (
    drawing,
    figure_path,
    legend_outside,
    line_style,
    write_figure,
)


def mean_curve(evaluation: RunEvaluation) -> tuple[list[float], list[float]]:
    """(recall levels, mean interpolated precision): the `ircl_prn` rows of the run."""
    rows = {k: float(v) for k, v in aggregate(evaluation).items() if k.startswith("ircl_prn.")}
    levels = [float(name.removeprefix("ircl_prn.")) for name in rows]
    return levels, list(rows.values())


Curve = tuple[str, list[float], list[float]]  # run id, recall levels, precision


def curve_area(precision: Sequence[float]) -> float:
    """The mean of a curve's interpolated precision over its recall levels (MAiP for the 101
    levels of the official program): the value the legend sorts and labels the runs by."""
    return sum(precision) / len(precision) if precision else 0.0


def plot_curves(evaluations: Sequence[RunEvaluation], path: str | Path) -> None:
    """Draw every run's curve into `path` (.png or .svg), written atomically."""
    task = evaluations[0].settings.task if evaluations else ""
    measure = "iP" if task in ("focused", "thorough") else "interpolated gP"
    draw_curves([(e.run_id, *mean_curve(e)) for e in evaluations], task, measure, path)


def draw_curves(curves: Sequence[Curve], task: str, measure: str, path: str | Path) -> None:
    """Draw `curves` (run id, recall levels, precision) into `path`, written atomically.

    Runs are drawn and listed best first, each labelled with the mean of its curve; each has
    its own marker and line style (`figures.line_style`), the legend sits outside the axes.
    """
    target = figure_path(path)
    ordered = sorted(curves, key=lambda curve: (-curve_area(curve[2]), curve[0]))
    with drawing(8, 5) as (figure, axes):
        for index, (run_id, levels, precision) in enumerate(ordered):
            label = f"{run_id} ({curve_area(precision):.4f})"
            style = line_style(index)
            axes.plot(
                levels, precision, label=label, linewidth=1.5, markersize=4,
                markevery=max(1, len(levels) // 10), marker=style["marker"],
                linestyle=style["linestyle"],
            )  # fmt: skip
        axes.set(xlabel="recall", ylabel=measure, xlim=(0, 1), ylim=(0, 1.02))
        axes.set_title(f"{task}: {measure} against recall")
        axes.grid(alpha=0.3)
        if ordered:
            legend_outside(axes, f"run (mean {measure})")
        write_figure(figure, target)
