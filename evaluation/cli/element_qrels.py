"""Element qrels for `focal eval --task elements`: read from a file, or derived on the fly from
FOL passage qrels and the collection (spec sections 4 and 5).

Derivation is the element export's (`relevance.element_export.article_elements`, 2006 implicit
scale: e = 2 where any text is highlighted, s = rsize / size), so that scoring the export and
scoring the FOL qrels with `--collection` give the same numbers.
"""

from __future__ import annotations

from pathlib import Path

from evaluation.errors import FormatError
from evaluation.formats._source import read_bytes
from evaluation.formats.convert import Collection
from evaluation.formats.elements.qrels import (
    ElementJudgement,
    ElementQrels,
    read_element_qrels,
    to_four_grades,
)
from evaluation.formats.fol.qrels import read_qrels
from evaluation.relevance.element_export import article_elements


def is_fol_qrels(path: str | Path) -> bool:
    """Whether the first non-blank line looks like FOL qrels (`topic Q0 article ...`)."""
    for line in read_bytes(path).split(b"\n"):
        fields = line.split()
        if fields:
            return len(fields) >= 5 and fields[1] == b"Q0"
    return False


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


def derive_element_qrels(path: str | Path, collection: Collection) -> ElementQrels:
    """Element qrels of every judged article of FOL qrels, derived from its highlights."""
    qrels = read_qrels(path)
    elements = ElementQrels(str(path), "2005")
    for topic, judged in qrels.items():
        elements.topics.setdefault(topic, {})
        for article, judgement in judged.items():
            document = collection.document(article, str(path), judgement.line)
            try:
                exported = article_elements(
                    judgement, document.elements, text_length=len(document.text)
                )
            except ValueError as error:
                raise FormatError(path, judgement.line, str(error)) from None
            for record in exported.elements:
                e4, s4 = to_four_grades(record.exhaustivity, record.specificity)
                elements.add(
                    ElementJudgement(
                        topic,
                        article,
                        record.path,
                        e4,
                        s4,
                        judgement.line,
                        record.exhaustivity,
                        record.specificity,
                        record.rsize,
                        record.size,
                    )
                )
    return elements
