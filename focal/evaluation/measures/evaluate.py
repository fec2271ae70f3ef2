"""Evaluate a run against qrels: per-topic records first, aggregation separately.

The entry point for one run in memory; the engine that evaluates it is chosen by
`focal.evaluation.measures.providers`, and the records it gives are
`focal.evaluation.measures.records`'.

>>> from focal.evaluation.formats.records import Judgement, Result, Run
>>> qrels = {"1": {"a": Judgement("1", "a", 10, 100, 0, ((0, 10),), 1)}}
>>> run = Run("r", "r.run", "fol", {"1": [Result("1", "a", 1, 1.0, 1, start=0, length=20)]})
>>> evaluation = evaluate(qrels, run, task="focused")
>>> evaluation.topics[0].values["char_prec"], aggregate(evaluation)["MAiP"]
(0.5, 0.5)
"""

from __future__ import annotations

from typing import Any

from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Run
from focal.evaluation.measures.prepared import PreparedQrels as PreparedQrels
from focal.evaluation.measures.prepared import Qrels as Qrels
from focal.evaluation.measures.providers import evaluate_run
from focal.evaluation.measures.records import RunEvaluation as RunEvaluation
from focal.evaluation.measures.records import Settings as Settings
from focal.evaluation.measures.records import TopicEvaluation as TopicEvaluation
from focal.evaluation.measures.records import Value as Value
from focal.evaluation.measures.records import aggregate as aggregate


def evaluate(
    qrels: Qrels | PreparedQrels, run: Run | RunColumns, task: str = "focused", **params: Any
) -> RunEvaluation:
    """Evaluate `run` (records from `read_run`, or columns from `read_run_columns`) for `task`
    (focused, thorough, ric, bic, t2i, articles).

    `params` are the fields of `Settings` (complete, beta, n, irr, strict, measures). Topics are
    those of the run found in the qrels, in run order; with `complete`, the qrels topics the run
    misses follow, scored 0. Raises FormatError for runs the task does not allow (overlap in
    focused/in-context runs, an article coming back in an in-context run).
    """
    settings = Settings(task=task, **params)
    prepared = qrels if isinstance(qrels, PreparedQrels) else PreparedQrels(qrels)
    return evaluate_run(prepared, run, settings)
