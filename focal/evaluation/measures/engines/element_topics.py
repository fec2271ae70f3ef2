"""Element runs against element qrels (spec section 5): `RunEvaluation`s like every task's, so
the reports and `aggregate` serve them unchanged.

>>> from focal.evaluation.formats.elements.qrels import ElementJudgement, ElementQrels
>>> from focal.evaluation.formats.records import Result, Run
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

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.elements.qrels import ElementJudgement, ElementQrels
from focal.evaluation.formats.elements.run_table import ElementTable
from focal.evaluation.formats.records import Result, Run
from focal.evaluation.measures.elements import quantisation, run_columns
from focal.evaluation.measures.elements import topic as element_topic
from focal.evaluation.measures.elements.codes import (
    MAX_TOPICS,
    Codes,
    RankedColumns,
    ranked_columns,
    table_columns,
)
from focal.evaluation.measures.elements.rows import asks
from focal.evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation, aggregate
from focal.evaluation.measures.registry.names import element_selection

__all__ = [
    "PreparedElementQrels",
    "aggregate",
    "evaluate_element_table",
    "evaluate_elements",
    "on_columns",
]


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
        """Every topic's values and recall base, before runs are handed to worker processes."""
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


def on_columns(prepared: PreparedElementQrels, settings: Settings) -> bool:
    """Whether runs against `prepared` are evaluated whole on columns (`run_columns`): unless
    inex_eval_ng (which counts characters) is asked for or the qrels hold more topics than the
    element codes can number."""
    wanted = element_selection(settings.measures)
    spans = asks(wanted, "inex_eval_ng")
    return not spans and len(prepared.qrels.topics) <= MAX_TOPICS


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
    evaluated at once on columns (`run_columns`) when `on_columns` says so and `by_topic` is
    not set; else topic by topic (`topic.evaluate_topic`), which gives the same values.
    """
    options = settings.elements or element_topic.ElementOptions()
    prepared = qrels if isinstance(qrels, PreparedElementQrels) else PreparedElementQrels(qrels)
    qrels = prepared.qrels
    check_quantisation(qrels, options.quant)
    if run.kind != "element":
        raise FormatError(run.file, None, f"task elements needs an element run, not {run.kind}")
    evaluation = RunEvaluation(run.run_id, run.file, settings, [], list(run.warnings))
    evaluation.unknown_topics.extend(t for t in run.topics if t not in qrels.topics)
    found = [(t, results) for t, results in run.topics.items() if t in qrels.topics]
    if by_topic or not on_columns(prepared, settings):
        _evaluate_topics(evaluation, prepared, found, spans or {})
    else:
        columns = prepared.columns(options)
        keys = [
            (t, ([r.article for r in rs], [r.path or "" for r in rs], [r.score for r in rs]))
            for t, rs in found
        ]
        whole = ranked_columns(columns.topics, prepared.codes, keys)
        _evaluate_columns(evaluation, prepared, whole, [t for t, _ in found])
    _add_unanswered(evaluation, prepared, set(run.topics))
    return evaluation


def evaluate_element_table(
    prepared: PreparedElementQrels, table: ElementTable, settings: Settings
) -> RunEvaluation:
    """`evaluate_elements` of a run read as a table (`formats.elements.run_table`), for the
    qrels and settings `on_columns` accepts: the same values, with no record per result."""
    options = settings.elements or element_topic.ElementOptions()
    qrels = prepared.qrels
    check_quantisation(qrels, options.quant)
    evaluation = RunEvaluation(table.run_id, table.file, settings, [], [])
    evaluation.unknown_topics.extend(t for t in table.topics if t not in qrels.topics)
    columns = prepared.columns(options)
    ranked = table_columns(columns.topics, prepared.codes, table)
    _evaluate_columns(evaluation, prepared, ranked, [t for t in table.topics if t in qrels.topics])
    _add_unanswered(evaluation, prepared, set(table.topics))
    return evaluation


def _evaluate_topics(
    evaluation: RunEvaluation, prepared: PreparedElementQrels,
    found: list[tuple[str, list[Result]]], spans: Mapping[tuple[str, str], tuple[int, int]],
) -> None:  # fmt: skip
    """The values of each topic of `found` (its results in rank order), topic by topic, added
    to `evaluation`."""
    options = evaluation.settings.elements or element_topic.ElementOptions()
    wanted = element_selection(evaluation.settings.measures)
    qrels = prepared.qrels
    for topic, results in found:
        ranked = [
            element_topic.ElementResult(
                r.article, r.path or "", r.score, r.line, spans.get((r.article, r.path or ""))
            )
            for r in results
        ]
        base = prepared.topic(topic, qrels.topics[topic], options)
        values = element_topic.evaluate_topic(ranked, base, qrels.scale, options, wanted)
        evaluation.topics.append(TopicEvaluation(topic, dict(values)))


def _evaluate_columns(
    evaluation: RunEvaluation, prepared: PreparedElementQrels,
    ranked: RankedColumns, topics: list[str],
) -> None:  # fmt: skip
    """The values of each of `topics` (those of `ranked`), added to `evaluation`."""
    options = evaluation.settings.elements or element_topic.ElementOptions()
    rows = run_columns.evaluate_run(
        prepared.columns(options), prepared.codes, ranked, options.alpha, options.ties,
        options.nonrel, element_selection(evaluation.settings.measures),
    )  # fmt: skip
    for topic, values in zip(topics, rows, strict=True):
        evaluation.topics.append(TopicEvaluation(topic, values))


def _add_unanswered(
    evaluation: RunEvaluation, prepared: PreparedElementQrels, answered: set[str]
) -> None:
    """Every qrels topic the run does not answer, scored 0, added to `evaluation`."""
    options = evaluation.settings.elements or element_topic.ElementOptions()
    wanted = element_selection(evaluation.settings.measures)
    qrels = prepared.qrels
    for topic, judged in qrels.topics.items():
        if topic not in answered:
            base = prepared.topic(topic, judged, options)
            values = element_topic.evaluate_topic([], base, qrels.scale, options, wanted)
            evaluation.topics.append(TopicEvaluation(topic, dict(values), answered=False))
