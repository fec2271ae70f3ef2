"""Interpolated precision–recall curves of several runs in one figure (matplotlib, Agg)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from evaluation.measures.evaluate import RunEvaluation, aggregate

SUFFIXES = (".png", ".svg")


def mean_curve(evaluation: RunEvaluation) -> tuple[list[float], list[float]]:
    """(recall levels, mean interpolated precision): the `ircl_prn` rows of the run."""
    rows = {k: float(v) for k, v in aggregate(evaluation).items() if k.startswith("ircl_prn.")}
    levels = [float(name.removeprefix("ircl_prn.")) for name in rows]
    return levels, list(rows.values())


def plot_curves(evaluations: Sequence[RunEvaluation], path: str | Path) -> None:
    """Draw every run's curve into `path` (.png or .svg), written atomically."""
    target = Path(path)
    if target.suffix.lower() not in SUFFIXES:
        raise ValueError(f"plot file must end in {' or '.join(SUFFIXES)}: {target}")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 5))
    try:
        for evaluation in evaluations:
            levels, precision = mean_curve(evaluation)
            axes.plot(levels, precision, label=evaluation.run_id, linewidth=1.5)
        task = evaluations[0].settings.task if evaluations else ""
        measure = "iP" if task in ("focused", "thorough") else "interpolated gP"
        axes.set(xlabel="recall", ylabel=measure, xlim=(0, 1), ylim=(0, 1.02))
        axes.set_title(f"{task}: {measure} against recall")
        axes.grid(alpha=0.3)
        if evaluations:
            axes.legend(loc="upper right", fontsize="small")
        handle, temporary = tempfile.mkstemp(suffix=target.suffix, dir=target.parent or ".")
        os.close(handle)
        try:
            figure.savefig(temporary, format=target.suffix[1:].lower())
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    finally:
        pyplot.close(figure)
