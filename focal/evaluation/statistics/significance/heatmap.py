"""The significance heatmap of a comparison, ready for a paper (`focal compare --plot`).

Runs are ordered by decreasing mean (seed 002's matrices, Figures 8–15). A two-sided test fills
one triangle: the cell of row i and column j > i is the pair of the better run i against the
worse run j. A one-sided test fills every off-diagonal cell, each with its own direction (row
`>` or `<` column, as tested). Each cell is coloured by its adjusted p-value and carries it as
text, with Hedges' g of row − column below it; significant cells are framed (in the text's
colour) and their p-value set in bold. The text is black or white, whichever contrasts more with
the cell's colour (the WCAG 2 contrast ratio of relative luminances), so that every cell stays
readable. Tick labels
give each run's mean; above 30 runs the cells carry no text (the colours and frames remain). In
SVG every cell also has a tooltip (an SVG `<title>`): both runs, the mean difference with its
interval, raw and adjusted p, d_z, g and ES_E.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from focal.evaluation.output.figures import drawing, figure_path, write_figure
from focal.evaluation.output.files import replacing
from focal.evaluation.statistics.significance.effects import Effects
from focal.evaluation.statistics.significance.pairwise import Comparison

MOST_LABELLED = 30
"""Above this many runs, cells carry no text: it would not fit."""


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance of an sRGB colour with channels in [0, 1].

    >>> relative_luminance((1.0, 1.0, 1.0)), relative_luminance((0.0, 0.0, 0.0))
    (1.0, 0.0)
    """

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: float, second: float) -> float:
    """WCAG 2's contrast ratio (L1 + 0.05) / (L2 + 0.05) of two luminances, the lighter over
    the darker: 1 (same) to 21 (black on white)."""
    light, dark = max(first, second), min(first, second)
    return (light + 0.05) / (dark + 0.05)


def text_colour(rgb: tuple[float, float, float]) -> str:
    """`black` or `white`, whichever contrasts more with a cell of colour `rgb`.

    >>> text_colour((0.99, 0.9, 0.14)), text_colour((0.27, 0.0, 0.33))
    ('black', 'white')
    """
    luminance = relative_luminance(rgb)
    return "black" if contrast(luminance, 0.0) >= contrast(luminance, 1.0) else "white"


def p_text(p: float) -> str:
    """A p-value as printed in a cell: three decimals, `<.001` below that.

    >>> p_text(0.0004), p_text(0.0123), p_text(1.0), p_text(float("nan"))
    ('<.001', '.012', '1.000', 'n/a')
    """
    if math.isnan(p):
        return "n/a"
    if p < 0.001:
        return "<.001"
    return f"{p:.3f}".removeprefix("0")


def tooltip(row: Any, effect: Any, tested: str, confidence: float) -> str:
    """The tooltip of a cell: what was tested, the difference with its interval, the p-values
    and the sizes, each of run_a − run_b."""
    level = f"{100 * confidence:g}%"
    return (
        f"{row.run_a} {tested} {row.run_b}: diff {effect.diff.estimate:+.4f} ({level} "
        f"{effect.diff.low:+.4f} to {effect.diff.high:+.4f}); p {row.p:.4g}, adjusted "
        f"{row.p_adjusted:.4g}; d_z {effect.d_z:+.3f}, g {effect.g:+.3f}, ES_E {effect.es_e:+.3f}"
    )


def cells(comparison: Comparison, effects: Effects) -> list[tuple[int, int, Any, Any]]:
    """(row, column, row of `comparison.pairs`, g as row − column) for every cell drawn, in the
    run order by decreasing mean."""
    means = comparison.means()
    order = sorted(means, key=lambda name: -means[name])
    index = {name: i for i, name in enumerate(order)}
    drawn = []
    for row, effect in zip(comparison.pairs, effects.pairs, strict=True):
        i, j = index[row.run_a], index[row.run_b]
        if comparison.alternative == "two-sided" and i > j:
            i, j = j, i  # the better run's row; the sizes turn with it
            drawn.append((i, j, row, -effect.g))
        else:
            drawn.append((i, j, row, effect.g))
    return drawn


def plot_heatmap(comparison: Comparison, effects: Effects, measure: str, path: str | Path) -> None:
    """Write the heatmap (.png or .svg, atomically; matplotlib's Agg backend)."""
    target = figure_path(path)
    import numpy as np
    from matplotlib import colormaps

    means = comparison.means()
    order = sorted(means, key=lambda name: -means[name])
    k = len(order)
    grid = np.full((k, k), np.nan)
    drawn = cells(comparison, effects)
    for i, j, row, _ in drawn:
        grid[i, j] = row.p_adjusted
    colours = colormaps["viridis"]
    size = max(4.5, 0.55 * k + 2.5)
    labelled = k <= MOST_LABELLED
    with drawing(size + 1.2, size) as (figure, axes):
        image = axes.imshow(np.ma.masked_invalid(grid), vmin=0, vmax=1, cmap=colours)
        tips = _draw_cells(axes, comparison, effects, drawn, colours, k)
        figure.colorbar(image, ax=axes, label="adjusted p", shrink=0.8)
        names = [f"{name} ({means[name]:.3f})" for name in order]
        _label_axes(axes, comparison, names if labelled else [str(n) for n in range(1, k + 1)])
        axes.set_title(_title(comparison, measure), fontsize="small")
        figure.tight_layout()
        if target.suffix.lower() == ".svg":
            _write_svg_with_tooltips(figure, target, tips)
        else:
            write_figure(figure, target)


def _draw_cells(
    axes: Any, comparison: Comparison, effects: Effects,
    drawn: list[tuple[int, int, Any, Any]], colours: Any, k: int,
) -> dict[str, str]:  # fmt: skip
    """Each drawn cell's hotspot, its frame when significant and, up to `MOST_LABELLED` runs,
    its text; the tooltip of each hotspot by its id."""
    effect_of = {
        (r.run_a, r.run_b): e for r, e in zip(comparison.pairs, effects.pairs, strict=True)
    }
    tips: dict[str, str] = {}
    for number, (i, j, row, g) in enumerate(drawn):
        effect = effect_of[(row.run_a, row.run_b)]
        tips[f"cell-{number}"] = tooltip(row, effect, comparison.tested, effects.confidence)
        axes.add_patch(_hotspot(i, j, f"cell-{number}"))
        rgba = colours(row.p_adjusted if math.isfinite(row.p_adjusted) else 0.0)
        ink = text_colour((rgba[0], rgba[1], rgba[2]))
        if row.significant:
            axes.add_patch(_frame(i, j, ink))
        if k > MOST_LABELLED:
            continue
        text = p_text(row.p_adjusted) + (f"\ng {g:+.2f}" if math.isfinite(g) else "")
        axes.text(
            j, i, text, ha="center", va="center", fontsize=7 if k <= 12 else 5,
            fontweight="bold" if row.significant else "normal",
            color=ink,
        )  # fmt: skip
    return tips


def _label_axes(axes: Any, comparison: Comparison, labels: list[str]) -> None:
    """A tick label per run (`labels`, in the cells' order); a two-sided test shows only its
    triangle: the best run has no column, the worst no row."""
    k = len(labels)
    columns, rows = list(range(k)), list(range(k))
    if comparison.alternative == "two-sided":
        columns, rows = columns[1:], rows[:-1]
        axes.set_xlim(0.5, k - 0.5)
        axes.set_ylim(k - 1.5, -0.5)
    axes.set_xticks(columns, [labels[c] for c in columns], rotation=90, fontsize="small")
    axes.set_yticks(rows, [labels[r] for r in rows], fontsize="small")


def _title(comparison: Comparison, measure: str) -> str:
    """The figure's title: the measure, the test and its direction, the correction, alpha."""
    tested = "row > column" if comparison.tested == ">" else "row < column"
    direction = tested if comparison.alternative != "two-sided" else "two-sided"
    return (
        f"{measure}: {comparison.test} ({direction}), {comparison.correction}, "
        f"alpha {comparison.alpha}; framed: significant; g: Hedges' g"
    )


def _hotspot(i: int, j: int, gid: str) -> Any:
    """An invisible patch over cell (i, j), with an SVG id to hang the tooltip on."""
    from matplotlib.patches import Rectangle

    patch = Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=0, alpha=0)
    patch.set_gid(gid)
    return patch


def _write_svg_with_tooltips(figure: Any, target: Path, tips: dict[str, str]) -> None:
    """Save as SVG with each `<g id="cell-n">` given a `<title>` (shown on hover), atomically."""
    import io
    from xml.sax.saxutils import escape

    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    text = buffer.getvalue()
    for gid, tip in tips.items():
        opening = f'<g id="{gid}">'
        text = text.replace(opening, f"{opening}<title>{escape(tip)}</title>", 1)
    with replacing(target) as temporary:
        Path(temporary).write_text(text, encoding="utf-8")


def _frame(i: int, j: int, ink: str) -> Any:
    """A frame inside cell (i, j), in the cell's text colour so that it shows on any colour."""
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.45, i - 0.45), 0.9, 0.9, fill=False, edgecolor=ink, linewidth=1.5)
