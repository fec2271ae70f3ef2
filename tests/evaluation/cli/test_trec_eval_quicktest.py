"""trec_eval 10.0's own quicktest through `focal trec_eval`, compared byte for byte.

`../shared/data/trec_eval10/` holds the files of trec_eval's `test/` folder, the 15 commands
of its Makefile (`quicktest.commands`, each `trec_eval ARGS | diff - test/out.X`) and the
outputs the real program printed. Each command runs in-process through `focal trec_eval`'s
`main` with the same arguments, and its stdout must equal the expected file's bytes. The files
stay outside the repository; without them the test skips, saying so.
"""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval.command import main

DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "trec_eval10"
COMMANDS = DATA / "quicktest.commands"


def quicktest() -> list[tuple[list[str], str]]:
    """(arguments, expected output file) per command, `test/` paths made local to DATA."""
    if not COMMANDS.exists():
        return []
    cases = []
    for line in COMMANDS.read_text().splitlines():
        command, _, expected = line.partition("| diff - ")
        words = shlex.split(command.replace("test/", ""))
        cases.append((words[1:], expected.strip().replace("test/", "")))
    return cases


CASES = quicktest()


@pytest.mark.skipif(not CASES, reason=f"trec_eval 10.0's quicktest files are absent ({DATA})")
@pytest.mark.parametrize(("arguments", "expected"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_quicktest_command_prints_the_same_bytes(
    arguments: list[str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DATA)
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(arguments, stdout, stderr)
    assert code == 0, stderr.getvalue()
    assert stdout.getvalue().encode() == (DATA / expected).read_bytes()


@pytest.mark.skipif(not CASES, reason=f"trec_eval 10.0's quicktest files are absent ({DATA})")
def test_results_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """`-` reads the results from standard input: the first quicktest command, piped."""
    monkeypatch.chdir(DATA)
    piped = io.TextIOWrapper(io.BytesIO((DATA / "results.test").read_bytes()))
    monkeypatch.setattr("sys.stdin", piped)
    stdout = io.StringIO()
    assert main(["qrels.test", "-"], stdout, io.StringIO()) == 0
    assert stdout.getvalue().encode() == (DATA / "out.test").read_bytes()
