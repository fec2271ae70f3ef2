"""One export of judgements, whoever asks for it: `focal export-qrels` and the Export page.

`ExportRequest` is what is asked: the format (`fol`, `elements`, `trec`; spec sections 2 and 4),
whose judgements (one assessor per topic through `assessor` and `choices`, every assessor's with
`with_assessors`, the adjudicated ones with `adjudicated`) and the options of each format. It is
checked when it is made: an option that means nothing beside the others is an `ExportError`
naming it, never silently dropped, so that no front end writes another file than the one asked
for. `export_qrels` writes it: `qrels_export` collects one assessor's judgements per topic,
`qrels_assessors` and `gold_qrels` give the two other kinds of FOL qrels, and the pure writers of
`focal.evaluation.formats.exports` the other formats and units. The messages name the options as
the command spells them (docs/assessor.md, "Export"); the Export page's query parameters are the
same words (`topic`, `assessor`, `choose`, `with_assessors`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TextIO

from sqlalchemy.orm import Session

from focal.assessor.campaign.results.gold_qrels import adjudicated_qrels
from focal.assessor.campaign.results.qrels_assessors import qrels_with_assessors_text
from focal.assessor.campaign.results.qrels_export import (
    ExportError,
    collect_qrels,
    element_exports,
    judged_documents,
    qrels_text,
)
from focal.assessor.store import texts
from focal.assessor.store.models import Topic
from focal.evaluation.formats import exports
from focal.evaluation.formats.records import Qrels

Format = Literal["fol", "elements", "trec"]
FORMATS: tuple[Format, ...] = ("fol", "elements", "trec")


def parse_choices(values: Iterable[str]) -> dict[str, str]:
    """`TOPIC=NAME` values (`--choose`, the Export page's `choose`) as topic -> assessor; an
    ExportError names a value of any other form."""
    chosen: dict[str, str] = {}
    for value in values:
        topic, equals, name = value.partition("=")
        if not equals or not topic or not name:
            raise ExportError(f"--choose: expected TOPIC=NAME, found {value!r}")
        chosen[topic] = name
    return chosen


@dataclass(frozen=True)
class ExportRequest:
    """One export, refused when made (ExportError) if its options do not fit together.

    `topic` narrows every kind. `assessor` picks whose judgements every topic gets, `choices`
    (topic -> assessor) those of single topics. `with_assessors` writes every assessor's FOL
    qrels with the name in column two (`qrels_assessors`), `adjudicated` the gold judgements
    (`gold_qrels`); both are FOL in code points and take no choice of assessor. `offset_unit`
    (`codepoint`, `utf16`, `utf8`) applies to `fol`, `xml` (the INEX assessment XML) and
    `all_elements` to `elements`, `graded` (grades 0-3) to `trec`.
    """

    format: str = "fol"
    topic: str | None = None
    assessor: str | None = None
    choices: Mapping[str, str] = field(default_factory=dict)
    with_assessors: bool = False
    adjudicated: bool = False
    xml: bool = False
    offset_unit: str = "codepoint"
    graded: bool = False
    all_elements: bool = False

    def __post_init__(self) -> None:
        problem = self._unknown() or self._kind_problem() or self._format_problem()
        if problem is not None:
            raise ExportError(problem)

    def _unknown(self) -> str | None:
        if self.format not in FORMATS:
            return f"--format must be one of {', '.join(FORMATS)}"
        if self.offset_unit not in exports.OFFSET_UNITS:
            return f"--offset-unit must be one of {', '.join(exports.OFFSET_UNITS)}"
        return None

    def _kind_problem(self) -> str | None:
        """Every assessor's and the adjudicated qrels are FOL in code points, and choose no
        assessor."""
        plain_fol = self.format == "fol" and self.offset_unit == "codepoint"
        one_assessor = self.assessor is not None or bool(self.choices)
        if self.adjudicated and (not plain_fol or one_assessor or self.with_assessors):
            return (
                "--adjudicated writes FOL qrels in code points: it takes no --format, "
                "--offset-unit, --assessor, --choose or --with-assessors"
            )
        if self.with_assessors and (not plain_fol or one_assessor):
            return (
                "--with-assessors writes every assessor's FOL qrels in code points: "
                "it takes no --format, --offset-unit, --assessor or --choose"
            )
        return None

    def _format_problem(self) -> str | None:
        if self.offset_unit != "codepoint" and self.format != "fol":
            return "--offset-unit applies to --format fol only (the others hold no offsets)"
        if self.xml and self.format != "elements":
            return "--xml applies to --format elements only"
        if self.graded and self.format != "trec":
            return "--graded applies to --format trec only"
        if self.all_elements and self.format != "elements":
            return "--all-elements applies to --format elements only"
        return None


def export_qrels(session: Session, request: ExportRequest) -> str:
    """The export `request` asks for, as text.

    ExportError (one line for the command, the message of a 4xx page) when it cannot be written
    from the database: an unknown assessor, a topic judged by two with no choice made
    (`SeveralAssessors`), an article whose text it needs but which is known only by id and
    length, a topic that is not in the database.
    """
    if request.topic is not None and session.get(Topic, request.topic) is None:
        raise ExportError(
            f"--topic {request.topic}: no such topic in the database "
            "(`focal import topics FILE` imports them)"
        )
    if request.adjudicated:
        return qrels_text(adjudicated_qrels(session, request.topic))
    if request.with_assessors:
        return qrels_with_assessors_text(session, request.topic)
    qrels = collect_qrels(session, request.topic, request.assessor, request.choices)
    if request.format == "fol" and request.offset_unit == "codepoint":
        return qrels_text(qrels)
    out = io.StringIO()
    try:
        _write(session, request, qrels, out)
    except exports.ExportError as error:
        raise ExportError(str(error)) from error
    return out.getvalue()


def _write(session: Session, request: ExportRequest, qrels: Qrels, out: TextIO) -> None:
    """The formats and units that need more than the qrels: the texts or the element tables."""
    if request.format == "fol":
        documents = judged_documents(session, qrels)

        def text_of(article: str) -> str | None:
            row = documents.get(article)
            return None if row is None or not row.has_text else texts.text_of(row)

        unit = next(u for u in exports.OFFSET_UNITS if u == request.offset_unit)
        exports.write_fol(qrels, out, offset_unit=unit, text_of=text_of)
    elif request.format == "trec":
        exports.write_trec(qrels, out, graded=request.graded)
    else:
        articles, scales = element_exports(
            session, qrels, request.topic, request.assessor, request.all_elements, request.choices
        )
        if request.xml:
            exports.write_assessments_xml(articles, out, scale=scales)
        else:
            exports.write_elements(articles, out)
