"""Printing the studies: every result is a list of named tables of rows (text, tsv or json).

tsv prints the first table with its header on the first line, and each further table after a
blank line and a `# name` line; json prints one object with a list of row objects per table;
text aligns the columns for reading. Floats keep full precision in tsv and json.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Literal, TextIO

from focal.evaluation.output.tables import Cell, dump_json, table_lines, titled_tables

Table = list[dict[str, Cell]]
FORMATS = ("text", "tsv", "json")

MEANINGS = {
    "judged": "articles judged",
    "relevant": "articles judged relevant",
    "tau": "Kendall's tau against the full ranking of runs",
    "tau_ap": "AP rank correlation against the full ranking",
    "change": "largest change of a run's score, as a fraction",
    "significant_full": "pairs of runs significantly different with all judgements",
    "kept": "share of those pairs still significant",
    "repeats": "samples drawn",
    "score_full": "the run's score with every judgement",
    "score_left_out": "its score with its group left out of the pool",
    "rank_full": "its rank with every judgement",
    "rank_left_out": "its rank with its group left out",
    "topic_runs": "topic and run pairs",
    "t": "paired t statistic",
    "p": "its p-value",
    "size": "topics per subset",
    "difference": "smallest difference of scores compared",
    "swaps": "comparisons whose order swapped",
    "comparisons": "comparisons made",
    "error": "swaps / comparisons",
    "tau_a": "Kendall's tau-a",
    "tau_b": "Kendall's tau-b",
    "runs": "runs",
    "settled_at": "judgements per topic from which every pair of runs keeps its full order",
    "pool": "pooled articles over all topics",
}
"""What the studies' columns count, for the legend under a text table (`legend_line`);
`_mean` and `_sd` columns are the mean and standard deviation over the samples."""


def write_tables(tables: Mapping[str, Table], output_format: str, stream: TextIO) -> None:
    """Write `tables` (name -> rows with the same keys) in `output_format`."""
    if output_format == "json":
        dump_json({name: [dict(row) for row in rows] for name, rows in tables.items()}, stream)
        return
    shape: Literal["text", "tsv"] = "text" if output_format == "text" else "tsv"
    lines = {name: _lines(rows, shape) for name, rows in tables.items()}
    stream.writelines(titled_tables(lines, title_first=shape == "text"))


def _meanings(header: list[str]) -> dict[str, str]:
    """The legend's entries for `header`, `_mean` and `_sd` columns read from their base."""
    found = dict(MEANINGS)
    for name in header:
        for suffix, what in (("_mean", "mean of"), ("_sd", "standard deviation of")):
            base = name.removesuffix(suffix)
            if name.endswith(suffix) and base in MEANINGS:
                found[name] = f"{what} {base}"
    return found


def _lines(rows: Table, shape: Literal["text", "tsv"]) -> Iterable[str]:
    if not rows:
        return ()
    header = list(rows[0])
    values = [[row[key] for key in header] for row in rows]
    return table_lines(header, values, shape, meanings=_meanings(header))


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
