"""Imports go one way: evaluation <- pooling <- assessor and reliability, downwards, no cycles.

The rules are import-linter contracts in pyproject.toml (docs/architecture.md); the last test
shows they are not vacuous: a copy of the packages with a new cycle and an upward import fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def test_pure_packages_do_not_import_the_web_stack() -> None:
    code = (
        "import sys, importlib, pkgutil\n"
        "import focal.evaluation, focal.pooling, focal.reliability\n"
        "for pkg in (focal.evaluation, focal.pooling, focal.reliability):\n"
        "    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "web = ('flask', 'sqlalchemy', 'focal.assessor')\n"
        "bad = sorted(m for m in sys.modules if m.startswith(web))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_focal_entry_point_is_cheap() -> None:
    code = (
        "import focal.assessor.cli.main, sys\n"
        "print(','.join(m for m in ('flask', 'sqlalchemy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_focal_command_resolves() -> None:
    from click import Command, Context

    from focal.assessor.cli.main import COMMANDS, main

    context = Context(main)
    for name in COMMANDS:
        assert isinstance(main.get_command(context, name), Command), name


REPOSITORY = Path(__file__).resolve().parents[1]


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(lint), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True
    )


def _copy_of_the_packages(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(
        REPOSITORY / "focal", tree / "focal", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    shutil.copy(REPOSITORY / "pyproject.toml", tree / "pyproject.toml")
    return tree


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")


def test_the_contracts_hold_and_refuse_a_new_cycle_or_an_upward_import(tmp_path: Path) -> None:
    tree = _copy_of_the_packages(tmp_path)
    kept = _lint_imports(tree)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "0 broken" in kept.stdout

    # A circle inside one folder: formats.inex.topics <-> formats.inex.submission.
    _append(
        tree / "focal/evaluation/formats/inex/topics.py",
        "import focal.evaluation.formats.inex.submission  # noqa",
    )
    _append(
        tree / "focal/evaluation/formats/inex/submission.py",
        "import focal.evaluation.formats.inex.topics  # noqa",
    )
    # A lower layer reaching up: the store importing the web app.
    _append(tree / "focal/assessor/store/texts.py", "import focal.assessor.web.app  # noqa")
    # Two independent top-level packages meeting: reliability importing the web app.
    _append(tree / "focal/reliability/scores.py", "import focal.assessor.web.app  # noqa")
    # The settings, a leaf, importing a stage.
    _append(tree / "focal/settings.py", "import focal.evaluation.errors  # noqa")
    broken = _lint_imports(tree)
    assert broken.returncode == 1
    report = broken.stdout
    assert "no import cycles between the modules or packages of any one folder BROKEN" in report
    assert "assessor: cli above web, above campaign, above judging, above store BROKEN" in report
    assert (
        ".topics -> .submission" in report or ".submission -> .topics" in report
    ) and "focal.assessor.store.texts" in report
    assert "focal.reliability.scores -> focal.assessor.web.app" in report
    assert (
        "the settings (focal.settings) are a leaf: they import no other module of focal BROKEN"
        in report
    )
