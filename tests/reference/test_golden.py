"""The official INEX evaluation program's output (golden/) reproduced by `focal eval`.

Every printed row must come out in the same order with the same measure and topic, every number
within 1e-12 — and, as it happens, printed identically (Java's `Double.toString`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command

# golden file stem -> (task, run file)
CASES = {
    "focused": ("focused", "indri-passages.fol.run"),
    "thorough": ("thorough", "indri-passages.fol.run"),
    "ric": ("ric", "indri-passages.ric.run"),
    "bic": ("bic", "indri-passages.bic.run"),
    "t2i": ("t2i", "indri-passages.ric.run"),
}
HEADER = re.compile(r'<eval run-id="([^"]*)" file="([^"]*)">')


def _rows(text: str) -> tuple[tuple[str, str], list[tuple[str, str, str]]]:
    lines = text.splitlines()
    header = HEADER.fullmatch(lines[0])
    assert header is not None, lines[0]
    assert lines[-1] == "</eval>"
    rows = []
    for line in lines[1:-1]:
        measure, topic, value = line.split()
        rows.append((measure, topic, value))
    return (header.group(1), Path(header.group(2)).name), rows


@pytest.mark.parametrize("complete", [False, True], ids=["average-answered", "complete"])
@pytest.mark.parametrize("stem", sorted(CASES))
def test_golden_output_is_reproduced(inex2010: Path, stem: str, complete: bool) -> None:
    task, run_file = CASES[stem]
    golden = inex2010 / "golden" / f"indri-passages.{stem}{'-complete' if complete else ''}.txt"
    arguments = [
        "--task",
        task,
        "-q",
        str(inex2010 / "inex2010.qrels"),
        str(inex2010 / "runs" / run_file),
    ]
    result = CliRunner().invoke(eval_command, ["-c", *arguments] if complete else arguments)
    assert result.exit_code == 0, result.output
    (run_id, file), rows = _rows(result.stdout)
    (golden_run_id, golden_file), golden_rows = _rows(golden.read_text())
    assert (run_id, file) == (golden_run_id, golden_file)
    assert [(m, t) for m, t, _ in rows] == [(m, t) for m, t, _ in golden_rows]
    for (measure, topic, value), (_, _, expected) in zip(rows, golden_rows, strict=True):
        assert float(value) == pytest.approx(float(expected), abs=1e-12, rel=0), (measure, topic)
    # Stronger than asked: the digits are the official program's too.
    assert [v for _, _, v in rows] == [v for _, _, v in golden_rows]


def test_golden_layout_tabs(inex2010: Path) -> None:
    """Short measure names get two tabs, as the official program aligns its columns."""
    qrels, run = inex2010 / "inex2010.qrels", inex2010 / "runs" / "indri-passages.fol.run"
    result = CliRunner().invoke(eval_command, [str(qrels), str(run)])
    golden = (inex2010 / "golden" / "indri-passages.focused.txt").read_text().splitlines()
    all_rows = [line for line in golden if "\tall\t" in line]
    assert result.stdout.splitlines()[1:-1] == all_rows
