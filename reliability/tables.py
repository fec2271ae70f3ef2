"""Printing the studies: every result is a list of named tables of rows (text, tsv or json).

tsv prints the first table with its header on the first line, and each further table after a
blank line and a `# name` line; json prints one object with a list of row objects per table;
text aligns the columns for reading. Floats keep full precision in tsv and json.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Literal, TextIO

from evaluation.output.tables import Cell, dump_json, table_lines, titled_tables

Table = list[dict[str, Cell]]
FORMATS = ("text", "tsv", "json")


def write_tables(tables: Mapping[str, Table], output_format: str, stream: TextIO) -> None:
    """Write `tables` (name -> rows with the same keys) in `output_format`."""
    if output_format == "json":
        dump_json({name: [dict(row) for row in rows] for name, rows in tables.items()}, stream)
        return
    shape: Literal["text", "tsv"] = "text" if output_format == "text" else "tsv"
    lines = {name: _lines(rows, shape) for name, rows in tables.items()}
    stream.writelines(titled_tables(lines, title_first=shape == "text"))


def _lines(rows: Table, shape: Literal["text", "tsv"]) -> Iterable[str]:
    if not rows:
        return ()
    header = list(rows[0])
    return table_lines(header, [[row[key] for key in header] for row in rows], shape)


def parse_numbers(text: str, what: str, low: float, high: float) -> list[float]:
    """`80,60,40` -> [80.0, 60.0, 40.0], each in (low, high]; ValueError naming `what`.

    >>> parse_numbers("80,60", "fraction", 0, 100)
    [80.0, 60.0]
    """
    values: list[float] = []
    for token in text.split(","):
        try:
            value = float(token)
        except ValueError:
            raise ValueError(f"{what} {token.strip()!r} is not a number") from None
        if not (low < value <= high) or math.isnan(value):
            raise ValueError(f"{what} {token.strip()} is outside ({low:g}, {high:g}]")
        values.append(value)
    return values


def parse_integers(text: str, what: str, low: int, high: int) -> list[int]:
    """`5,10,20` -> [5, 10, 20], each in [low, high]; ValueError naming `what`."""
    values: list[int] = []
    for token in text.split(","):
        if not token.strip().isdigit():
            raise ValueError(f"{what} {token.strip()!r} is not a whole number")
        value = int(token)
        if not low <= value <= high:
            raise ValueError(f"{what} {value} is outside [{low}, {high}]")
        values.append(value)
    return values
