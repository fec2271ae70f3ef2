"""The demo's element run regenerates byte for byte from the command in demo/README.md."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.baseline import baseline
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.elements.runs import read_element_run

REPOSITORY = Path(__file__).resolve().parents[3]
DEMO = REPOSITORY / "demo"
COMMAND = re.compile(
    r"^\S*focal baseline (?P<args>.+?) > demo/element-runs/(?P<file>\S+\.run)$", re.M
)


def test_element_run_regenerates_and_names_real_elements(monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (DEMO / "README.md").read_text(encoding="utf-8")
    (match,) = list(COMMAND.finditer(readme))
    monkeypatch.chdir(REPOSITORY)
    outcome = CliRunner().invoke(baseline, shlex.split(match["args"]))
    assert outcome.exit_code == 0, outcome.output
    path = DEMO / "element-runs" / match["file"]
    assert outcome.stdout_bytes == path.read_bytes()
    run, spans = read_element_run(path, Collection(DEMO / "collection"))
    assert run.kind == "element" and sorted(run.topics) == ["9001", "9002", "9003", "9004", "9005"]
    assert set(spans) == {(r.article, r.path) for rs in run.topics.values() for r in rs}


def test_element_format_needs_element_units() -> None:
    outcome = CliRunner().invoke(
        baseline, ["--collection", str(DEMO / "collection"), "--topics", str(DEMO / "topics.xml"),
                   "--format", "element"],
    )  # fmt: skip
    assert outcome.exit_code == 2 and "--unit element" in outcome.output
