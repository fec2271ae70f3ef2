"""The core install and its extras: `focal --help` stays light, `focal eval` needs no web stack,
and a command whose extra is missing says which one to install.

The extras are missing for real in a subprocess whose import system refuses them (a meta-path
finder placed first, which raises ModuleNotFoundError as an absent package would).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
HEAVY = ("flask", "sqlalchemy", "scipy", "matplotlib", "pandas", "pyarrow")

BLOCKER = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Absent())
from focal.assessor.cli.main import main
sys.exit(main({arguments!r}))
"""


def _without(blocked: tuple[str, ...], *arguments: str) -> subprocess.CompletedProcess[str]:
    code = BLOCKER.format(blocked=set(blocked), arguments=list(arguments))
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPOSITORY, capture_output=True, text=True, timeout=120
    )


def _imported(importtime: str) -> set[str]:
    """Top-level modules named in `python -X importtime`'s report (its third column)."""
    names = set()
    for line in importtime.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


def test_focal_help_imports_nothing_heavy() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "focal.assessor.cli.main", "--help"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    )
    imported = _imported(done.stderr)
    assert "click" in imported  # the report is read right: the group's own import is in it
    assert imported.isdisjoint(HEAVY), sorted(imported & set(HEAVY))
    # Every command is listed with its summary, read from its source without importing it.
    assert "  eval         Evaluate runs against qrels: INEX passage" in done.stdout
    assert "  serve        Serve the assessor web app" in done.stdout


def test_focal_eval_works_without_the_web_stack() -> None:
    done = _without(
        ("flask", "sqlalchemy", "werkzeug", "alembic", "matplotlib"),
        "eval",
        "demo/qrels/demo.qrels",
        "demo/runs/bm25-articles.run",
    )
    assert done.returncode == 0, done.stderr
    assert "num_rel\t\tall\t24" in done.stdout  # the demo qrels' 24 relevant articles


def test_a_command_whose_extra_is_missing_names_it_in_one_line() -> None:
    done = _without(("flask", "sqlalchemy"), "init-db")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "focal: this command needs sqlalchemy, which is not installed: "
        "pip install 'focal[assessor]'"
    ]


def test_the_lazy_listing_is_what_click_lists_with_every_command_loaded() -> None:
    import click
    from click.testing import CliRunner

    from focal.assessor.cli.main import COMMANDS, main

    context = click.Context(main)
    lazy = CliRunner().invoke(main, ["--help"], terminal_width=100).output
    for name in COMMANDS:  # the summary read from the source is the one click gives
        command = main.get_command(context, name)
        assert command is not None
        text = command.short_help or " ".join((command.help or "").split("\n\n")[0].split())
        row = re.search(rf"^  {re.escape(name)} +(.*)$", lazy, re.MULTILINE)
        assert (row is None) == command.hidden, name
        assert row is None or row[1] == text, name
