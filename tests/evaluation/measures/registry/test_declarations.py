"""Meta-tests: every measure is declared with formula and reference; every docstring example
runs."""

from __future__ import annotations

import doctest
import importlib

import pytest

from focal.evaluation.measures.registry.declarations import MEASURES, TASKS, topic_rows

MODULES = [
    "focal.evaluation.measures.passages.text",
    "focal.evaluation.measures.passages.focused",
    "focal.evaluation.measures.passages.incontext",
    "focal.evaluation.measures.articles.topic",
    "focal.evaluation.measures.registry.declarations",
    "focal.evaluation.measures.evaluate",
    "focal.evaluation.measures.providers",
    "focal.evaluation.measures.registry.names",
    "focal.evaluation.measures.grammar",
    "focal.evaluation.formats.c_numbers",
    "focal.evaluation.measures.trec_eval.names",
    "focal.evaluation.measures.trec_eval.families.interpolated",
    "focal.evaluation.cli.eval.output",
]


@pytest.mark.parametrize("measure", MEASURES, ids=lambda m: m.name)
def test_every_measure_has_formula_reference_and_a_worked_example(measure: object) -> None:
    from focal.evaluation.measures.registry.declarations import Measure

    assert isinstance(measure, Measure)
    assert measure.formula.strip() and measure.reference.strip()
    assert set(measure.tasks) <= set(TASKS)
    doc = measure.compute.__doc__ or ""
    assert ">>>" in doc, f"{measure.compute.__qualname__} has no doctest"
    assert "Reference" in doc or "reference" in doc.lower(), measure.compute.__qualname__


def test_every_printed_row_is_declared() -> None:
    declared = {m.name for m in MEASURES}
    for task in ("focused", "thorough", "ric", "bic", "t2i"):
        for row in topic_rows(task):
            assert _declared_name(row) in declared, (task, row)


def _declared_name(row: str) -> str:
    """`iP[0.05]` is declared as `iP[x]`, `gP[10]` as `gP[k]`."""
    if row.startswith("iP["):
        return "iP[x]"
    return row.split("[")[0] + "[k]" if "[" in row else row


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
