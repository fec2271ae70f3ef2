"""Writers for every qrels export (`focal export-qrels --format ...`), spec sections 2 and 4.

- ``fol``: INEX 2009/2010 FOL qrels (`write_fol`), offsets in code points (the stored form) or,
  on request, UTF-16 units or UTF-8 bytes. Converting needs each article's text; an article known
  only by id and length (collection not imported) can only be written in code points.
  In another unit EVERY number of the line is in that unit: offsets, lengths, the BEP,
  ``rel_chars`` (sum of passage lengths) and ``article_chars`` (length of the whole text).
- ``elements``: one tab-separated line per element, ``topic article path exhaustivity
  specificity rsize size`` (`write_elements`). Specificity is written exactly (shortest
  round-trip decimal, never an exponent); exhaustivity is ``2``/``0`` on the implicit 2006 scale
  or the assessor's ``2``/``1``/``0``/``?`` on the 2005 scale.
- ``elements --xml``: the INEX 2005/2006 assessment XML (`write_assessments_xml`). Layout chosen
  here (the original DTDs are not at hand; this keeps their element and attribute names):

      <assessments topic="T" scale="2006">
        <file file="ARTICLE" size="ARTICLE_CHARS" rsize="REL_CHARS">
          <path path="/article[1]" exhaustivity="2" specificity="0.5" size="10" rsize="5"/>
        </file>
      </assessments>

  One ``<assessments>`` per topic; with several topics they are wrapped in one
  ``<assessment-set>`` root. Every judged article gets a ``<file>``, a non-relevant one with
  ``rsize="0"`` and no ``<path>``.
- ``trec``: TREC article qrels ``topic 0 article rel`` (`write_trec`): binary (``rel_chars > 0``)
  or graded 0-3 by the highlighted share of the article, with the published three-point cut
  points of spec section 5 (seed 003 §5.2.6, after Pehcevski & Thom):
  (0, 0.33] -> 1, (0.33, 0.67] -> 2, (0.67, 1] -> 3 (`element_qrels.specificity_grade`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Literal, TextIO

import numpy as np
from lxml import etree

from focal.evaluation.formats.elements.qrels import DerivedElement, specificity_grade
from focal.evaluation.formats.fol.qrels import write_qrels
from focal.evaluation.formats.records import Judgement, Qrels

OffsetUnit = Literal["codepoint", "utf16", "utf8"]
OFFSET_UNITS: tuple[OffsetUnit, ...] = ("codepoint", "utf16", "utf8")
TextLookup = Callable[[str], "str | None"]


class ExportError(ValueError):
    """An export that cannot be written as asked (missing text, text that does not fit)."""


@dataclass(frozen=True, slots=True)
class ArticleElements:
    """The derived elements of one judged article, with the article's own sizes."""

    topic: str
    article: str
    size: int
    rsize: int
    elements: tuple[DerivedElement, ...]


def exact_decimal(value: float) -> str:
    """The shortest decimal that reads back as `value`, without an exponent.

    >>> exact_decimal(0.5), exact_decimal(1.0), exact_decimal(1 / 3), exact_decimal(1e-7)
    ('0.5', '1', '0.3333333333333333', '0.0000001')
    """
    return np.format_float_positional(value, trim="-")


class OffsetConverter:
    """Code point offsets of one text to UTF-16 units or UTF-8 bytes (prefix sums)."""

    def __init__(self, text: str, unit: OffsetUnit) -> None:
        points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        if unit == "utf16":
            widths = 1 + (points >= 0x10000)
        elif unit == "utf8":
            widths = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
        else:
            widths = np.ones(len(points), dtype=np.int64)
        self._prefix = np.concatenate(([0], np.cumsum(widths, dtype=np.int64)))

    def __call__(self, offset: int) -> int:
        return int(self._prefix[offset])

    @property
    def length(self) -> int:
        return int(self._prefix[-1])


def convert_judgement(judgement: Judgement, text: str, unit: OffsetUnit) -> Judgement:
    """`judgement` with every offset, length and count in `unit` (the text must fit it)."""
    if len(text) != judgement.article_chars:
        raise ExportError(
            f"topic {judgement.topic}, article {judgement.article}: the qrels say "
            f"{judgement.article_chars} characters but the document text has {len(text)}"
        )
    if unit == "codepoint":
        return judgement
    at = OffsetConverter(text, unit)
    passages = tuple((at(start), at(end)) for start, end in judgement.passages)
    bep = None
    if judgement.bep is not None:
        # a BEP past the end (real qrels have some) stays past the end by the same amount
        inside = min(judgement.bep, len(text))
        bep = at(inside) + judgement.bep - inside
    return replace(
        judgement,
        passages=passages,
        bep=bep,
        rel_chars=sum(end - start for start, end in passages),
        article_chars=at.length,
    )


def write_fol(
    qrels: Qrels,
    stream: TextIO,
    *,
    offset_unit: OffsetUnit = "codepoint",
    text_of: TextLookup | None = None,
) -> None:
    """Write FOL qrels, converting offsets to `offset_unit` with the texts `text_of` gives."""
    if offset_unit not in OFFSET_UNITS:
        raise ExportError(f"offset unit must be one of {', '.join(OFFSET_UNITS)}")
    if offset_unit == "codepoint":
        write_qrels(qrels, stream)
        return
    converted: Qrels = {}
    for topic, articles in qrels.items():
        converted[topic] = {}
        for article, judgement in articles.items():
            text = text_of(article) if text_of is not None else None
            if text is None:
                raise ExportError(
                    f"--offset-unit {offset_unit} needs the text of article {article} (topic "
                    f"{topic}), which is known only by id and length; import its collection or "
                    "export in codepoint offsets"
                )
            converted[topic][article] = convert_judgement(judgement, text, offset_unit)
    write_qrels(converted, stream)


def write_elements(articles: Iterable[ArticleElements], stream: TextIO) -> None:
    """Tab-separated ``topic article path exhaustivity specificity rsize size`` lines."""
    for article in articles:
        for r in article.elements:
            fields = (r.topic, r.article, r.path, r.exhaustivity, exact_decimal(r.specificity))
            stream.write("\t".join((*fields, str(r.rsize), str(r.size))) + "\n")


def write_assessments_xml(
    articles: Iterable[ArticleElements],
    stream: TextIO,
    *,
    scale: str | Mapping[str, str] = "2006",
) -> None:
    """The INEX 2005/2006 assessment XML (layout in the module docstring).

    `scale` is one scale for every topic, or a mapping topic -> scale (default ``2006``).
    """
    topics = []
    for topic, group in groupby(articles, key=lambda a: a.topic):
        topic_scale = scale if isinstance(scale, str) else scale.get(topic, "2006")
        node = etree.Element("assessments", topic=topic, scale=topic_scale)
        for article in group:
            file_node = etree.SubElement(
                node,
                "file",
                file=article.article,
                size=str(article.size),
                rsize=str(article.rsize),
            )
            for r in article.elements:
                etree.SubElement(
                    file_node,
                    "path",
                    path=r.path,
                    exhaustivity=r.exhaustivity,
                    specificity=exact_decimal(r.specificity),
                    size=str(r.size),
                    rsize=str(r.rsize),
                )
        topics.append(node)
    if len(topics) == 1:
        root = topics[0]
    else:
        root = etree.Element("assessment-set")
        root.extend(topics)
    body = etree.tostring(root, encoding="unicode", pretty_print=True)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n' + body)


def trec_grade(judgement: Judgement, *, graded: bool) -> int:
    """Binary 1/0 by ``rel_chars > 0``, or 0-3 by the highlighted share at the cut points
    0.33 and 0.67 (seed 003 §5.2.6).

    >>> from focal.evaluation.formats.records import Judgement
    >>> j = Judgement("1", "a", 34, 100, 0, ((0, 34),), 0)
    >>> trec_grade(j, graded=False), trec_grade(j, graded=True)
    (1, 2)
    """
    relevant, size = judgement.rel_chars, judgement.article_chars
    if relevant <= 0:
        return 0
    if not graded:
        return 1
    return specificity_grade(relevant / size)


def write_trec(qrels: Qrels, stream: TextIO, *, graded: bool = False) -> None:
    """TREC article qrels: ``topic 0 article grade``, one line per judged article."""
    for topic, articles in qrels.items():
        for article, judgement in articles.items():
            stream.write(f"{topic} 0 {article} {trec_grade(judgement, graded=graded)}\n")
