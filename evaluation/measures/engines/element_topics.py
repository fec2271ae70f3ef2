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
from dataclasses import dataclass, field

from evaluation.errors import FormatError
from evaluation.formats.elements.qrels import ElementJudgement, ElementQrels
from evaluation.formats.records import Run
from evaluation.measures.elements import quantisation, run_columns
from evaluation.measures.elements import topic as element_topic
from evaluation.measures.elements.codes import MAX_TOPICS, Codes
from evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation, aggregate
from evaluation.measures.registry.names import element_rows

__all__ = ["PreparedElementQrels", "aggregate", "evaluate_elements"]


@dataclass
class PreparedElementQrels:
    """Element qrels with each topic's values and XCG recall base worked out once per
    quantisation, for every run evaluated against them (`evaluate_elements` takes either)."""

    qrels: ElementQrels
    _topics: dict[tuple[str, str, str], element_topic.PreparedTopic] = field(default_factory=dict)
    codes: Codes = field(default_factory=Codes)
    _columns: dict[tuple[str, str], run_columns.QrelsColumns] = field(default_factory=dict)

    def topic(
        self, topic: str, judged: Mapping[tuple[str, str], ElementJudgement],
        options: element_topic.ElementOptions,
    ) -> element_topic.PreparedTopic:  # fmt: skip
        """The prepared judgements of `topic` under the options' quantisation."""
        key = (topic, options.quant, options.part_weights)
        prepared = self._topics.get(key)
        if prepared is None:
            prepared = element_topic.PreparedTopic(
                judged, self.qrels.scale, options.quant, options.part_weights
            )
            self._topics[key] = prepared
        return prepared

    def prepare_all(self, options: element_topic.ElementOptions) -> None:
        """Every topic's values and recall base, before runs are handed to forked workers."""
        self.columns(options)

    def columns(self, options: element_topic.ElementOptions) -> run_columns.QrelsColumns:
        """Every topic's judgements as columns under the options' quantisation (built once)."""
        key = (options.quant, options.part_weights)
        built = self._columns.get(key)
        if built is None:
            topics = {topic: index for index, topic in enumerate(self.qrels.topics)}
            prepared = [self.topic(t, j, options) for t, j in self.qrels.topics.items()]
            built = run_columns.QrelsColumns(topics, prepared).build(self.codes)
            self._columns[key] = built
        return built


def check_quantisation(qrels: ElementQrels, quant: str) -> None:
    """FormatError naming the qrels file when `quant` does not exist on the qrels' scale."""
    try:
        quantisation.definition_for(quant, qrels.scale)
    except ValueError as error:
        raise FormatError(qrels.file, None, str(error)) from None


def evaluate_elements(
    qrels: ElementQrels | PreparedElementQrels,
    run: Run,
    settings: Settings,
    spans: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    by_topic: bool = False,
) -> RunEvaluation:
    """Evaluate an element run (records from `read_run`, paths canonical) with element
    measures (spec section 5); `spans` maps (article, path) to its span when a collection is
    known (inex_eval_ng needs it).

    Topics are the run's topics found in the qrels, in run order, then every qrels topic the
    run misses, scored 0 (spec section 5 averages over the qrels topics). The whole run is
    evaluated at once on columns (`run_columns`) unless inex_eval_ng is asked for or `by_topic`
    is set: then topic by topic (`topic.evaluate_topic`), which gives the same values.
    """
    options = settings.elements or element_topic.ElementOptions()
    prepared = qrels if isinstance(qrels, PreparedElementQrels) else PreparedElementQrels(qrels)
    qrels = prepared.qrels
    check_quantisation(qrels, options.quant)
    if run.kind != "element":
        raise FormatError(run.file, None, f"task elements needs an element run, not {run.kind}")
    evaluation = RunEvaluation(run.run_id, run.file, settings, [], list(run.warnings))
    wanted = element_rows(settings.measures)
    evaluation.unknown_topics.extend(t for t in run.topics if t not in qrels.topics)
    found = [(t, results) for t, results in run.topics.items() if t in qrels.topics]
    if by_topic or element_topic.needs_spans(wanted) or len(qrels.topics) > MAX_TOPICS:
        lookup = spans or {}
        for topic, results in found:
            ranked = [
                element_topic.ElementResult(
                    r.article, r.path or "", r.score, r.line, lookup.get((r.article, r.path or ""))
                )
                for r in results
            ]
            base = prepared.topic(topic, qrels.topics[topic], options)
            values = element_topic.evaluate_topic(ranked, base, qrels.scale, options, wanted)
            evaluation.topics.append(TopicEvaluation(topic, dict(values)))
    else:
        columns = prepared.columns(options)
        keys = [
            (t, ([r.article for r in rs], [r.path or "" for r in rs], [r.score for r in rs]))
            for t, rs in found
        ]
        rows = run_columns.evaluate_run(
            columns, prepared.codes, keys, options.alpha, options.ties, options.nonrel, wanted
        )
        for (topic, _), values in zip(found, rows, strict=True):
            evaluation.topics.append(TopicEvaluation(topic, values))
    for topic, judged in qrels.topics.items():
        if topic not in run.topics:
            base = prepared.topic(topic, judged, options)
            values = element_topic.evaluate_topic([], base, qrels.scale, options, wanted)
            evaluation.topics.append(TopicEvaluation(topic, dict(values), answered=False))
    return evaluation
