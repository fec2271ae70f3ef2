"""trec_eval's options, a run's evaluation and its `all` rows (`meas_acc.c`, `meas_avg.c`).

What every evaluator of trec_eval's measures gives (`TrecEvaluation`: per-topic rows and the
`all` rows) and the one rule of the `all` rows: counts summed, the rest summed as floats then
averaged, geometric means as exp of the mean log. The sums are running sums (`Totals`), topic
after topic, so that the numpy engine (`run.evaluate_trec`, a column per row) and `focal
trec_eval`'s compiled path (a topic at a time, no table of topics) make the same additions in
the same order. Nothing here imports numpy: `focal trec_eval` on plain files loads this module
without it (docs/trec_eval.md, "The C part").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    GEOMETRIC,
    RESET_WHEN_MISSING,
    TEXT,
    Selection,
)
from focal.evaluation.measures.trec_eval.families.measure import MIN_GEO_MEAN

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.engine.grades import GradeTable

Number = int | float
Value = int | float | str  # relstring's rows are strings
VERSIONS = (9, 10)


@dataclass(frozen=True)
class TrecOptions:
    """trec_eval's switches: -l, -M, -c, -J, -N, and which version's numbers to reproduce."""

    level: int = 1  # -l: lowest grade that counts as relevant
    max_docs: int | None = None  # -M: documents per topic considered (None: all)
    complete: bool = False  # -c: average over every qrels topic
    version: int = 10  # 10 (default) or 9
    judged_only: bool = False  # -J: drop the retrieved documents without a judgement
    num_docs: int = 0  # -N: documents in the collection (utility's fourth term)

    def __post_init__(self) -> None:
        if self.version not in VERSIONS:
            raise ValueError(f"trec_eval version must be 9 or 10, not {self.version}")
        if self.max_docs is not None and self.max_docs < 0:  # (10.0 crashes on one)
            raise ValueError("-M must be at least 0 (documents per topic)")
        if self.level < 0:  # (10.0 mixes two readings then: docs/trec_eval.md)
            raise ValueError("-l must be at least 0 (the lowest relevant grade)")


@dataclass
class TrecEvaluation:
    """One run: per-topic rows (printed order) and the `all` rows."""

    run_id: str
    file: str
    options: TrecOptions
    topics: list[str]
    values: dict[str, list[Value]]  # row name -> per-topic values, aligned with `topics`
    summary: dict[str, Number]  # row name -> the `all` value (num_q first)
    answered: list[bool] = field(default_factory=list)
    unknown_topics: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def reset_when_missing(selection: Selection) -> dict[str, Value]:
    """The rows 10.0 resets on a topic the run misses (`-c`, `trec_eval.c`), and their value
    (0 or empty): the families declared `reset_when_missing`, by their own row or each
    cut-off's row. A row named with its parameters (`utility_1,2,3,4`) keeps its value."""
    reset: dict[str, Value] = {}
    for row in selection.rows():
        own_row = row.name == row.family or row.parameter is not None  # not `utility_1,2,3,4`
        if row.family in RESET_WHEN_MISSING and own_row:
            reset[row.name] = "" if row.family in TEXT else 0 if row.family in COUNTS else 0.0
    return reset


class Totals:
    """The `all` rows' sums, kept as topics come: a count's as it is (an integer, a float
    only as a z-score), any other value's as a float (`meas_acc.c`)."""

    def __init__(self, selection: Selection) -> None:
        rows = [row for row in selection.rows() if row.family != "num_q" and row.family not in TEXT]
        self.names = [row.name for row in rows]
        self._counts = [row.name in COUNTS for row in rows]
        self.sums: list[Number] = [0 if count else 0.0 for count in self._counts]

    def add(self, values: Sequence[Value]) -> None:
        """One topic's values of the summed rows (`names`' order)."""
        sums, counts = self.sums, self._counts
        for i, value in enumerate(values):
            sums[i] += value if counts[i] else float(value)  # type: ignore[operator]

    def add_columns(self, values: dict[str, list[Value]]) -> None:
        """Every topic's values at once, a column per row: the same additions as `add`."""
        for i, name in enumerate(self.names):
            total = self.sums[i]
            if self._counts[i]:
                for value in values[name]:
                    total += value  # type: ignore[operator]
            else:
                for value in values[name]:
                    total += float(value)
            self.sums[i] = total


def averages(totals: Totals, selection: Selection, options: TrecOptions, evaluated: int,
             answered: int, qrels_topics: int, positive: int) -> dict[str, Number]:  # fmt: skip
    """The `all` rows from the sums over the `evaluated` topics (`answered` of them by the
    run): counts summed, the rest averaged over the topics counted (every qrels topic with
    -c), geometric means as exp of the mean log (`meas_avg.c`). num_q counts the topics
    evaluated in 10.0 and answered in 9.x (every qrels topic with -c, `m_num_q.c`); num_rel
    with -c every qrels grade above 0, whatever -l (`positive`)."""
    count = evaluated if options.version == 10 else answered
    divisor = qrels_topics if options.complete else count
    missing = divisor - evaluated  # 9.x with -c: topics never evaluated
    summed = dict(zip(totals.names, totals.sums, strict=True))
    summary: dict[str, Number] = {}
    for row in selection.rows():
        name = row.name
        if name == "num_q":
            summary[name] = divisor if options.version == 9 else count
        elif row.family in TEXT:
            continue
        elif name == "num_rel" and options.complete:
            summary[name] = positive
        elif name in COUNTS:
            summary[name] = summed[name]
        elif name in GEOMETRIC:
            total = summed[name] + missing * math.log(MIN_GEO_MEAN)
            summary[name] = math.exp(total / divisor) if divisor else 0.0
        else:
            summary[name] = summed[name] / divisor if divisor else 0.0
    return summary


def summarise(
    evaluation: TrecEvaluation, index: GradeTable, selection: Selection
) -> dict[str, Number]:
    """The `all` rows of an evaluation of every topic at once (`averages`)."""
    totals = Totals(selection)
    totals.add_columns(evaluation.values)
    return averages(totals, selection, evaluation.options, len(evaluation.topics),
                    sum(evaluation.answered), len(index.topics), index.positive)  # fmt: skip
