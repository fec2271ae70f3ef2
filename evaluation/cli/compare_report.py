"""Write a comparison of runs: the seed 002 significance matrix, tab-separated pairs, JSON, a
heatmap of adjusted p-values, Sakai's ASL curve and the agreement of two comparisons."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from evaluation.output.figures import drawing, figure_path, write_figure
from evaluation.output.files import atomic_write
from evaluation.output.tables import dump_json, table_lines
from evaluation.statistics.significance.measure_agreement import Agreement
from evaluation.statistics.significance.pairwise import Comparison
from evaluation.statistics.significance.power import asl_curve, discriminative_power

TSV_HEADER = "run_a\trun_b\tmean_a\tmean_b\tdiff\tstatistic\tp\tp_adjusted\tsignificant"
FORMATS = ("text", "tsv", "json")


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
    rows = [
        (r.run_a, r.run_b, r.mean_a, r.mean_b, r.diff, r.statistic, r.p, r.p_adjusted,
         str(r.significant).lower())
        for r in comparison.pairs
    ]  # fmt: skip
    stream.writelines(table_lines(TSV_HEADER.split("\t"), rows, "tsv"))


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
    dump_json(document, stream)


WRITERS: dict[str, Callable[[Comparison, str, TextIO], None]] = {
    "text": write_text,
    "tsv": write_tsv,
    "json": write_json,
}


def write_curve(comparison: Comparison, path: str | Path) -> None:
    """Sakai's ASL curve as `rank run_a run_b asl`, pairs by increasing ASL (atomic write)."""
    rows = [(p.rank, p.run_a, p.run_b, p.asl) for p in asl_curve(comparison)]
    atomic_write(path, table_lines(("rank", "run_a", "run_b", "asl"), rows, "tsv"))


def write_agreement(agreement: Agreement, names: tuple[str, str], fmt: str, out: TextIO) -> None:
    """Seed 000 Tables 3–4: significant pairs under X and Y, both, precision, recall, F1."""
    row = {
        "x": names[0], "y": names[1], "significant_x": len(agreement.x),
        "significant_y": len(agreement.y), "both": len(agreement.both),
        "reversed": agreement.reversed, "precision": agreement.precision,
        "recall": agreement.recall, "f1": agreement.f1,
    }  # fmt: skip
    if fmt == "json":
        document = {k: _finite(v) if isinstance(v, float) else v for k, v in row.items()}
        dump_json(document, out, indent=None)
    elif fmt == "tsv":
        out.writelines(table_lines(list(row), [list(row.values())], "tsv"))
    else:
        out.write(f"X = {names[0]}: {len(agreement.x)} significant pairs\n")
        out.write(f"Y = {names[1]}: {len(agreement.y)} significant pairs (the reference)\n")
        out.write(f"both: {len(agreement.both)} ({agreement.reversed} with the winner reversed)\n")
        for name in ("precision", "recall", "f1"):
            out.write(f"{name}: {row[name]:.4f}\n")


def plot_heatmap(comparison: Comparison, measure: str, path: str | Path) -> None:
    """A heatmap of adjusted p-values, runs ordered by mean, `*` on significant pairs (.png or
    .svg, written atomically; matplotlib with the Agg backend, as `plot_curves`)."""
    target = figure_path(path)
    import numpy as np

    runs = [name for name, _ in ranked(comparison)]
    index = {name: i for i, name in enumerate(runs)}
    grid = np.full((len(runs), len(runs)), np.nan)
    size = max(4.0, 0.35 * len(runs) + 2)
    with drawing(size + 1, size) as (figure, axes):
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
        write_figure(figure, target)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None
