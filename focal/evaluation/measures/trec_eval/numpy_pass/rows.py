"""The rows of the whole-file pass (`plain_pass.RowTuple`) computed by the numpy families, as
`families.declarations.topic_values` computes them for the numpy engine (the same `compute`,
the same logarithm of the geometric families), a block of topics at a time: each topic's
values in the rows' order (relstring's a str, every other a float, counts too), as the C pass
gives them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from focal.evaluation.measures.trec_eval.engine.plain_pass import RowTuple
from focal.evaluation.measures.trec_eval.families.declarations import BY_NAME
from focal.evaluation.measures.trec_eval.families.measure import (
    MIN_GEO_MEAN,
    Context,
    Ranked,
    Row,
)


class Asked:
    """What the row tuples say of each family's parameters (`families.measure.Asked`): a
    `typed` family's list as given, a cut-off or level family's the rows' own parameters."""

    def __init__(self, rows: Sequence[RowTuple]) -> None:
        self._parameters: dict[str, list[float]] = {}
        self._typed: dict[str, tuple[float, ...]] = {}
        self._pairs: dict[str, tuple[tuple[str, float], ...]] = {}
        for family, parameter, values, pairs in rows:
            if parameter is not None:
                self._parameters.setdefault(family, []).append(parameter)
            if BY_NAME[family].printed == "typed":
                self._typed[family] = tuple(values)
            if pairs:
                self._pairs[family] = tuple(pairs)

    def parameters(self, family: str) -> tuple[float, ...]:
        if family in self._typed:
            return self._typed[family]
        given = self._parameters.get(family)
        if given is not None:
            return tuple(given)
        return BY_NAME[family].defaults or ()

    @property
    def pairs(self) -> dict[str, tuple[tuple[str, float], ...]]:
        return self._pairs


def computable(rows: Sequence[RowTuple]) -> bool:
    """Whether the pass takes these rows: the C pass's own condition (every family computed,
    relstring's length a finite number), so that both leave the same calls to the engine."""
    for family, _, values, _ in rows:
        measure = BY_NAME.get(family)
        if measure is None or measure.compute is None:
            return False
        if measure.text and values and not math.isfinite(values[0]):
            return False
    return True


def topic_rows(ranked: Ranked, rows: Sequence[RowTuple], asked: Asked, level: int,
               version: int, num_docs: int) -> list[tuple[float | str, ...]]:  # fmt: skip
    """Each topic's values of `rows` (topics as `ranked` holds them)."""
    topics = len(ranked.starts)
    if topics == 0:
        return []
    context = Context(ranked, asked, level, version, num_docs)
    columns: list[list[float] | list[str]] = []
    for family, parameter, _, _ in rows:
        measure = BY_NAME[family]
        assert measure.compute is not None  # (`computable`)
        values = measure.compute(context, Row(family, family, parameter))
        if isinstance(values, list):
            columns.append(values)
            continue
        if measure.geometric:
            values = np.log(np.maximum(values, MIN_GEO_MEAN))
        columns.append(np.asarray(values, dtype=np.float64).tolist())
    if not columns:
        return [() for _ in range(topics)]
    return list(zip(*columns, strict=True))
