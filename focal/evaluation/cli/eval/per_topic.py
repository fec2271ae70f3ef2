"""The per-topic values `focal compare` tests: read from `focal eval -q --format tsv` output
(`--scores`), or evaluated from QRELS and RUN files exactly as `focal eval` evaluates them.

Where the values come from is one concern apart from the test and its output (`cli.compare`):
either way the result is run → topic → value, which `pair_by_topic` then pairs (spec section 8).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from focal.evaluation.errors import FormatError


def scores_values(paths: Sequence[str], measure: str | None) -> tuple[str, dict[str, Any]]:
    """(measure, run → topic → value) from --scores files; FormatError for bad files."""
    from focal.evaluation.formats.scores import read_scores

    scores = read_scores(paths)
    available = scores.measures()
    if measure is None:
        defaults = [m for m in ("AiP", "AgP", "MAP") if m in available]
        if not defaults and len(available) != 1:
            raise FormatError(paths[0], None, "several measures: choose one with -m")
        measure = defaults[0] if defaults else available[0]
    elif measure not in available:  # another spelling of a printed row: AP for map
        from focal.evaluation.measures.registry.vocabulary import asked_rows

        with contextlib.suppress(ValueError):
            measure = asked_rows([measure], available)[0][1]
    values = scores.of_measure(measure)
    if not values:
        raise FormatError(", ".join(paths), None, f"no per-topic values of measure {measure}")
    return measure, values


def evaluated_values(
    qrels: str,
    runs: Sequence[str],
    task: str,
    measure: str,
    evaluation: dict[str, Any],
    jobs: int = 1,
) -> tuple[dict[str, dict[str, float]], list[str]]:
    """Evaluate the runs as `focal eval` does: (run → topic → value, the qrels topics); the
    values are those of the topics each run answers (`pair_by_topic` scores the others 0)."""
    if task == "articles":
        from focal.evaluation.cli.trec_eval import articles as trec_eval
        from focal.evaluation.measures import providers

        call = providers.Call(task, (measure,), trec_eval.is_trec_qrels(qrels))
        if providers.choose(call)[0] is providers.TREC_RUN:  # the names `focal eval` reads
            from focal.evaluation.measures.trec_eval.engine.run import TrecOptions

            return trec_eval.per_topic_values(qrels, runs, measure, TrecOptions())
    from focal.evaluation.cli.eval.workers import evaluate_files
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.evaluation.measures.evaluate import PreparedQrels, Settings

    evaluation = {**evaluation, "complete": False}
    settings = Settings(task=task, **evaluation)
    if task == "articles":
        settings = Settings(task=task, measures=(measure,), **evaluation)
    prepared = PreparedQrels(read_qrels(qrels))
    values: dict[str, dict[str, float]] = {}
    for path, result in zip(runs, evaluate_files(prepared, settings, runs, jobs), strict=True):
        if result.run_id in values:
            raise FormatError(path, None, f"a second run named {result.run_id}")
        values[result.run_id] = {t.topic: float(t.values[measure]) for t in result.topics}
    return values, list(prepared.qrels)
