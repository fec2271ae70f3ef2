"""Runs parsed ahead (`focal.evaluation.formats.fol.read_ahead`): the same parsings as parsing each
file when
it is needed, errors raised when the failing run is taken, and a bounded amount read ahead."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol import read_ahead as fol_ahead
from focal.evaluation.formats.fol.arrow_table import checked_fol
from focal.evaluation.formats.fol.read_ahead import ReadAhead, parse_file


def write_runs(folder: Path, count: int) -> list[str]:
    paths = []
    for number in range(count):
        lines = [
            f"{t} Q0 {100 + n} {n} 0.{9 - n} run{number} {10 * n} 5"
            for t in (1, 2)
            for n in range(4)
        ]
        path = folder / f"run{number}.fol"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return paths


def test_each_run_taken_is_the_parsing_of_its_file(tmp_path: Path) -> None:
    paths = write_runs(tmp_path, 6)
    with ReadAhead(paths) as runs:
        taken = [runs.take(index) for index in (0, 2, 1, 5, 4, 3)]  # in any order
    for index, parsed in zip((0, 2, 1, 5, 4, 3), taken, strict=True):
        assert parsed is not None
        table = checked_fol(parsed, passages=True)
        expected = checked_fol(parse_file(paths[index]) or pytest.fail(), passages=True)
        assert table is not None and expected is not None
        assert table.run_id == expected.run_id == f"run{index}"
        assert table.articles.tolist() == expected.articles.tolist()
        assert table.passages is not None and expected.passages is not None
        assert table.passages.starts.tolist() == expected.passages.starts.tolist()


def test_an_unreadable_run_fails_when_it_is_taken(tmp_path: Path) -> None:
    paths = write_runs(tmp_path, 3)
    paths[1] = str(tmp_path / "missing.fol")
    with ReadAhead(paths) as runs:
        assert runs.take(0) is not None
        with pytest.raises(FormatError, match=r"missing\.fol"):
            runs.take(1)
        assert runs.take(2) is not None


def test_a_file_the_fast_reader_refuses_is_none(tmp_path: Path) -> None:
    path = tmp_path / "tabs.fol"
    path.write_text("1\tQ0 100 1 0.5 r 0 10\n")
    with ReadAhead([str(path)]) as runs:
        assert runs.take(0) is None


def test_at_most_the_bound_is_read_ahead_and_at_least_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = write_runs(tmp_path, 5)
    size = Path(paths[0]).stat().st_size
    monkeypatch.setattr(fol_ahead, "AHEAD_BYTES", 2 * size)
    runs = ReadAhead(paths)
    try:
        assert runs._next == 2  # two files make the bound
        runs.take(0)
        assert runs._next == 3
    finally:
        runs.close()
    monkeypatch.setattr(fol_ahead, "AHEAD_BYTES", 0)
    with ReadAhead(paths) as runs:
        assert runs._next == 1  # a file larger than the bound is still read ahead, alone
        assert [runs.take(i) is not None for i in range(5)] == [True] * 5


def test_the_switch_interval_is_lowered_while_open_and_restored(tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    with ReadAhead(write_runs(tmp_path, 1)):
        assert sys.getswitchinterval() == min(before, fol_ahead.SWITCH_INTERVAL)
    assert sys.getswitchinterval() == before
