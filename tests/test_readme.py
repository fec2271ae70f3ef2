"""The README stays true: it shows every `focal` command, and every command it shows works."""

from __future__ import annotations

import glob
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main

REPOSITORY = Path(__file__).resolve().parents[1]
README = (REPOSITORY / "README.md").read_text(encoding="utf-8")
# Commands shown in the README's indented code blocks, in order.
SHOWN = [line.strip() for line in README.splitlines() if re.match(r"^    focal ", line)]
# `focal serve` and `focal worker` block until stopped; the browser tests run the same app on a
# live server, tests/assessor/cli/test_worker_restart.py the worker.
NOT_RUN = ("focal serve", "focal worker")
# Every step in order: the `focal` commands and the shell lines that write a file they read.
STEPS = [line.strip() for line in README.splitlines() if re.match(r"^    (focal|printf) ", line)]


def command_paths(group: click.Group, prefix: str = "focal") -> Iterator[str]:
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, f"{prefix} {name} is declared but cannot be loaded"
        if command.hidden:  # an old name kept as an alias; the README shows the current one
            continue
        yield f"{prefix} {name}"
        if isinstance(command, click.Group):
            yield from command_paths(command, f"{prefix} {name}")


@pytest.mark.parametrize("path", sorted(command_paths(main)))
def test_every_command_appears_in_the_readme(path: str) -> None:
    assert any(line == path or line.startswith(path + " ") for line in SHOWN), path


def test_every_readme_command_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demo").symlink_to(REPOSITORY / "demo")
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'readme.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "readme-test")
    runner = CliRunner()
    ran = 0
    for line in STEPS:
        if line.startswith(NOT_RUN):
            continue
        if line.startswith("printf "):  # a file the next command reads, written by a shell
            subprocess.run(["bash", "-c", line], cwd=tmp_path, check=True)
            continue
        assert line.startswith("focal "), f"the README shows a step the test cannot run: {line}"
        words = shlex.split(line, comments=True)[1:]
        target = None
        if ">" in words:  # `... > FILE`: the shell's redirection of stdout
            target, words = words[words.index(">") + 1], words[: words.index(">")]
        args = [match for word in words for match in (sorted(glob.glob(word)) or [word])]
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, f"{line}\n{result.output}\n{result.stderr}"
        if target is not None:
            (tmp_path / target).write_text(result.stdout, encoding="utf-8")
        ran += 1
    assert ran >= 25
    assert (tmp_path / "pool.tsv").read_text(encoding="utf-8").startswith("topic\tarticle")
    assert (tmp_path / "curves.svg").stat().st_size > 0
    assert (tmp_path / "9001.qrels").exists()
    assert (tmp_path / "full.tsv").read_text(encoding="utf-8").startswith("run_id\tmeasure")
