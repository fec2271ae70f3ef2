"""`focal agreement QRELS_A QRELS_B`: two assessors' FOL qrels compared (spec section 7).

The command itself is `assessor.cli.agreement`, which also reads two assessors' judgements
from the database; this module is its pure half: the table from two files (the element level
derived from the collection's documents by `relevance.element_qrels`) and the three writers.

- `text`: an aligned table, ratios to four decimals, `-` where a ratio is undefined;
- `tsv`: a header, then one line per topic and `all`; ratios as the shortest decimal that
  reads back as the same double, `-` where undefined;
- `json`: `{"assessors": [A, B], "columns": [...], "rows": [{column: value}, ...]}`, `null`
  where undefined.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from evaluation.formats.convert import Collection
from evaluation.formats.fol.qrels import read_qrels
from evaluation.relevance.element_qrels import relevant_elements
from evaluation.statistics.agreement.assessors import Cell
from evaluation.statistics.agreement.table import AgreementTable, agreement_table

FORMATS = ("text", "tsv", "json")


def cell_text(value: Cell, digits: int | None = None) -> str:
    """A value for a table: `-` when undefined, floats exact or to `digits` decimals.

    >>> cell_text(None), cell_text(3), cell_text(1 / 3), cell_text(1 / 3, 4), cell_text(1.0)
    ('-', '3', '0.3333333333333333', '0.3333', '1.0')
    """
    if value is None:
        return "-"
    if isinstance(value, float):
        return repr(value) if digits is None else f"{value:.{digits}f}"
    return str(value)


def write_tsv(table: AgreementTable, stream: TextIO) -> None:
    """The header (exactly the column names) and one line per row."""
    stream.write("\t".join(table.columns()) + "\n")
    for record in table.records():
        stream.write("\t".join(cell_text(value) for value in record.values()) + "\n")


def write_text(table: AgreementTable, stream: TextIO) -> None:
    """The rows as an aligned table under a line naming the two assessors."""
    name_a, name_b = table.names
    stream.write(f"agreement of {name_a} (a) and {name_b} (b)\n")
    lines = [list(table.columns())] + [
        [cell_text(value, 4) for value in record.values()] for record in table.records()
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        stream.write("  ".join(cells).rstrip() + "\n")


def write_json(table: AgreementTable, stream: TextIO) -> None:
    """One object: the assessors, the columns and the rows."""
    document = {
        "assessors": list(table.names),
        "columns": list(table.columns()),
        "rows": table.records(),
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")


WRITERS: dict[str, Callable[[AgreementTable, TextIO], None]] = {
    "text": write_text,
    "tsv": write_tsv,
    "json": write_json,
}


def files_table(
    path_a: str | Path,
    path_b: str | Path,
    *,
    topic: str | None = None,
    collection: str | Path | None = None,
) -> AgreementTable:
    """The agreement table of two FOL qrels files; element level when `collection` is given.

    FormatError for a malformed file; `agreement.AgreementError` when the files have no topic in
    common or `topic` is not in both.
    """
    qrels_a, qrels_b = read_qrels(path_a), read_qrels(path_b)
    names = (str(path_a), str(path_b))
    table = agreement_table(qrels_a, qrels_b, topic=topic, names=names)
    if collection is None:
        return table
    documents = Collection(collection)
    topics = [row.topic for row in table.rows]
    elements = (
        relevant_elements(qrels_a, topics, documents, str(path_a)),
        relevant_elements(qrels_b, topics, documents, str(path_b)),
    )
    return agreement_table(qrels_a, qrels_b, topic=topic, names=names, elements=elements)
