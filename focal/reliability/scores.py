"""Per-topic scores of many runs on one measure, the input of every reliability study.

Scores average over every qrels topic, a topic a run does not answer scoring 0, as `focal eval
-c` does (spec §9): a study that changes the judgements must not change which topics count.

Element runs (`--task elements`) are scored by `focal eval --task elements`'s evaluation
against element qrels (`ElementScoring`); a study reduces their judgements a whole article at a
time, as it reduces FOL qrels, and the element qrels keep the elements of the articles left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.formats.elements.qrels import ElementQrels
from focal.evaluation.formats.elements.runs import Spans
from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Judgement, Run
from focal.evaluation.measures.elements.topic import ElementOptions
from focal.evaluation.measures.engines.element_topics import PreparedElementQrels, evaluate_elements
from focal.evaluation.measures.evaluate import PreparedQrels, Qrels, evaluate
from focal.evaluation.measures.registry.declarations import topic_rows

DEFAULT_MEASURES = {
    "focused": "AiP",
    "thorough": "AiP",
    "ric": "AgP",
    "bic": "AgP",
    "t2i": "AgP",
    "articles": "MAP",
    "elements": "MAep",
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
        from focal.evaluation.measures.registry.names import claims, parse

        if claims(chosen, "articles"):
            return parse(chosen, "articles").text
        _trec_row(chosen)  # any other name of the one vocabulary (AP, nDCG@10, P(rel=2)@5)
        return chosen
    if task == "elements":
        from focal.evaluation.measures.registry.names import element_rows

        rows = element_rows([chosen])
        if rows != [chosen]:
            raise ValueError(f"-m {chosen} stands for {len(rows)} rows: name one, e.g. {rows[0]}")
        return chosen
    rows = topic_rows(task)
    if chosen not in rows:
        raise ValueError(
            f"task {task} has no per-topic measure {measure!r}: one of {', '.join(rows)}"
        )
    return chosen


@dataclass(frozen=True)
class ElementScoring:
    """How a study scores element runs: the element qrels of every judged article, the
    article-level judgements the study reduces (`articles`), the options of `focal eval --task
    elements` and each run's element spans (run id -> spans)."""

    qrels: ElementQrels
    articles: Qrels
    options: ElementOptions = field(default_factory=ElementOptions)
    spans: Mapping[str, Spans] = field(default_factory=dict)
    full: PreparedElementQrels = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "full", PreparedElementQrels(self.qrels))

    def kept(self, judged: Qrels) -> PreparedElementQrels:
        """The element qrels of the articles `judged` keeps; for `articles` itself, the full
        qrels, whose topics are prepared once for every call."""
        if judged is self.articles:
            return self.full
        reduced = ElementQrels(self.qrels.file, self.qrels.scale)
        for topic, elements in self.qrels.topics.items():
            articles = judged.get(topic, {})
            reduced.topics[topic] = {k: j for k, j in elements.items() if k[0] in articles}
        return PreparedElementQrels(reduced)


def article_judgements(qrels: ElementQrels) -> dict[str, dict[str, Judgement]]:
    """Element qrels as the article-level judgements a study reduces: one per judged article
    of a topic, relevant when any of its elements is (e > 0; s > 0 on the 2005 scale).

    >>> from focal.evaluation.formats.elements.qrels import ElementJudgement
    >>> j = ElementJudgement("1", "a", "/x[1]", 2, 1, 4)
    >>> article_judgements(ElementQrels("q", "2004", {"1": {("a", "/x[1]"): j}}))["1"]["a"].relevant
    True
    """
    out: dict[str, dict[str, Judgement]] = {}
    for topic, elements in qrels.topics.items():
        articles: dict[str, Judgement] = out.setdefault(topic, {})
        for (article, _), judged in elements.items():
            relevant = judged.e4 > 0 or bool(judged.s5)
            earlier = articles.get(article)
            if earlier is None or (relevant and not earlier.relevant):
                articles[article] = Judgement(
                    topic, article, int(relevant), 1, None, ((0, 1),) if relevant else (),
                    earlier.line if earlier else judged.line,
                )  # fmt: skip
    return out


def score_matrix(
    qrels: Qrels | PreparedQrels,
    runs: Sequence[Run | RunColumns],
    task: str,
    measure: str,
    topics: Sequence[str] | None = None,
    elements: ElementScoring | None = None,
) -> ScoreMatrix:
    """Evaluate every run with `-c` on `qrels` and keep one measure per topic.

    `topics` fixes the columns (default: the qrels topics in qrels order); a topic missing from
    `qrels` (a sampled collection that lost all its judgements) scores 0 for every run. Task
    `elements` needs `elements`: the runs are scored on its element qrels of the articles
    `qrels` keeps.
    """
    prepared = qrels if isinstance(qrels, PreparedQrels) else PreparedQrels(qrels)
    columns = tuple(topics) if topics is not None else tuple(prepared.qrels)
    position = {topic: index for index, topic in enumerate(columns)}
    values = np.zeros((len(runs), len(columns)))
    if task == "elements":
        if elements is None:
            raise ValueError("task elements is scored on element qrels: give ElementScoring")
        from focal.evaluation.measures.records import Settings

        kept = elements.kept(prepared.qrels)
        settings = Settings(task="elements", complete=True, elements=elements.options,
                            measures=(measure,))  # fmt: skip
        for row, run in enumerate(runs):
            assert isinstance(run, Run)
            evaluation = evaluate_elements(kept, run, settings, elements.spans.get(run.run_id))
            for topic in evaluation.topics:
                if topic.topic in position:
                    values[row, position[topic.topic]] = float(topic.values[measure])
        return ScoreMatrix(tuple(run.run_id for run in runs), columns, values)
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
    from focal.evaluation.measures.registry.names import claims

    return claims(measure, "articles")


def _trec_row(measure: str) -> str:
    """The one per-topic row trec_eval's engine prints for `measure`; ValueError otherwise."""
    from focal.evaluation.measures.trec_eval.engine.vocabulary import select
    from focal.evaluation.measures.trec_eval.families.declarations import SUMMARY_ONLY

    rows = [r.name for r in select([measure]).rows() if r.family not in SUMMARY_ONLY]
    if len(rows) != 1:
        raise ValueError(f"-m {measure} is {len(rows)} per-topic measures; a study ranks by one")
    return rows[0]


def _trec_values(prepared: PreparedQrels, run: Run | RunColumns, measure: str) -> dict[str, float]:
    """Per-topic values of `measure` by trec_eval's engine on the FOL qrels (grade 1: an
    article with relevant text), every qrels topic counted (-c)."""
    from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
    from focal.evaluation.measures.trec_eval.engine.run import TrecOptions, run_from_records
    from focal.evaluation.measures.trec_eval.engine.vocabulary import evaluate_named, select

    if not isinstance(run, Run):
        raise ValueError(f"measure {measure} of task articles needs runs read as records")
    index = GradeTable.from_fol(prepared.qrels)
    evaluation = evaluate_named(
        index, run_from_records(run), select([measure]), TrecOptions(complete=True)
    )
    column = evaluation.values[_trec_row(measure)]
    return {topic: float(value) for topic, value in zip(evaluation.topics, column, strict=True)}
