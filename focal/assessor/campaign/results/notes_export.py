"""Flags and notes as a tab-separated file, written beside the qrels (docs/formats.md, "Notes").

One header line, then one line per article an assessor flagged or wrote a note about:

    topic <TAB> article <TAB> assessor <TAB> flag <TAB> note

`flag` is `1` (flagged "unsure") or `0`. Every field is escaped so that a line is one record
whatever the note holds: a backslash is written `\\\\`, a tab `\\t`, a line feed `\\n`, a
carriage return `\\r`. Lines are ordered by topic, article (natural order), then assessor.
Unless `raw` is asked for, a field that a spreadsheet would run as a formula (one that starts
with `=`, `+`, `-`, `@`, ...) is written after an apostrophe
(`focal.evaluation.output.spreadsheets`).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from focal.assessor.campaign.people.notes import note_rows
from focal.assessor.campaign.results.qrels_export import check_assessors
from focal.evaluation.output.spreadsheets import spreadsheet_cell

HEADER = ("topic", "article", "assessor", "flag", "note")
ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_field(value: str) -> str:
    """`value` with backslash, tab, line feed and carriage return written as two characters."""
    return "".join(ESCAPES.get(character, character) for character in value)


def unescape_field(value: str) -> str:
    """The inverse of `escape_field` (for readers of the file, and the tests)."""
    out: list[str] = []
    characters = iter(value)
    for character in characters:
        if character != "\\":
            out.append(character)
            continue
        following = next(characters, "")
        out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}.get(following, following))
    return "".join(out)


def notes_text(
    session: Session, topic: str | None = None, assessor: str | None = None, raw: bool = False
) -> str:
    """Every flag and note (of `topic`, of `assessor`) in the format above (spreadsheet-safe
    cells unless `raw`).

    An unknown assessor is an ExportError naming it, as for the qrels.
    """
    check_assessors(session, assessor)
    lines = ["\t".join(HEADER)]
    for row in note_rows(session, topic, assessor):
        fields = (row.topic, row.article, row.assessor, "1" if row.flag else "0", row.note)
        cells = fields if raw else tuple(spreadsheet_cell(field) for field in fields)
        lines.append("\t".join(escape_field(cell) for cell in cells))
    return "\n".join(lines) + "\n"
