"""The passage tasks topic by topic (Kamps et al., INEX 2007 Evaluation Measures; Geva et al.
2009; Arvola et al. 2010): a topic's results as `TopicLines`, checked for what its task forbids,
then scored by `passages.focused` (focused, thorough) or `passages.incontext` (ric, bic, t2i)
into the rows of the official program's layout (`registry.declarations.topic_rows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat

import numpy as np

from focal.evaluation.formats.fol.columns import TopicColumns
from focal.evaluation.formats.records import Result
from focal.evaluation.measures.passages import focused, incontext
from focal.evaluation.measures.passages.text import RelevantText, TopicLines
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation
from focal.evaluation.measures.registry import declarations


def evaluate_topic(
    prepared: PreparedQrels,
    topic: str,
    results: Sequence[Result] | TopicColumns,
    evaluation: RunEvaluation,
) -> TopicEvaluation:
    """One topic of a passage task: its rows in the official layout and its iP curve; warnings
    (no relevant text, results past an article's end, notes of the focused task) go to
    `evaluation`; FormatError for what the task does not allow (overlap, an article coming back
    in an in-context run)."""
    settings, file = evaluation.settings, evaluation.file
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
    """A qrels topic the run does not answer: every passage measure 0, relevant counts as judged
    (`relevant`: the topic's num_rel and rel_size when the caller has them already)."""
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
