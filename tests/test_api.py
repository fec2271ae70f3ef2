"""The Python API (docs/python.md): every exported name has a working example, the values are
`focal eval`'s, and the README's Python line runs."""

from __future__ import annotations

import doctest
import glob
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

import focal.evaluation
import focal.pooling
import focal.reliability
from focal.assessor.cli.main import main

REPOSITORY = Path(__file__).resolve().parents[1]
PACKAGES = (focal.evaluation, focal.pooling, focal.reliability)
API_MODULES = (
    "focal.evaluation.api",
    "focal.evaluation.api_engines",
    "focal.pooling.api",
    "focal.reliability.api",
)
QRELS = "demo/qrels/demo.qrels"


@pytest.mark.parametrize("name", API_MODULES)
def test_the_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0, result


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_exported_function_has_an_example(package: ModuleType) -> None:
    assert package.__all__, package.__name__
    for name in package.__all__:
        exported = getattr(package, name)
        assert name in dir(package)
        if inspect.isfunction(exported) or exported.__module__.endswith(".api"):
            assert ">>>" in (exported.__doc__ or ""), f"{package.__name__}.{name}"


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        focal.evaluation.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_importing_a_package_loads_no_api() -> None:
    code = (
        "import sys, focal.evaluation.formats.records, focal.pooling.records, focal.reliability\n"
        "print(','.join(m for m in sys.modules if m.endswith('.api') or m == 'numpy'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _cli_values(task: str, options: list[str], runs: list[str]) -> dict[tuple[str, ...], float]:
    result = CliRunner().invoke(
        main, ["eval", "--task", task, "--format", "tsv", "-q", *options, QRELS, *runs]
    )
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines()[1:]]
    return {(run, measure, topic): float(value) for run, measure, topic, value in rows}


def _api_values(result: focal.evaluation.Evaluation) -> dict[tuple[str, ...], float]:
    values = {
        (run, measure, topic): float(value)
        for run, topics in result.per_topic.items()
        for topic, row in topics.items()
        for measure, value in row.items()
    }
    for run, row in result.aggregate.items():
        values.update({(run, measure, "all"): float(value) for measure, value in row.items()})
    return values


CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("focused", [], {}),
    ("thorough", ["-c"], {"complete": True}),
    ("articles", [], {}),
    ("articles", ["-m", "official", "-c"], {"measures": ["official"], "complete": True}),
]


@pytest.mark.parametrize(("task", "options", "keywords"), CASES)
def test_evaluate_gives_focal_evals_numbers(
    task: str, options: list[str], keywords: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPOSITORY)
    runs = sorted(glob.glob("demo/runs/*.run"))
    expected = _cli_values(task, options, runs)
    assert len(expected) > 100
    assert _api_values(focal.evaluation.evaluate(QRELS, runs, task, **keywords)) == expected
    in_memory = [focal.evaluation.read_run(path, task) for path in runs]
    qrels = focal.evaluation.read_qrels(QRELS)
    assert _api_values(focal.evaluation.evaluate(qrels, in_memory, task, **keywords)) == expected


def test_plain_dicts_are_trec_evals(tmp_path: Path) -> None:
    """pytrec_eval's and ranx's dicts give the numbers of the same qrels and run as TREC files."""
    qrels = {"1": {"a": 2, "b": 0, "c": 1}, "2": {"a": 1}}
    run = {"1": {"a": 0.2, "b": 0.9, "c": 0.5}, "2": {"b": 1.0, "a": 0.5}}
    folder = tmp_path
    lines = [f"{t} 0 {d} {g}\n" for t, judged in qrels.items() for d, g in judged.items()]
    (folder / "q.qrels").write_text("".join(lines), encoding="utf-8")
    ranked = [
        f"{t} Q0 {d} {i} {s} run1\n"
        for t, scored in run.items()
        for i, (d, s) in enumerate(scored.items(), 1)
    ]
    (folder / "r.run").write_text("".join(ranked), encoding="utf-8")
    from_files = focal.evaluation.evaluate(folder / "q.qrels", folder / "r.run", "articles")
    from_dicts = focal.evaluation.evaluate(qrels, run, "articles")
    assert from_dicts.per_topic == from_files.per_topic
    assert from_dicts.aggregate == from_files.aggregate
    assert from_dicts.aggregate["run1"]["num_rel_ret"] == 3


def test_runs_with_one_id_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPOSITORY)
    run = "demo/runs/bm25-articles.run"
    with pytest.raises(ValueError, match="two runs are named"):
        focal.evaluation.evaluate(QRELS, [run, run], "articles")


def test_the_readme_python_line_runs() -> None:
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    lines = [
        line.strip() for line in readme.splitlines() if re.match(r"^    \.venv/bin/python ", line)
    ]
    assert lines, "the README shows no Python line"
    for line in lines:
        command = ["bash", "-c", line.replace(".venv/bin/python", sys.executable, 1)]
        out = subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip(), line
