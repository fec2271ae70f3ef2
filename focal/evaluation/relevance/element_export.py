"""A judged article's element records for the element exports (spec sections 4 and 2).

Element relevance is derived from the judgement's passages (`derivation`): on the implicit 2006
scale, or with the 2005 two-phase exhaustivity values given; `focal.evaluation.formats.exports`
writes the records as tab-separated lines or INEX assessment XML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from focal.evaluation.formats.elements.qrels import DerivedElement
from focal.evaluation.formats.exports import ArticleElements, ExportError
from focal.evaluation.formats.records import Judgement
from focal.evaluation.relevance.derivation import ElementLike, derive


def article_elements(
    judgement: Judgement,
    elements: Sequence[ElementLike],
    *,
    text_length: int,
    exhaustivity: Mapping[str, str] | None = None,
    all_elements: bool = False,
) -> ArticleElements:
    """The element records of one judged article.

    With `exhaustivity` None the implicit 2006 scale is used; otherwise it maps paths to the
    2005 two-phase values, and an element with highlighted text but no value yet is left out.
    By default only elements with highlighted text are listed; `all_elements` lists every one.
    """
    if text_length != judgement.article_chars:
        raise ExportError(
            f"topic {judgement.topic}, article {judgement.article}: the qrels say "
            f"{judgement.article_chars} characters but the document text has {text_length}"
        )
    derived = derive(elements, judgement.passages)
    records = []
    for row in derived.rows(relevant_only=not all_elements):
        if row.rsize == 0:
            value: str | None = "0"
        elif exhaustivity is None:
            value = str(row.exhaustivity)
        else:
            value = exhaustivity.get(row.path)
        if value is None:
            continue
        records.append(
            DerivedElement(
                judgement.topic,
                judgement.article,
                row.path,
                value,
                row.specificity,
                row.rsize,
                row.size,
            )
        )
    return ArticleElements(
        judgement.topic,
        judgement.article,
        judgement.article_chars,
        judgement.rel_chars,
        tuple(records),
    )
