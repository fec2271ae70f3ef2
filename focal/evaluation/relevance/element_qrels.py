"""Element qrels derived from FOL passage qrels and the collection (spec sections 4, 5 and 7).

Every judged article's document is looked up in the collection and its elements' relevance
derived from the highlights by the element export's rule (`element_export.article_elements`,
2006 implicit scale: e = 2 where any text is highlighted, s = rsize / size). One derivation
serves `focal eval --task elements` with FOL qrels and `--collection` (so that scoring the
export and scoring the FOL qrels give the same numbers) and the element level of
`focal agreement --collection`.

A missing article, or one whose text length is not the qrels', is a FormatError naming the
qrels file and line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.elements.qrels import (
    ElementQrels,
    read_element_qrels,
)
from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.formats.fol.qrels import is_fol_qrels, read_qrels
from focal.evaluation.formats.records import Judgement, Qrels
from focal.evaluation.relevance.element_export import article_elements


def derived_articles(
    qrels: Qrels,
    collection: Collection,
    qrels_file: str,
    *,
    topics: Iterable[str] | None = None,
    relevant_only: bool = False,
) -> Iterator[tuple[Judgement, ArticleElements]]:
    """Each judged article of `topics` (default: all of the qrels') with its element records.

    `relevant_only` skips the articles without highlighted text, which are then not looked up.
    """
    for topic in qrels if topics is None else topics:
        for judgement in qrels.get(topic, {}).values():
            if relevant_only and not judgement.relevant:
                continue
            document = collection.document(judgement.article, qrels_file, judgement.line)
            try:
                exported = article_elements(
                    judgement, document.elements, text_length=len(document.text)
                )
            except ValueError as error:
                raise FormatError(qrels_file, judgement.line, str(error)) from None
            yield judgement, exported


def relevant_elements(
    qrels: Qrels, topics: list[str], collection: Collection, qrels_file: str
) -> dict[str, list[ArticleElements]]:
    """The element records of the relevant articles of `topics`, per topic (every topic
    present, possibly with no records): the element level of assessor agreement."""
    out: dict[str, list[ArticleElements]] = {topic: [] for topic in topics}
    for judgement, exported in derived_articles(
        qrels, collection, qrels_file, topics=topics, relevant_only=True
    ):
        out[judgement.topic].append(exported)
    return out


def derive_element_qrels(path: str | Path, collection: Collection) -> ElementQrels:
    """Element qrels of every judged article of FOL qrels, on the four-grade scale with the
    2005/2006 values kept (`to_four_grades`)."""
    qrels = read_qrels(path)
    elements = ElementQrels(str(path), "2005")
    for topic in qrels:
        elements.topics.setdefault(topic, {})
    for judgement, exported in derived_articles(qrels, collection, str(path)):
        for record in exported.elements:
            elements.add(record.as_judgement(judgement.line))
    return elements


def load_element_qrels(path: str | Path, collection: Collection | None) -> ElementQrels:
    """Element qrels from `path`: element qrels as they are, FOL qrels derived (with a
    collection; without one, FOL qrels are a FormatError)."""
    if not is_fol_qrels(path):
        return read_element_qrels(path)
    if collection is None:
        raise FormatError(
            path, None, "FOL passage qrels: give --collection DIR to derive element qrels"
        )
    return derive_element_qrels(path, collection)
