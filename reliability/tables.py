"""Printing the studies: every result is a list of named tables of rows (text, tsv or json).

tsv prints the first table with its header on the first line, and each further table after a
blank line and a `# name` line; json prints one object with a list of row objects per table;
text aligns the columns for reading. Floats keep full precision in tsv and json.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TextIO

Cell = str | int | float | bool | None
Table = list[dict[str, Cell]]
FORMATS = ("text", "tsv", "json")


def _cell(value: Cell, readable: bool) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isinf(value) or math.isnan(value):
            return str(value)
        return f"{value:.4f}" if readable else repr(value)
    return str(value)


def write_tables(tables: Mapping[str, Table], output_format: str, stream: TextIO) -> None:
    """Write `tables` (name -> rows with the same keys) in `output_format`."""
    if output_format == "json":
        payload = {name: [dict(row) for row in rows] for name, rows in tables.items()}
        json.dump(payload, stream, indent=2, allow_nan=True)
        stream.write("\n")
        return
    readable = output_format == "text"
    for index, (name, rows) in enumerate(tables.items()):
        if index:
            stream.write(f"\n# {name}\n")
        elif readable:
            stream.write(f"# {name}\n")
        if not rows:
            continue
        header = list(rows[0])
        cells = [[_cell(row[key], readable) for key in header] for row in rows]
        if readable:
            widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(header)]
            stream.write(
                "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()
            )
            stream.write("\n")
            for row_cells in cells:
                line = "  ".join(c.ljust(w) for c, w in zip(row_cells, widths, strict=True))
                stream.write(line.rstrip() + "\n")
        else:
            stream.write("\t".join(header) + "\n")
            for row_cells in cells:
                stream.write("\t".join(row_cells) + "\n")


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


def spread_cells(prefix: str, mean: float, sd: float) -> dict[str, Cell]:
    return {f"{prefix}_mean": mean, f"{prefix}_sd": sd}
