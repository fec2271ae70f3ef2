"""Per-topic scores of many runs on one measure, the input of every reliability study.

Scores average over every qrels topic, a topic a run does not answer scoring 0, as `focal eval
-c` does (spec §9): a study that changes the judgements must not change which topics count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from evaluation.formats.fol.columns import RunColumns
from evaluation.formats.records import Run
from evaluation.measures.evaluate import PreparedQrels, Qrels, evaluate
from evaluation.measures.registry.declarations import topic_rows

DEFAULT_MEASURES = {
    "focused": "AiP",
    "thorough": "AiP",
    "ric": "AgP",
    "bic": "AgP",
    "t2i": "AgP",
    "articles": "MAP",
}
"""The measure a study ranks runs by when none is given: the one each task is ranked by."""

ALIASES = {"MAiP": "AiP", "MAgP": "AgP"}
"""Names of the `all` row that stand for a per-topic row (the mean of AiP is MAiP)."""


@dataclass(frozen=True)
class ScoreMatrix:
    """`values[i, j]`: run `runs[i]` on topic `topics[j]`."""

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    values: NDArray[np.float64]

    def means(self) -> dict[str, float]:
        """Run id -> mean over the topics (summed in topic order, as `focal eval` does)."""
        return {
            run: float(sum(row.tolist()) / len(row))
            for run, row in zip(self.runs, self.values, strict=True)
        }


def measure_row(task: str, measure: str | None) -> str:
    """The per-topic row a study uses for `measure` (or the task's default); ValueError when
    the task does not produce it."""
    chosen = ALIASES.get(measure, measure) if measure else DEFAULT_MEASURES[task]
    if task == "articles":
        from evaluation.measures.registry.names import claims, parse

        if claims(chosen, "articles"):
            return parse(chosen, "articles").text
        _trec_row(chosen)  # any other name of the one vocabulary (AP, nDCG@10, P(rel=2)@5)
        return chosen
    rows = topic_rows(task)
    if chosen not in rows:
        raise ValueError(
            f"task {task} has no per-topic measure {measure!r}: one of {', '.join(rows)}"
        )
    return chosen


def score_matrix(
    qrels: Qrels | PreparedQrels,
    runs: Sequence[Run | RunColumns],
    task: str,
    measure: str,
    topics: Sequence[str] | None = None,
) -> ScoreMatrix:
    """Evaluate every run with `-c` on `qrels` and keep one measure per topic.

    `topics` fixes the columns (default: the qrels topics in qrels order); a topic missing from
    `qrels` (a sampled collection that lost all its judgements) scores 0 for every run.
    """
    prepared = qrels if isinstance(qrels, PreparedQrels) else PreparedQrels(qrels)
    columns = tuple(topics) if topics is not None else tuple(prepared.qrels)
    position = {topic: index for index, topic in enumerate(columns)}
    values = np.zeros((len(runs), len(columns)))
    if task == "articles" and not _focal_name(measure):
        for row, run in enumerate(runs):
            for name, score in _trec_values(prepared, run, measure).items():
                if name in position:
                    values[row, position[name]] = score
        return ScoreMatrix(tuple(run.run_id for run in runs), columns, values)
    extra = {"measures": (measure,)} if task == "articles" else {}
    for row, run in enumerate(runs):
        evaluation = evaluate(prepared, run, task=task, complete=True, **extra)
        for topic in evaluation.topics:
            if topic.topic in position:
                values[row, position[topic.topic]] = float(topic.values[measure])
    return ScoreMatrix(tuple(run.run_id for run in runs), columns, values)


def _focal_name(measure: str) -> bool:
    from evaluation.measures.registry.names import claims

    return claims(measure, "articles")


def _trec_row(measure: str) -> str:
    """The one per-topic row trec_eval's engine prints for `measure`; ValueError otherwise."""
    from evaluation.measures.engines.trec_vocabulary import select
    from evaluation.measures.registry.trec import SUMMARY_ONLY

    rows = [r.name for r in select([measure]).rows() if r.family not in SUMMARY_ONLY]
    if len(rows) != 1:
        raise ValueError(f"-m {measure} is {len(rows)} per-topic measures; a study ranks by one")
    return rows[0]


def _trec_values(prepared: PreparedQrels, run: Run | RunColumns, measure: str) -> dict[str, float]:
    """Per-topic values of `measure` by trec_eval's engine on the FOL qrels (grade 1: an
    article with relevant text), every qrels topic counted (-c)."""
    from evaluation.measures.engines.trec_run import GradeTable, TrecOptions, run_from_records
    from evaluation.measures.engines.trec_vocabulary import evaluate_named, select

    if not isinstance(run, Run):
        raise ValueError(f"measure {measure} of task articles needs runs read as records")
    index = GradeTable.from_fol(prepared.qrels)
    evaluation = evaluate_named(
        index, run_from_records(run), select([measure]), TrecOptions(complete=True)
    )
    column = evaluation.values[_trec_row(measure)]
    return {topic: float(value) for topic, value in zip(evaluation.topics, column, strict=True)}
