"""Focal installs and answers without a C compiler (docs/packaging.md, docs/trec_eval.md "The C
part"): the wheel built with a compiler that fails (`CC=/bin/false`) says so in one line, holds
no compiled module, and its `focal trec_eval` prints the same bytes as this checkout's compiled
part on trec_eval 10.0's quicktest (../shared/data/trec_eval10) and on generated files.

The wheel is installed into a fresh environment that sees this one's dependencies through a path
entry (not a site folder, so this checkout's editable install is not among them)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from .distributions import build_wheel_saying
from .evaluation.cli.test_trec_eval_quicktest import CASES, DATA
from .wheel_smoke import write_inputs

pytestmark = pytest.mark.slow
PROJECT_FOCAL = Path(sys.executable).parent / "focal"
SKIPPED = "focal: the optional C speed-up was not built (no working C compiler"


@pytest.fixture(scope="module")
def without_c(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """(the wheel built with no working compiler, what its build said, its `focal` script)."""
    folder = tmp_path_factory.mktemp("no-compiler")
    wheel, said = build_wheel_saying(folder, compiler="/bin/false")
    environment = folder / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n", "utf-8")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
         "--no-index", str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    return wheel, said, environment / "bin" / "focal"


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON"))}


def _run(focal: Path, arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(focal), *arguments], cwd=cwd, env=_environment(), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_the_build_says_so_in_one_line_and_ships_no_compiled_module(
    without_c: tuple[Path, str, Path], tmp_path: Path
) -> None:
    wheel, said, focal = without_c
    assert [line for line in said.splitlines() if SKIPPED in line], said[-2000:]
    assert "error:" not in said.lower().replace("compileerror", "")  # no compiler's errors shown
    with zipfile.ZipFile(wheel) as archive:
        compiled = [n for n in archive.namelist() if n.endswith((".so", ".pyd"))]
    assert compiled == []
    version = _run(focal, ["--version"], tmp_path)
    assert version.returncode == 0, version.stderr
    assert "C part: not built" in version.stdout
    ours = _run(PROJECT_FOCAL, ["--version"], tmp_path)
    assert "C part: active" in ours.stdout  # the comparisons below are C against numpy


def test_trec_eval_prints_the_compiled_parts_bytes_on_generated_files(
    without_c: tuple[Path, str, Path], tmp_path: Path
) -> None:
    *_, focal = without_c
    qrels, run = write_inputs(tmp_path, seed=11)
    for words in (["trec_eval", "-q", "-m", "all_trec"], ["eval", "--task", "articles", "-q"]):
        numpy_path = _run(focal, [*words, str(qrels), str(run)], tmp_path)
        compiled = _run(PROJECT_FOCAL, [*words, str(qrels), str(run)], tmp_path)
        assert numpy_path.returncode == compiled.returncode == 0, numpy_path.stderr
        assert numpy_path.stdout == compiled.stdout and numpy_path.stdout.count("\n") > 20


@pytest.mark.skipif(not CASES, reason=f"trec_eval 10.0's quicktest files are absent ({DATA})")
def test_trec_eval_prints_the_real_programs_bytes_on_the_quicktest(
    without_c: tuple[Path, str, Path],
) -> None:
    """Every command of trec_eval 10.0's quicktest, run by the installed command in the data's
    folder: the bytes the real program printed, as the compiled part gives them
    (tests/evaluation/cli/test_trec_eval_quicktest.py)."""
    *_, focal = without_c
    for arguments, expected in CASES:
        done = _run(focal, ["trec_eval", *arguments], DATA)
        assert done.returncode == 0, (arguments, done.stderr)
        assert done.stdout.encode() == (DATA / expected).read_bytes(), arguments
