"""Interpolated precision–recall curves of several runs in one figure (matplotlib, Agg): the
passage tasks' iP or gP curves, and for task articles trec_eval's iprec_at_recall."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaluation.measures.evaluate import RunEvaluation, aggregate
from evaluation.output.figures import drawing, figure_path, write_figure


def mean_curve(evaluation: RunEvaluation) -> tuple[list[float], list[float]]:
    """(recall levels, mean interpolated precision): the `ircl_prn` rows of the run."""
    rows = {k: float(v) for k, v in aggregate(evaluation).items() if k.startswith("ircl_prn.")}
    levels = [float(name.removeprefix("ircl_prn.")) for name in rows]
    return levels, list(rows.values())


Curve = tuple[str, list[float], list[float]]  # run id, recall levels, precision


def plot_curves(evaluations: Sequence[RunEvaluation], path: str | Path) -> None:
    """Draw every run's curve into `path` (.png or .svg), written atomically."""
    task = evaluations[0].settings.task if evaluations else ""
    measure = "iP" if task in ("focused", "thorough") else "interpolated gP"
    draw_curves([(e.run_id, *mean_curve(e)) for e in evaluations], task, measure, path)


def draw_curves(curves: Sequence[Curve], task: str, measure: str, path: str | Path) -> None:
    """Draw `curves` (run id, recall levels, precision) into `path`, written atomically."""
    target = figure_path(path)
    with drawing(7, 5) as (figure, axes):
        for run_id, levels, precision in curves:
            axes.plot(levels, precision, label=run_id, linewidth=1.5)
        axes.set(xlabel="recall", ylabel=measure, xlim=(0, 1), ylim=(0, 1.02))
        axes.set_title(f"{task}: {measure} against recall")
        axes.grid(alpha=0.3)
        if curves:
            axes.legend(loc="upper right", fontsize="small")
        write_figure(figure, target)
