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
from focal.evaluation.running.options import CompareOptions

Values = dict[str, dict[str, float]]  # run -> topic -> value


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
    qrels: str, runs: Sequence[str], options: CompareOptions
) -> tuple[Values, list[str], list[str]]:
    """Evaluate the runs as `focal eval` does, for `options.topic_measure`: (run → topic →
    value, the qrels topics, notes for stderr); the values are those of the topics each run
    answers (`pair_by_topic` scores the others 0). FormatError or ValueError for a bad file or
    measure; OptionError for element options the measure cannot go with."""
    task, measure = options.task, options.topic_measure
    evaluation = options.evaluation
    if task == "elements":
        from focal.evaluation.running.elements import element_values

        quant = evaluation.quant
        values, topics, notes = element_values(
            qrels, runs, measure, evaluation.element_options(), evaluation.collection,
            evaluation.workers(),
        )  # fmt: skip
        return values, topics, [*notes, f"quantisation {quant}"]
    if task == "articles":
        from focal.evaluation.measures import providers
        from focal.evaluation.running import articles

        call = providers.Call(task, (measure,), articles.is_trec_qrels(qrels))
        if providers.choose(call)[0] is providers.TREC_RUN:  # the names `focal eval` reads
            from focal.evaluation.measures.trec_eval.engine.run import TrecOptions

            return (*articles.per_topic_values(qrels, runs, measure, TrecOptions()), [])
    return (*_focal_values(qrels, runs, options), [])


def _focal_values(
    qrels: str, runs: Sequence[str], options: CompareOptions
) -> tuple[Values, list[str]]:
    """Focal's own engines (`running.focal_engines`), each run's topics only (no -c)."""
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.evaluation.measures.evaluate import PreparedQrels, Settings
    from focal.evaluation.running.focal_engines import evaluate_files

    task, measure, given = options.task, options.topic_measure, options.evaluation
    switches = (False, given.beta, given.n, given.irr, given.strict)  # complete: False
    settings = Settings(task, *switches)
    if task == "articles":
        settings = Settings(task, *switches, measures=(measure,))
    prepared = PreparedQrels(read_qrels(qrels))
    values: Values = {}
    evaluations = evaluate_files(prepared, settings, runs, given.workers())
    for path, result in zip(runs, evaluations, strict=True):
        if result.run_id in values:
            raise FormatError(path, None, f"a second run named {result.run_id}")
        values[result.run_id] = {t.topic: float(t.values[measure]) for t in result.topics}
    return values, list(prepared.qrels)
