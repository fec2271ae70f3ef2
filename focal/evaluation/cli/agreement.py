"""`focal agreement QRELS_A QRELS_B`: two assessors' FOL qrels compared (spec section 7).

The command itself is `focal.assessor.cli.agreement`, which also reads two assessors' judgements
from the database; this module is its pure half: the table from two files (the element level
derived from the collection's documents by `relevance.element_qrels`) and the three writers.

- `text`: an aligned table, ratios to four decimals, `-` where a ratio is undefined;
- `tsv`: a header, then one line per topic and `all`; ratios as the shortest decimal that
  reads back as the same double, `-` where undefined;
- `json`: `{"assessors": [A, B], "columns": [...], "rows": [{column: value}, ...]}`, `null`
  where undefined.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.output.tables import dump_json, table_lines
from focal.evaluation.relevance.element_qrels import relevant_elements
from focal.evaluation.statistics.agreement.assessors import MEANINGS
from focal.evaluation.statistics.agreement.table import AgreementTable, agreement_table

FORMATS = ("text", "tsv", "json")


def write_tsv(table: AgreementTable, stream: TextIO) -> None:
    """The header (exactly the column names) and one line per row."""
    rows = [list(record.values()) for record in table.records()]
    stream.writelines(table_lines(table.columns(), rows, "tsv"))


def write_text(table: AgreementTable, stream: TextIO) -> None:
    """The rows as an aligned table under a line naming the two assessors, with a legend."""
    name_a, name_b = table.names
    stream.write(f"agreement of {name_a} (a) and {name_b} (b)\n")
    rows = [list(record.values()) for record in table.records()]
    stream.writelines(
        table_lines(table.columns(), rows, "text", numbers_right=True, meanings=MEANINGS)
    )


def write_json(table: AgreementTable, stream: TextIO) -> None:
    """One object: the assessors, the columns and the rows."""
    document = {
        "assessors": list(table.names),
        "columns": list(table.columns()),
        "rows": table.records(),
    }
    dump_json(document, stream)


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
    gamma: bool = False,
) -> AgreementTable:
    """The agreement table of two FOL qrels files; element level when `collection` is given,
    γ when `gamma` (the optional extra).

    FormatError for a malformed file; `agreement.AgreementError` when the files have no topic in
    common or `topic` is not in both.
    """
    qrels_a, qrels_b = read_qrels(path_a), read_qrels(path_b)
    names = (str(path_a), str(path_b))
    table = agreement_table(qrels_a, qrels_b, topic=topic, names=names, gamma=gamma)
    if collection is None:
        return table
    documents = Collection(collection)
    topics = [row.topic for row in table.rows]
    elements = (
        relevant_elements(qrels_a, topics, documents, str(path_a)),
        relevant_elements(qrels_b, topics, documents, str(path_b)),
    )
    return agreement_table(
        qrels_a, qrels_b, topic=topic, names=names, elements=elements, gamma=gamma
    )
