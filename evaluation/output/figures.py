"""Figures drawn with matplotlib's Agg backend (no display needed), saved as .png or .svg.

A figure file is written as every output file is (`files.replacing`): whole or not at all, with
the mode the user's umask gives a new file.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from evaluation.output.files import replacing

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUFFIXES = (".png", ".svg")


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


def write_figure(figure: Figure, path: str | Path) -> None:
    """Save `figure` to `path` in the format its suffix names (.png or .svg), atomically."""
    target = figure_path(path)
    with replacing(target) as temporary:
        figure.savefig(temporary, format=target.suffix[1:].lower())
