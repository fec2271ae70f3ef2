"""The agreement table of two assessors: the rows every front end prints (spec section 7).

One row per topic both judged and an `all` row, with the columns of `agreement.COLUMNS`; with
element records, the columns of `element_agreement.ELEMENT_COLUMNS` and Krippendorff's `alpha`
follow. `focal agreement` (files or database) and the organiser's agreement page both build it
here, so they show the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evaluation.formats.exports import ArticleElements
from evaluation.formats.records import Qrels
from evaluation.statistics.agreement.assessors import COLUMNS, Cell, TopicAgreement, agreement
from evaluation.statistics.agreement.elements import (
    ELEMENT_COLUMNS,
    ElementAgreement,
    element_agreement,
    element_summary,
)

ElementsByTopic = Mapping[str, Sequence[ArticleElements]]
"""One assessor's element records, per topic (relevant articles; others have none)."""


@dataclass(frozen=True, slots=True)
class AgreementTable:
    """Per-topic rows, the `all` row, and the element level when it was asked for."""

    names: tuple[str, str]
    rows: list[TopicAgreement]
    total: TopicAgreement
    element_rows: list[ElementAgreement] | None = None
    element_total: ElementAgreement | None = None

    @property
    def has_elements(self) -> bool:
        return self.element_rows is not None

    def columns(self) -> tuple[str, ...]:
        """The column names, in order."""
        return COLUMNS + ((*ELEMENT_COLUMNS, "alpha") if self.has_elements else ())

    def records(self) -> list[dict[str, Cell]]:
        """Every row (the topics, then `all`) as column -> value, in column order."""
        element_rows: list[ElementAgreement | None] = [None] * (len(self.rows) + 1)
        if self.element_rows is not None and self.element_total is not None:
            element_rows = [*self.element_rows, self.element_total]
        out = []
        for row, elements in zip([*self.rows, self.total], element_rows, strict=True):
            cells = row.cells()
            if elements is not None:
                cells.update(elements.cells())
            out.append({column: cells[column] for column in self.columns()})
        return out


def agreement_table(
    qrels_a: Qrels,
    qrels_b: Qrels,
    *,
    topic: str | None = None,
    names: tuple[str, str] = ("A", "B"),
    elements: tuple[ElementsByTopic, ElementsByTopic] | None = None,
) -> AgreementTable:
    """The table of two assessors' qrels; with `elements`, the element level too.

    Raises `agreement.AgreementError` when they have no topic in common, or `topic` is not
    judged by both. Worked: A highlights characters 0-10 of article x, B characters 5-10; both
    call it relevant, they share 5 characters, half of A's and all of B's:

    >>> from evaluation.formats.records import Judgement
    >>> a = {"1": {"x": Judgement("1", "x", 10, 100, 0, ((0, 10),), 1)}}
    >>> b = {"1": {"x": Judgement("1", "x", 5, 100, 5, ((5, 10),), 1)}}
    >>> row = agreement_table(a, b).rows[0]
    >>> row.docs_both, row.chars_both, row.both_over_a, row.both_over_b, row.both_over_union
    (1, 5, 0.5, 1.0, 0.5)
    """
    rows, total = agreement(qrels_a, qrels_b, topic, names)
    if elements is None:
        return AgreementTable(names, rows, total)
    by_topic_a, by_topic_b = elements
    element_rows = [
        element_agreement(row.topic, by_topic_a.get(row.topic, ()), by_topic_b.get(row.topic, ()))
        for row in rows
    ]
    return AgreementTable(names, rows, total, element_rows, element_summary(element_rows))
