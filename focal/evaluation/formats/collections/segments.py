"""Segment ids (`docid#n`) resolved to character ranges: runs of segments become FOL runs.

A segment file is JSON Lines as MS MARCO V2.1's segmented documents ship it, one segment a
line (docs/collections.md, "Segments"):

    {"docid": "d1#3", "start_char": 120, "end_char": 342, "segment": "..."}

The segment id is the first of `segment_id`, `docid`, `id`; its document the `doc_id` field, or
the id up to its first `#`. `start_char` and `end_char` (exclusive) count code points into the
document's own text field, its body, as MS MARCO's do; Focal's text puts the title first, so a
segment is the range `body_start + start_char` to `body_start + end_char` of the document.
Other fields (`segment`, `title`, `url`) are ignored. A run naming segments (a TREC run whose
document ids are segment ids) then becomes a FOL run, each result the segment's range.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import BODY_PATH, body_start
from focal.evaluation.formats.collections.lines import json_objects
from focal.evaluation.formats.convert import DocumentSource
from focal.evaluation.formats.records import Result, Run

_ID_FIELDS = ("segment_id", "docid", "id")


@dataclass(frozen=True, slots=True)
class Segment:
    """A segment: its id, its document, and its range over the document's body."""

    id: str
    document: str
    start: int
    end: int
    line: int


def document_of(segment_id: str) -> str:
    """The document a segment id names when its record does not: the id up to its `#`."""
    return segment_id.split("#", 1)[0]


def _offset(record: dict[str, object], field: str, name: str, line: int) -> int:
    value = record.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(name, line, f"expected {field} as a whole number 0 or more")
    return value


def read_segments(path: str | Path, wanted: Collection[str] | None = None) -> dict[str, Segment]:
    """The segments of a segment file by id; with `wanted`, only those (a segment file can
    hold millions of segments, a run names a few of them). A bad line is a FormatError."""
    name = str(path)
    found: dict[str, Segment] = {}
    for number, record in json_objects(path):
        identifier = next((record[f] for f in _ID_FIELDS if f in record), None)
        if not isinstance(identifier, str) or not identifier:
            raise FormatError(name, number, f"expected a segment id ({', '.join(_ID_FIELDS)})")
        if wanted is not None and identifier not in wanted:
            continue
        start = _offset(record, "start_char", name, number)
        end = _offset(record, "end_char", name, number)
        if end < start:
            raise FormatError(name, number, f"expected end_char {end} >= start_char {start}")
        document = record.get("doc_id", document_of(identifier))
        if not isinstance(document, str) or not document:
            raise FormatError(name, number, "expected doc_id as a string")
        found[identifier] = Segment(identifier, document, start, end, number)
    return found


def segment_ids(run: Run) -> set[str]:
    """Every id a run names (its article ids): what `read_segments` needs to keep."""
    return {result.article for results in run.topics.values() for result in results}


def segment_range(
    segment: Segment, documents: DocumentSource, file: str, line: int
) -> tuple[str, int, int]:
    """`(document, start, end)` of a segment over Focal's text of its document."""
    document = documents.document(segment.document, file, line)
    begin = body_start(document)
    try:
        body_end = document.span(BODY_PATH)[1]
    except KeyError:
        body_end = len(document.text)
    start, end = begin + segment.start, begin + segment.end
    if end > body_end:
        raise FormatError(
            file, line, f"segment {segment.id} ends at {segment.end}, past the "
            f"{body_end - begin} characters of document {segment.document}'s text"
        )  # fmt: skip
    return segment.document, start, end


def segment_run(run: Run, segments: Mapping[str, Segment], documents: DocumentSource) -> Run:
    """A FOL copy of a run of segments: each result the range of its segment (rank, score and
    line kept). A result naming no known segment is a FormatError naming the run's line."""
    topics: dict[str, list[Result]] = {}
    for topic, results in run.topics.items():
        converted = topics[topic] = []
        for result in results:
            segment = segments.get(result.article)
            if segment is None:
                raise FormatError(
                    run.file, result.line, f"{result.article} is not a segment of the segment file"
                )
            article, start, end = segment_range(segment, documents, run.file, result.line)
            converted.append(replace(result, article=article, start=start, length=end - start))
    return Run(run.run_id, run.file, "fol", topics, list(run.warnings))
