"""Output files appear whole or not at all, with the mode the user's umask gives a new file."""

from __future__ import annotations

import doctest
import importlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from focal.evaluation.output.figures import drawing, figure_path, write_figure
from focal.evaluation.output.files import atomic_write, replacing


@pytest.fixture(params=[0o022, 0o077], ids=["umask-022", "umask-077"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    mask: int = request.param
    previous = os.umask(mask)
    try:
        yield mask
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_written_file_has_the_mode_of_a_new_file(tmp_path: Path, umask: int) -> None:
    atomic_write(tmp_path / "out.tsv", ["a\n", "b\n"])
    assert mode(tmp_path / "out.tsv") == {0o022: 0o644, 0o077: 0o600}[umask]
    assert (tmp_path / "out.tsv").read_text(encoding="utf-8") == "a\nb\n"


def test_a_figure_has_the_mode_of_a_new_file(tmp_path: Path, umask: int) -> None:
    for name in ("plot.svg", "plot.PNG"):
        with drawing(2, 2) as (figure, axes):
            axes.plot([0, 1], [1, 0])
            write_figure(figure, tmp_path / name)
        assert mode(tmp_path / name) == {0o022: 0o644, 0o077: 0o600}[umask]
    assert (tmp_path / "plot.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert (tmp_path / "plot.PNG").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.PNG", "plot.svg"]


def test_a_private_file_is_its_owners_only(tmp_path: Path, umask: int) -> None:
    atomic_write(tmp_path / "secret", "key", private=True)
    assert mode(tmp_path / "secret") == 0o600
    assert (tmp_path / "secret").read_text(encoding="utf-8") == "key"


def test_a_failed_write_leaves_the_old_file_and_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "out.tsv"
    target.write_text("old\n", encoding="utf-8")

    def lines() -> Iterator[str]:
        yield "new\n"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        atomic_write(target, lines())
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.tsv"]


def test_the_temporary_file_is_hidden_beside_the_target_until_the_rename(tmp_path: Path) -> None:
    with replacing(tmp_path / "out.tsv") as temporary:
        assert temporary.parent == tmp_path and temporary.name.startswith(".out.tsv.")
        assert not (tmp_path / "out.tsv").exists()
        temporary.write_text("done\n", encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["out.tsv"]


def test_a_figure_file_must_be_png_or_svg(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"must end in \.png or \.svg: .*plot\.pdf"):
        figure_path(tmp_path / "plot.pdf")


def test_doctests() -> None:
    result = doctest.testmod(importlib.import_module("focal.evaluation.output.tables"))
    assert result.attempted > 0 and result.failed == 0
