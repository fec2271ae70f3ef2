"""The wheel installed on its own: it installs `focal` and nothing else at the top level, its
commands print what this checkout's print, and a user's folder of scripts named like Focal's old
top-level packages shadows nothing (docs/packaging.md).

The wheel is built from the sdist and repaired by auditwheel as `make wheel` builds it
(tests/distributions.py: a manylinux, abi3 wheel), and installed with its dependencies
into a fresh virtualenv in a temporary folder: pip takes them from the package index, or from its
cache when it holds them, which on a machine without the index makes the test skip, saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import focal

from .distributions import build_wheel, repair_wheel
from .wheel_smoke import generated, mean_average_precision, write_inputs

pytestmark = pytest.mark.slow
HERE = Path(__file__).resolve().parent
PROJECT_FOCAL = Path(sys.executable).parent / "focal"
# Scripts a user may keep, named like the packages Focal had at the top level before they moved
# under `focal`: importing any of them is a failure.
OLD_TOP_LEVEL = ("evaluation", "pooling", "assessor", "reliability")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the fresh environment it is installed in, with its dependencies)."""
    folder = tmp_path_factory.mktemp("wheel")
    wheel = repair_wheel(build_wheel(folder), folder / "wheelhouse")  # as `make wheel`
    assert "-cp311-abi3-manylinux" in wheel.name, wheel.name
    environment = folder / "venv"
    venv.create(environment, with_pip=True)
    done = subprocess.run(
        [str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    if done.returncode != 0 and "No matching distribution" in done.stderr:
        pytest.skip(f"the wheel's dependencies are not reachable: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stderr
    return wheel, environment


def _environment() -> dict[str, str]:
    """This process's environment without Focal's and Python's settings."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON"))}


def _focal(script: Path, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(script), *arguments], cwd=cwd, env=_environment(), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_the_distribution_installs_focal_and_nothing_else(installed: tuple[Path, Path]) -> None:
    wheel, environment = installed
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        record = archive.read(f"{info}/RECORD").decode()
        top_level = archive.read(f"{info}/top_level.txt").decode().split()
    assert top_level == ["focal"]
    tops = {line.split(",")[0].split("/")[0] for line in record.splitlines() if line}
    assert tops == {"focal", info}
    python = environment / "bin" / "python"
    shown = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('focal'))"],
        capture_output=True, text=True, check=True, cwd=environment, env=_environment(),
    )  # fmt: skip
    assert shown.stdout.strip() == focal.__version__


def test_the_installed_commands_print_what_the_checkout_prints(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, environment = installed
    qrels, run = write_inputs(tmp_path)
    commands = [["eval", "--task", "articles", "-q"], ["trec_eval", "-q", "-m", "all_trec"]]
    for words in commands:
        ours = _focal(environment / "bin" / "focal", *words, str(qrels), str(run), cwd=tmp_path)
        theirs = _focal(PROJECT_FOCAL, *words, str(qrels), str(run), cwd=tmp_path)
        assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
        assert ours.stdout == theirs.stdout and ours.stdout.count("\n") > 20, words
    versions = [_focal(s, "--version", cwd=tmp_path) for s in (environment / "bin" / "focal",
                                                                PROJECT_FOCAL)]  # fmt: skip
    installed_lines, project_lines = (v.stdout.splitlines() for v in versions)
    assert installed_lines[0] == f"focal {focal.__version__}"
    assert installed_lines[2] == project_lines[2]  # the C part: built by the wheel as here
    smoke = subprocess.run(
        [str(environment / "bin" / "python"), str(HERE / "wheel_smoke.py"),
         str(environment / "bin" / "focal")],
        capture_output=True, text=True, env=_environment(), timeout=300,
    )  # fmt: skip
    assert smoke.returncode == 0, smoke.stderr  # cibuildwheel's test command, here


def test_a_folder_of_scripts_named_like_the_old_packages_shadows_nothing(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, environment = installed
    for name in OLD_TOP_LEVEL:
        (tmp_path / f"{name}.py").write_text(
            f"raise SystemExit('the folder\\'s {name}.py was imported')\n", encoding="utf-8"
        )
    qrels, scores = generated(seed=3)
    session = (
        "import focal; "
        f"print(repr(focal.evaluate({qrels!r}, {scores!r}, ['AP'], complete=False)"
        "['value'].item()))"
    )
    done = subprocess.run(
        [str(environment / "bin" / "python"), "-c", session],
        cwd=tmp_path, env=_environment(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == pytest.approx(mean_average_precision(qrels, scores), abs=1e-12)
