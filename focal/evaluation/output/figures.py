"""Figures drawn with matplotlib's Agg backend (no display needed), saved as .png or .svg.

A figure file is written as every output file is (`files.replacing`): whole or not at all, with
the mode the user's umask gives a new file. Every figure is readable in print and by readers
who cannot tell colours apart: each line has its own marker and line style as well as its
colour (`line_style`), legends sit outside the data (`legend_outside`), and a PNG is written at
300 dots per inch (an SVG is resolution-free).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from focal.evaluation.output.files import replacing

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUFFIXES = (".png", ".svg")
DPI = 300  # dots per inch of a PNG: print quality
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
LINE_STYLES = ("-", "--", "-.", ":")


def figure_path(path: str | Path) -> Path:
    """`path` if it ends in .png or .svg (either case), else ValueError: checked before drawing."""
    target = Path(path)
    if target.suffix.lower() not in SUFFIXES:
        raise ValueError(f"plot file must end in {' or '.join(SUFFIXES)}: {target}")
    return target


@contextmanager
def drawing(width: float, height: float) -> Iterator[tuple[Figure, Axes]]:
    """A figure of `width` x `height` inches with one set of axes, closed on leaving.

    matplotlib is imported here, on first use: the commands that draw nothing start without it.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(width, height))
    try:
        yield figure, axes
    finally:
        pyplot.close(figure)


def line_style(index: int) -> dict[str, str]:
    """The marker and line style of the `index`-th line of a figure, each pair different for
    the first 20 lines (10 markers, 4 styles, which advance together and wrap at different
    lengths).

    >>> line_style(0), line_style(1)
    ({'marker': 'o', 'linestyle': '-'}, {'marker': 's', 'linestyle': '--'})
    """
    return {
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": LINE_STYLES[index % len(LINE_STYLES)],
    }


def legend_outside(axes: Axes, title: str | None = None) -> None:
    """The legend to the right of the axes, outside the data, in the order the lines were
    drawn (callers draw them sorted)."""
    if not axes.get_legend_handles_labels()[0]:
        return
    axes.legend(
        loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small",
        title=title, frameon=False,
    )  # fmt: skip


def write_figure(figure: Figure, path: str | Path) -> None:
    """Save `figure` to `path` in the format its suffix names (.png at 300 dpi, or .svg),
    atomically; the bounding box grows to hold a legend placed outside the axes."""
    target = figure_path(path)
    with replacing(target) as temporary:
        figure.savefig(temporary, format=target.suffix[1:].lower(), dpi=DPI, bbox_inches="tight")
