"""Write a comparison of runs: the seed 002 significance matrix, tab-separated pairs, JSON, a
heatmap of adjusted p-values, Sakai's ASL curve and the agreement of two comparisons."""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from evaluation.statistics.significance.measure_agreement import Agreement
from evaluation.statistics.significance.pairwise import Comparison
from evaluation.statistics.significance.power import asl_curve, discriminative_power

TSV_HEADER = "run_a\trun_b\tmean_a\tmean_b\tdiff\tstatistic\tp\tp_adjusted\tsignificant"
FORMATS = ("text", "tsv", "json")
PLOT_SUFFIXES = (".png", ".svg")


def number(value: float) -> str:
    """A float as the shortest text that reads back to the same double (`nan`, `inf` as such)."""
    return repr(float(value)) if math.isfinite(value) else str(value)


def describe(comparison: Comparison, measure: str) -> str:
    """One line: what was tested, how, and on how many topics."""
    return (
        f"{measure}: {comparison.test} test ({comparison.alternative}), "
        f"correction {comparison.correction}, alpha {comparison.alpha}; "
        f"{comparison.scores.description}"
    )


def ranked(comparison: Comparison) -> list[tuple[str, float]]:
    """Runs by decreasing mean (ties in the order given)."""
    means = comparison.means()
    order = sorted(range(len(means)), key=lambda i: -list(means.values())[i])
    return [(list(means)[i], list(means.values())[i]) for i in order]


def significant_map(comparison: Comparison) -> dict[frozenset[str], bool]:
    return {frozenset((r.run_a, r.run_b)): r.significant for r in comparison.pairs}


def write_text(comparison: Comparison, measure: str, stream: TextIO) -> None:
    """The significance matrix of seed 002 (Figures 8–15): runs by mean, `*` where a pair
    differs significantly after correction, `-` where not; columns numbered as the rows."""
    runs = ranked(comparison)
    significant = significant_map(comparison)
    width = max(len(name) for name, _ in runs)
    stream.write(f"# {describe(comparison, measure)}\n")
    numbers = " ".join(f"{n:>3}" for n in range(1, len(runs) + 1))
    stream.write(f"{'':>3} {'run':<{width}}  {'mean':>8}  {numbers}\n")
    for row, (name, mean) in enumerate(runs, start=1):
        cells = []
        for column, (other, _) in enumerate(runs, start=1):
            mark = "." if column == row else "*" if significant[frozenset((name, other))] else "-"
            cells.append(f"{mark:>3}")
        stream.write(f"{row:>3} {name:<{width}}  {mean:8.4f}  {' '.join(cells)}\n")
    found = sum(significant.values())
    stream.write(f"# {found} of {len(significant)} pairs significant\n")
    if comparison.test == "sakai":
        power = discriminative_power(comparison)
        below = round(power * len(comparison.pairs))
        stream.write(
            f"# discriminative power: {below} of {len(comparison.pairs)} pairs "
            f"({100 * power:.1f}%) with ASL < {comparison.alpha}\n"
        )


def write_tsv(comparison: Comparison, measure: str, stream: TextIO) -> None:
    """One row per pair i < j in the order the runs were given."""
    stream.write(TSV_HEADER + "\n")
    for r in comparison.pairs:
        values = (r.mean_a, r.mean_b, r.diff, r.statistic, r.p, r.p_adjusted)
        numbers = "\t".join(number(v) for v in values)
        stream.write(f"{r.run_a}\t{r.run_b}\t{numbers}\t{str(r.significant).lower()}\n")


def write_json(comparison: Comparison, measure: str, stream: TextIO) -> None:
    """Settings, runs with their means, topics used and dropped, and every pair."""
    # fmt: off
    document: dict[str, Any] = {
        "measure": measure,
        "test": comparison.test,
        "alternative": comparison.alternative,
        "correction": comparison.correction,
        "alpha": comparison.alpha,
        "complete": comparison.scores.complete,
        "topics": list(comparison.scores.topics),
        "dropped_topics": list(comparison.scores.dropped),
        "runs": [{"run_id": name, "mean": mean} for name, mean in comparison.means().items()],
        "pairs": [
            {
                "run_a": r.run_a, "run_b": r.run_b, "mean_a": r.mean_a, "mean_b": r.mean_b,
                "diff": r.diff, "statistic": _finite(r.statistic), "p": _finite(r.p),
                "p_adjusted": _finite(r.p_adjusted), "significant": r.significant,
            }
            for r in comparison.pairs
        ],
    }
    # fmt: on
    if comparison.test == "sakai":
        document["discriminative_power"] = discriminative_power(comparison)
    json.dump(document, stream, indent=2)
    stream.write("\n")


WRITERS: dict[str, Callable[[Comparison, str, TextIO], None]] = {
    "text": write_text,
    "tsv": write_tsv,
    "json": write_json,
}


def write_curve(comparison: Comparison, path: str | Path) -> None:
    """Sakai's ASL curve as `rank run_a run_b asl`, pairs by increasing ASL (atomic write)."""
    lines = ["rank\trun_a\trun_b\tasl\n"] + [
        f"{p.rank}\t{p.run_a}\t{p.run_b}\t{number(p.asl)}\n" for p in asl_curve(comparison)
    ]
    _atomic(path, lambda temporary: Path(temporary).write_text("".join(lines), encoding="utf-8"))


def write_agreement(agreement: Agreement, names: tuple[str, str], fmt: str, out: TextIO) -> None:
    """Seed 000 Tables 3–4: significant pairs under X and Y, both, precision, recall, F1."""
    row = {
        "x": names[0], "y": names[1], "significant_x": len(agreement.x),
        "significant_y": len(agreement.y), "both": len(agreement.both),
        "reversed": agreement.reversed, "precision": agreement.precision,
        "recall": agreement.recall, "f1": agreement.f1,
    }  # fmt: skip
    if fmt == "json":
        json.dump({k: _finite(v) if isinstance(v, float) else v for k, v in row.items()}, out)
        out.write("\n")
    elif fmt == "tsv":
        out.write("\t".join(row) + "\n")
        out.write("\t".join(number(v) if isinstance(v, float) else str(v) for v in row.values()))
        out.write("\n")
    else:
        out.write(f"X = {names[0]}: {len(agreement.x)} significant pairs\n")
        out.write(f"Y = {names[1]}: {len(agreement.y)} significant pairs (the reference)\n")
        out.write(f"both: {len(agreement.both)} ({agreement.reversed} with the winner reversed)\n")
        for name in ("precision", "recall", "f1"):
            out.write(f"{name}: {row[name]:.4f}\n")


def plot_heatmap(comparison: Comparison, measure: str, path: str | Path) -> None:
    """A heatmap of adjusted p-values, runs ordered by mean, `*` on significant pairs (.png or
    .svg, written atomically; matplotlib with the Agg backend, as `plot_curves`)."""
    target = Path(path)
    if target.suffix.lower() not in PLOT_SUFFIXES:
        raise ValueError(f"plot file must end in {' or '.join(PLOT_SUFFIXES)}: {target}")
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np
    from matplotlib import pyplot

    runs = [name for name, _ in ranked(comparison)]
    index = {name: i for i, name in enumerate(runs)}
    grid = np.full((len(runs), len(runs)), np.nan)
    size = max(4.0, 0.35 * len(runs) + 2)
    figure, axes = pyplot.subplots(figsize=(size + 1, size))
    try:
        for r in comparison.pairs:
            i, j = index[r.run_a], index[r.run_b]
            grid[i, j] = grid[j, i] = r.p_adjusted
            if r.significant and len(runs) <= 40:
                for x, y in ((i, j), (j, i)):
                    axes.text(y, x, "*", ha="center", va="center", color="white")
        image = axes.imshow(grid, vmin=0, vmax=1, cmap="viridis_r")
        figure.colorbar(image, ax=axes, label="adjusted p")
        labels = runs if len(runs) <= 40 else [str(n) for n in range(1, len(runs) + 1)]
        axes.set_xticks(range(len(runs)), labels, rotation=90, fontsize="small")
        axes.set_yticks(range(len(runs)), labels, fontsize="small")
        axes.set_title(f"{measure}: {comparison.test}, {comparison.correction}", fontsize="small")
        figure.tight_layout()
        _atomic(target, lambda temporary: figure.savefig(temporary, format=target.suffix[1:]))
    finally:
        pyplot.close(figure)


def _atomic(path: str | Path, write: Callable[[str], Any]) -> None:
    target = Path(path)
    handle, temporary = tempfile.mkstemp(suffix=target.suffix, dir=target.parent or ".")
    os.close(handle)
    try:
        write(temporary)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
