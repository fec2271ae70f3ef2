"""Element measures are declared with formula and reference; their modules' doctests run."""

from __future__ import annotations

import doctest
import importlib

import pytest

from focal.evaluation.measures.registry.declarations import ELEMENT_MEASURES, TASKS, Measure
from focal.evaluation.measures.registry.names import parse

MODULES = [
    "focal.evaluation.measures.elements.quantisation",
    "focal.evaluation.measures.elements.cutoffs",
    "focal.evaluation.measures.elements.precall",
    "focal.evaluation.measures.elements.overlap_ng",
    "focal.evaluation.measures.elements.xcg",
    "focal.evaluation.measures.engines.element_topics",
    "focal.evaluation.formats.elements.qrels",
]


@pytest.mark.parametrize("measure", ELEMENT_MEASURES, ids=lambda m: m.name)
def test_every_element_measure_is_declared_and_selectable(measure: Measure) -> None:
    assert measure.formula.strip() and measure.reference.strip()
    assert set(measure.tasks) == {"elements"} <= set(TASKS)
    doc = measure.compute.__doc__ or ""
    assert ">>>" in doc and "reference" in doc.lower(), measure.compute.__qualname__
    parse(measure.name, "elements")  # every declared name is a valid -m selection


def test_unknown_selection_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown element measure"):
        parse("MAP", "elements")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
