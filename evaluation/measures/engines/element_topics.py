"""Element runs against element qrels (spec section 5): `RunEvaluation`s like every task's, so
the reports and `aggregate` serve them unchanged.

>>> from evaluation.formats.elements.qrels import ElementJudgement, ElementQrels
>>> from evaluation.formats.records import Result, Run
>>> judged = ElementJudgement("1", "a", "/x[1]", 3, 3, 1)
>>> qrels = ElementQrels("q", "2004", {"1": {("a", "/x[1]"): judged}})
>>> run = Run("r", "r.run", "element", {"1": [Result("1", "a", 1, 1.0, 1, path="/x[1]")]})
>>> evaluation = evaluate_elements(qrels, run, Settings(task="elements"))
>>> evaluation.topics[0].values["P@5"], aggregate(evaluation)["overlap@5"]
(0.2, 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping

from evaluation.errors import FormatError
from evaluation.formats.elements.qrels import ElementQrels
from evaluation.formats.records import Run
from evaluation.measures.elements import quantisation
from evaluation.measures.elements import topic as element_topic
from evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation, aggregate
from evaluation.measures.registry.names import element_rows

__all__ = ["aggregate", "evaluate_elements"]


def evaluate_elements(
    qrels: ElementQrels,
    run: Run,
    settings: Settings,
    spans: Mapping[tuple[str, str], tuple[int, int]] | None = None,
) -> RunEvaluation:
    """Evaluate an element run (records from `read_run`, paths canonical) with element
    measures (spec section 5); `spans` maps (article, path) to its span when a collection is
    known (inex_eval_ng needs it).

    Topics are the run's topics found in the qrels, in run order, then every qrels topic the
    run misses, scored 0 (spec section 5 averages over the qrels topics).
    """
    options = settings.elements or element_topic.ElementOptions()
    if quantisation.scale_of(options.quant) == "2005" and qrels.scale == "2004":
        raise FormatError(
            qrels.file, None, f"quantisation {options.quant} needs 2005/2006 element qrels "
            "(topic article path e s rsize size)",
        )  # fmt: skip
    if run.kind != "element":
        raise FormatError(run.file, None, f"task elements needs an element run, not {run.kind}")
    evaluation = RunEvaluation(run.run_id, run.file, settings, [], list(run.warnings))
    lookup = spans or {}
    wanted = element_rows(settings.measures)
    for topic, results in run.topics.items():
        judged = qrels.topics.get(topic)
        if judged is None:
            evaluation.unknown_topics.append(topic)
            continue
        ranked = [
            element_topic.ElementResult(
                r.article, r.path or "", r.score, r.line, lookup.get((r.article, r.path or ""))
            )
            for r in results
        ]
        values = element_topic.evaluate_topic(ranked, judged, qrels.scale, options, wanted)
        evaluation.topics.append(TopicEvaluation(topic, dict(values)))
    for topic, judged in qrels.topics.items():
        if topic not in run.topics:
            values = element_topic.evaluate_topic([], judged, qrels.scale, options, wanted)
            evaluation.topics.append(TopicEvaluation(topic, dict(values), answered=False))
    return evaluation
