"""Downloads: one way to answer a file, named for every browser (RFC 6266, RFC 8187).

A header is Latin-1 on the wire, so a name such as `Ωmega—test` cannot go into
`filename="..."` as it is (the server would drop the connection encoding it). Every download
carries an ASCII `filename` (other characters as `_`) for old clients and the whole name as
`filename*=UTF-8''...`, percent-encoded, which browsers prefer. The names are built from topic
ids, assessor names and table names; characters other than letters, digits, `-`, `_` and `.`
become `_` first, so no name carries a path or a quote.

Tables a spreadsheet opens (CSV and the notes TSV) go through `focal.evaluation.output.spreadsheets`
unless the request asks for `?raw=1`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from urllib.parse import quote

from flask import Response, request

from focal.evaluation.output.spreadsheets import spreadsheet_cell
from focal.evaluation.output.tables import cell_text


def file_name(text: str) -> str:
    """`text` with every character but letters, digits, `-`, `_` and `.` replaced by `_`."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def content_disposition(name: str) -> str:
    """An `attachment` header value naming `name` in ASCII and in UTF-8 (RFC 6266 section 4.3).

    >>> content_disposition("Ωmega—test.csv")
    'attachment; filename="_mega_test.csv"; filename*=UTF-8\\'\\'%CE%A9mega_test.csv'
    """
    safe = file_name(name)
    fallback = "".join(c if c.isascii() else "_" for c in safe)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(safe, safe='')}"


def download(text: str, mimetype: str, name: str) -> Response:
    """`text` as an attachment called `name`."""
    return Response(
        text, mimetype=mimetype, headers={"Content-Disposition": content_disposition(name)}
    )


def raw_cells() -> bool:
    """Whether the request asks for table cells as they are (`?raw=1`), not spreadsheet-safe."""
    return request.args.get("raw") == "1"


def csv_download(columns: Sequence[str], rows: Iterable[Sequence[object]], name: str) -> Response:
    """A CSV download of `rows` under a header of `columns` (`name` without `.csv`); cells made
    spreadsheet-safe unless `raw_cells()`."""
    raw = raw_cells()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        cells = [cell_text(value) for value in row]
        writer.writerow(cells if raw else [spreadsheet_cell(cell) for cell in cells])
    return download(buffer.getvalue(), "text/csv", f"{name}.csv")
