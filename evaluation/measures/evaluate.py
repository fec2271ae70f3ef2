"""Evaluate a run against qrels: per-topic records first, aggregation separately.

>>> from evaluation.formats.records import Judgement, Result, Run
>>> qrels = {"1": {"a": Judgement("1", "a", 10, 100, 0, ((0, 10),), 1)}}
>>> run = Run("r", "r.run", "fol", {"1": [Result("1", "a", 1, 1.0, 1, start=0, length=20)]})
>>> evaluation = evaluate(qrels, run, task="focused")
>>> evaluation.topics[0].values["char_prec"], aggregate(evaluation)["MAiP"]
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from evaluation.errors import FormatError
from evaluation.formats.columns import RunColumns, TopicColumns
from evaluation.formats.records import Result, Run
from evaluation.measures.articles import topic as articles
from evaluation.measures.elements import topic as element_topic
from evaluation.measures.passages import focused, incontext
from evaluation.measures.passages.text import RelevantText, TopicLines
from evaluation.measures.prepared import PreparedQrels as PreparedQrels
from evaluation.measures.prepared import Qrels as Qrels
from evaluation.measures.registry import declarations

Value = int | float


@dataclass(frozen=True)
class Settings:
    """How to evaluate: the task and the official program's switches."""

    task: str = "focused"
    complete: bool = False  # -c: average over every qrels topic, missing topics scoring 0
    beta: float = 0.25  # -beta: F weight of Relevant in Context
    n: int = 500  # -n: Best in Context distance window
    irr: int = 300  # -irr: T2I tolerance to irrelevance (characters)
    strict: bool = False  # corrected definitions instead of the official quirks
    measures: tuple[str, ...] = articles.DEFAULT_MEASURES  # for task "articles"
    elements: element_topic.ElementOptions | None = None  # for task "elements"

    def __post_init__(self) -> None:
        if self.task not in declarations.TASKS:
            raise ValueError(f"unknown task {self.task!r}: one of {', '.join(declarations.TASKS)}")
        if self.task == "elements":
            _check_element_settings(self)
            return
        for name in self.measures:
            articles.check_measure(name)
        if self.n < 1 or self.irr < 1 or self.beta < 0:
            raise ValueError("n and irr must be at least 1 and beta at least 0")


@dataclass(frozen=True)
class TopicEvaluation:
    """One topic's values, in printed order, and its interpolated precision curve."""

    topic: str
    values: dict[str, Value]
    curve: tuple[float, ...] = ()  # iP at 101 (focused) or 11 (in context) recall points
    answered: bool = True  # False: absent from the run, scored 0 (only with `complete`)


@dataclass
class RunEvaluation:
    """A run's per-topic evaluation and what was noticed on the way."""

    run_id: str
    file: str
    settings: Settings
    topics: list[TopicEvaluation]
    warnings: list[str] = field(default_factory=list)
    unknown_topics: list[str] = field(default_factory=list)  # in the run, not in the qrels
    # (num_rel, rel_size) summed over every qrels topic: the `all` rows of ric, bic and t2i
    qrels_relevant: tuple[int, int] | None = None

    @property
    def averaging(self) -> str:
        answered = sum(1 for t in self.topics if t.answered)
        if self.settings.complete:
            return f"averaged over all {len(self.topics)} qrels topics (-c; {answered} answered)"
        return f"averaged over the {answered} qrels topics the run answers (no -c)"


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
    if task == "elements":
        raise ValueError(
            "element runs are scored against element qrels: evaluation.measures.engines.element_topics"  # noqa: E501
        )
    prepared = qrels if isinstance(qrels, PreparedQrels) else PreparedQrels(qrels)
    evaluation = RunEvaluation(run.run_id, run.file, settings, [], list(run.warnings))
    if task != "articles" and run.kind != "fol":
        raise FormatError(run.file, None, f"task {task} needs a FOL run, not an {run.kind} run")
    for topic, results in run.topics.items():
        if topic not in prepared.qrels:
            evaluation.unknown_topics.append(topic)
            continue
        evaluation.topics.append(_evaluate_topic(prepared, topic, results, evaluation))
    if settings.complete:
        for topic in prepared.qrels:
            if topic not in run.topics:
                evaluation.topics.append(missing_topic(prepared, topic, settings))
    if task in declarations.CONTEXT_TASKS:
        evaluation.qrels_relevant = prepared.relevant_totals()
    return evaluation


def _evaluate_topic(
    prepared: PreparedQrels,
    topic: str,
    results: Sequence[Result] | TopicColumns,
    evaluation: RunEvaluation,
) -> TopicEvaluation:
    settings, file = evaluation.settings, evaluation.file
    if settings.task == "articles":
        ranking = articles.article_ranking(results)
        judged = prepared.article_judgements(topic)
        return TopicEvaluation(topic, articles.evaluate_topic(ranking, judged, settings.measures))
    text = prepared.text(topic)
    if text.num_rel == 0:
        evaluation.warnings.append(f"topic {topic} has no relevant text: every measure is 0")
    if isinstance(results, TopicColumns):
        lines = TopicLines.from_columns(results)
    else:
        lines = TopicLines.from_results(results, file)
    _note_past_end(lines, text, evaluation)
    if settings.task in declarations.PASSAGE_TASKS:
        if settings.task == "focused":
            focused.check_no_overlap(lines, file)
        thorough = settings.task == "thorough"
        values, curve, notes = focused.evaluate_topic(
            lines, text, thorough=thorough, strict=settings.strict
        )
        evaluation.warnings.extend(f"topic {topic}: {note}" for note in notes)
        return TopicEvaluation(topic, values, tuple(curve))
    if settings.task == "ric" or settings.task == "t2i":
        focused.check_no_overlap(lines, file)
    values, curve = incontext.evaluate_topic(
        settings.task, lines, text, file=file, beta=settings.beta, n=settings.n,
        irr=settings.irr, strict=settings.strict,
    )  # fmt: skip
    return TopicEvaluation(topic, values, tuple(curve))


def _note_past_end(lines: TopicLines, text: RelevantText, evaluation: RunEvaluation) -> None:
    """Warn about results that end past their (judged) article's length."""
    sizes = text.article_chars
    count = len(lines.unique)
    limits = np.fromiter(map(sizes.get, lines.unique, repeat(-1, count)), np.int64, count)
    limit = limits[lines.codes]
    for i in np.flatnonzero((limit >= 0) & (lines.ends > limit)).tolist():
        evaluation.warnings.append(
            f"{evaluation.file}:{int(lines.lines[i])}: result ends at {int(lines.ends[i])}, "
            f"past the end of article {lines.article(i)} ({int(limit[i])} characters)"
        )


def missing_topic(
    prepared: PreparedQrels,
    topic: str,
    settings: Settings,
    relevant: tuple[int, int] | None = None,
) -> TopicEvaluation:
    """A qrels topic the run does not answer: every measure 0, relevant counts as judged
    (`relevant`: the topic's num_rel and rel_size when the caller has them already)."""
    if settings.task == "articles":
        judged = prepared.article_judgements(topic)
        values = articles.evaluate_topic([], judged, settings.measures)
        return TopicEvaluation(topic, values, answered=False)
    if relevant is None:
        text = prepared.text(topic)
        relevant = text.num_rel, text.rel_size
    values = {
        row: 0 if declarations.is_summed(row) else 0.0
        for row in declarations.topic_rows(settings.task)
    }
    values["num_rel"], values["rel_size"] = relevant
    points = (
        focused.RECALL_POINTS
        if settings.task in declarations.PASSAGE_TASKS
        else incontext.RECALL_POINTS
    )
    return TopicEvaluation(topic, values, (0.0,) * points, answered=False)


def aggregate(evaluation: RunEvaluation) -> dict[str, Value]:
    """The `all` rows: num_q, sums of counts, means of measures (sequential sums, as the
    official program), MAiP/MAgP, and the interpolated precision curve `ircl_prn.x`.

    For ric, bic and t2i, `num_rel` and `rel_size` are summed over every qrels topic even
    without -c, as the official program 3.1 prints them (checked on an INEX 2010 run that
    answers 50 of the 52 topics: 5471 and 17,641,119, the whole qrels)."""
    topics = evaluation.topics
    count = len(topics)
    task = evaluation.settings.task
    result: dict[str, Value] = {"num_q": count}
    if not topics:
        return result
    rows = list(topics[0].values)
    for row in rows:
        column = [t.values[row] for t in topics]
        if declarations.is_summed(row):
            result[row] = int(sum(column))
        elif row not in ("AiP", "AgP"):
            result[row] = sum(map(float, column)) / count
    if task in declarations.CONTEXT_TASKS and evaluation.qrels_relevant is not None:
        # The official program sums these two over every qrels topic, with or without -c, for
        # the in-context tasks (focused and thorough sum over the topics averaged).
        result["num_rel"], result["rel_size"] = evaluation.qrels_relevant
    if task in declarations.PASSAGE_TASKS:
        result = _insert_before(result, "iP[0.00]", {}, after={"MAiP": _mean(topics, "AiP")})
    elif task in declarations.CONTEXT_TASKS:
        result = _insert_before(result, "gP[1]", {"MAgP": _mean(topics, "AgP")})
    if task != "articles":
        points = len(topics[0].curve)
        # The curves' columns, each summed in topic order (as the official program sums them).
        for i, at_level in enumerate(zip(*(t.curve for t in topics), strict=True)):
            result[declarations.curve_name(i / (points - 1))] = sum(at_level) / count
    return result


def _mean(topics: Sequence[TopicEvaluation], row: str) -> float:
    return sum([float(t.values[row]) for t in topics]) / len(topics)


def _insert_before(
    rows: dict[str, Value],
    anchor: str,
    before: dict[str, Value],
    after: dict[str, Value] | None = None,
) -> dict[str, Value]:
    """Insert `before` ahead of `anchor`, or `after` at the end: the official `all` order."""
    ordered: dict[str, Value] = {}
    for name, value in rows.items():
        if name == anchor:
            ordered.update(before)
        ordered[name] = value
    ordered.update(after or {})
    return ordered


def _check_element_settings(settings: Settings) -> None:
    """Element task: its own default measures and options; every selection checked."""
    if settings.measures == articles.DEFAULT_MEASURES:
        object.__setattr__(settings, "measures", element_topic.DEFAULT_MEASURES)
    if settings.elements is None:
        object.__setattr__(settings, "elements", element_topic.ElementOptions())
    object.__setattr__(settings, "complete", True)  # spec section 5: over the qrels topics
    for name in settings.measures:
        element_topic.check_measure(name)
    options = settings.elements
    assert options is not None
    from evaluation.measures.elements import quantisation

    quantisation.canonical(options.quant)
    if options.ties not in ("score", "rank"):
        raise ValueError(f"unknown tie handling {options.ties!r}: score or rank")
    if options.nonrel not in ("indicator", "complement"):
        raise ValueError(f"unknown non-relevance {options.nonrel!r}: indicator or complement")
    if not 0.0 <= options.alpha <= 1.0:
        raise ValueError("alpha must be in [0, 1]")
