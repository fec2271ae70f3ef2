"""Figures readable in print and without colour: markers and line styles, legends outside the
data and sorted, PNGs at 300 dpi (focal/evaluation/output/figures.py,
focal/evaluation/cli/plot.py)."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from focal.evaluation.cli import plot
from focal.evaluation.cli.eval.command import eval_command
from focal.evaluation.output.figures import DPI, drawing, legend_outside, line_style, write_figure

from ..cli.test_eval import QRELS, RUN


def png_dpi(path: Path) -> tuple[int, int]:
    """Dots per inch of a PNG, from its pHYs chunk (pixels per metre, unit 1)."""
    data = path.read_bytes()
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[at + 8 : at + 17])
            assert unit == 1
            return round(x * 0.0254), round(y * 0.0254)
        at += 12 + length
    raise AssertionError("no pHYs chunk")


def test_the_first_twenty_lines_differ_in_marker_or_style() -> None:
    pairs = {(s["marker"], s["linestyle"]) for s in (line_style(i) for i in range(20))}
    assert len(pairs) == 20


def test_the_legend_sits_outside_the_axes_and_a_png_has_300_dpi(tmp_path: Path) -> None:
    target = tmp_path / "f.png"
    with drawing(4, 3) as (figure, axes):
        for index in range(3):
            axes.plot([0, 1], [index, index + 1], label=f"line {index}", **line_style(index))
        legend_outside(axes, "lines")
        figure.canvas.draw()
        legend = axes.get_legend()
        assert legend is not None
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        assert legend.get_window_extent(renderer).x0 > axes.get_window_extent(renderer).x1
        write_figure(figure, target)
    assert DPI == 300 and png_dpi(target) == (300, 300)


def test_pr_curves_are_sorted_best_first_with_their_values_and_markers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, good, poor = tmp_path / "q.qrels", tmp_path / "good.run", tmp_path / "poor.run"
    qrels.write_text(QRELS)
    good.write_text(RUN.replace("mine", "good"))
    # "poor" ranks the article without relevant text first: its curve is lower.
    poor.write_text("1 Q0 b 1 2.0 poor 0 10\n1 Q0 a 2 1.0 poor 0 20\n")
    seen: dict[str, Any] = {}

    def capture(figure: Any, path: Any) -> None:
        axes = figure.axes[0]
        seen["labels"] = [text.get_text() for text in axes.get_legend().get_texts()]
        seen["markers"] = [line.get_marker() for line in axes.get_lines()]
        seen["styles"] = [line.get_linestyle() for line in axes.get_lines()]

    monkeypatch.setattr(plot, "write_figure", capture)
    target = tmp_path / "curves.png"
    result = CliRunner().invoke(
        eval_command, ["--plot", str(target), str(qrels), str(poor), str(good)]
    )
    assert result.exit_code == 0, result.output
    labels = seen["labels"]
    values = [float(label.rsplit("(", 1)[1].rstrip(")")) for label in labels]
    assert values[0] > values[1] and labels[0].startswith("good ("), labels
    assert len(set(seen["markers"])) == 2 and len(set(seen["styles"])) == 2
