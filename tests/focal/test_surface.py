"""`focal`'s public surface: what `dir(focal)` lists, the types `help()` shows, the version in
one place and what `focal --version` prints (docs/python.md, docs/packaging.md)."""

from __future__ import annotations

import collections.abc
import inspect
import os
import platform
import pydoc
import re
import subprocess
import sys
import tomllib
import typing
from pathlib import Path

import pytest

import focal
from focal.evaluation.measures.trec_eval import kernel

REPOSITORY = Path(__file__).resolve().parents[2]
SUBMODULES = {"api", "assessor", "evaluation", "frames", "inputs", "pooling", "reliability"}


def _public(names: list[str]) -> set[str]:
    return {name for name in names if not (name.startswith("__") and name.endswith("__"))}


def test_dir_lists_the_functions_and_the_submodules_and_nothing_else() -> None:
    listed = dir(focal)
    assert _public(listed) == set(focal.__all__) | SUBMODULES
    assert "__version__" in listed
    for helper in ("Any", "TYPE_CHECKING", "import_module", "annotations", "typing"):
        assert helper not in listed, helper


def test_every_listed_name_resolves() -> None:
    for name in _public(dir(focal)):
        value = getattr(focal, name)
        if name in SUBMODULES:
            assert inspect.ismodule(value) and value.__name__ == f"focal.{name}"
        else:
            assert inspect.isfunction(value), name
    with pytest.raises(AttributeError, match="no attribute 'Any'"):
        _ = focal.Any


def test_help_shows_the_types_each_function_takes() -> None:
    for name in focal.__all__:
        signature = str(inspect.signature(getattr(focal, name)))
        assert "Any" not in signature, f"focal.{name}{signature}"
    page = pydoc.render_doc(focal.evaluate, renderer=pydoc.plaintext)
    for alias in ("QrelsInput", "RunsInput", "MeasuresInput", "EvaluateOptions", "DataFrame"):
        assert alias in page, alias


def test_the_aliases_name_types_that_exist() -> None:
    """The string aliases resolve: each names real classes, so what help() shows is true."""
    import ir_measures
    import pandas

    from focal import inputs
    from focal.evaluation.formats.fol.columns import RunColumns
    from focal.evaluation.formats.trec import TrecQrels
    from focal.pooling.records import RankedRun

    namespace = {
        **vars(collections.abc), "os": os, **vars(inputs), "pandas": pandas,
        "Measure": ir_measures.Measure, "RunColumns": RunColumns, "TrecQrels": TrecQrels,
        "RankedRun": RankedRun,
    }  # fmt: skip
    aliases = ["Source", "QrelsInput", "RunInput", "RunsInput", "MeasureName", "MeasuresInput"]
    for alias in [*aliases, "PoolRunsInput"]:  # each alias's own text, as mypy reads it
        namespace[alias] = eval(getattr(inputs, alias), namespace)
        assert typing.get_args(namespace[alias]), alias


def test_the_options_are_the_keywords_of_the_functions_they_feed() -> None:
    from focal.evaluation.api import evaluate
    from focal.inputs import CompareOptions, EvaluateOptions, PoolOptions
    from focal.pooling.api import build_pool

    def keywords(function: typing.Callable[..., object], *given: str) -> set[str]:
        parameters = inspect.signature(function).parameters.values()
        return {p.name for p in parameters if p.kind is p.KEYWORD_ONLY} - set(given)

    assert set(EvaluateOptions.__annotations__) == keywords(evaluate, "complete")
    assert set(CompareOptions.__annotations__) == keywords(evaluate, "complete", "alpha")
    assert set(PoolOptions.__annotations__) == keywords(build_pool, "size")


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "focal._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", focal.__version__)


def _version(kernel_choice: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FOCAL_KERNEL": kernel_choice}
    return subprocess.run(
        [sys.executable, "-m", "focal.assessor.cli.main", "--version"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def test_focal_version_says_the_version_the_python_the_platform_and_the_c_part() -> None:
    done = _version("auto")
    assert done.returncode == 0, done.stderr
    name, python, c_part = done.stdout.splitlines()
    assert name == f"focal {focal.__version__}"
    assert python.startswith(f"Python {platform.python_version()} (")
    assert python.endswith(f" on {platform.platform()}")
    assert c_part == kernel.status()


def test_focal_version_tells_when_the_numpy_path_answers() -> None:
    done = _version("numpy")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "C part: off (FOCAL_KERNEL=numpy); numpy path"
