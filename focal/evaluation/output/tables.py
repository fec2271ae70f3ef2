"""One table layout for every command that prints rows: cells, aligned text, TSV and JSON.

Text is for reading: columns two spaces apart, floats to `digits` decimals. TSV and JSON are
for programs: floats as the shortest decimal that reads back to the same double. Either way an
undefined value (None) is `-` and a yes/no value is `yes` or `no`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, TextIO

Cell = str | int | float | bool | None
"""A value in a table: text, a count, a ratio, a yes/no, or None where it is undefined."""


def cell_text(value: object, digits: int | None = None) -> str:
    """A value as table text: `-` for None, floats exact or to `digits` decimals.

    >>> cell_text(None), cell_text(3), cell_text(1 / 3), cell_text(1 / 3, 4), cell_text(1.0)
    ('-', '3', '0.3333333333333333', '0.3333', '1.0')
    >>> cell_text(True), cell_text(float("nan"), 4), cell_text(float("-inf"))
    ('yes', 'nan', '-inf')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):  # float() too: numpy's floats print as np.float64(...)
        return repr(float(value)) if digits is None else f"{value:.{digits}f}"
    return str(value)


def aligned_lines(rows: Sequence[Sequence[str]], *, numbers_right: bool = False) -> Iterator[str]:
    """`rows` (header first) as lines of columns two spaces apart, without trailing spaces.

    Each column is as wide as its widest cell; cells are left-aligned, except that with
    `numbers_right` every column after the first is right-aligned.

    >>> print("\\n".join(aligned_lines([["run", "mean"], ["alpha", "0.5"]], numbers_right=True)))
    run    mean
    alpha   0.5
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        for cell, width in zip(row[1:], widths[1:], strict=True):
            cells.append(cell.rjust(width) if numbers_right else cell.ljust(width))
        yield "  ".join(cells).rstrip()


def whole_columns(rows: Sequence[Sequence[object]]) -> set[int]:
    """The positions of the columns that hold counts: every number in them is whole and one
    is at least 2 (a column of ratios that happen to be 0.0 or 1.0 keeps its decimals).

    >>> sorted(whole_columns([["a", 4374.0, 1.0, 0.5], ["b", 12.0, 0.0, 2.0]]))
    [1]
    """
    found: set[int] = set()
    for index in range(len(rows[0]) if rows else 0):
        numbers = [
            float(row[index])  # type: ignore[arg-type]
            for row in rows
            if isinstance(row[index], int | float) and not isinstance(row[index], bool)
        ]
        whole = all(value.is_integer() for value in numbers)
        if numbers and whole and any(abs(value) >= 2 for value in numbers):
            found.add(index)
    return found


def legend_line(columns: Sequence[str], meanings: Mapping[str, str]) -> str:
    """One line under a text table saying what its columns are (those `meanings` knows).

    >>> legend_line(["run", "docs_a", "kappa"], {"docs_a": "judged by a", "kappa": "Cohen's"})
    "docs_a: judged by a; kappa: Cohen's\\n"
    """
    known = [f"{name}: {meanings[name]}" for name in columns if name in meanings]
    return "; ".join(known) + "\n" if known else ""


def table_lines(
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    output_format: Literal["text", "tsv"],
    *,
    digits: int = 4,
    numbers_right: bool = False,
    meanings: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """A header of `columns` and the `rows`, each line ending in a newline.

    `text`: `aligned_lines` of the cells to `digits` decimals, counts (`whole_columns`) as
    integers, and with `meanings` a legend line under the table (`legend_line`); `tsv`:
    tab-separated cells at full precision, nothing else.

    >>> "".join(table_lines(["run", "p"], [["a", 1 / 3], ["b", None]], "tsv"))
    'run\\tp\\na\\t0.3333333333333333\\nb\\t-\\n'
    >>> lines = table_lines(["run", "n"], [["a", 4374.0]], "text", meanings={"n": "a count"})
    >>> print("".join(lines))
    run  n
    a    4374
    n: a count
    <BLANKLINE>
    """
    if output_format == "tsv":
        yield "\t".join(columns) + "\n"
        for row in rows:
            yield "\t".join(cell_text(value) for value in row) + "\n"
        return
    listed = [list(row) for row in rows]
    counts = whole_columns(listed)

    def text(index: int, value: object) -> str:
        if index in counts and isinstance(value, float):
            return str(int(value))
        return cell_text(value, digits)

    lines = [list(columns)] + [[text(i, value) for i, value in enumerate(row)] for row in listed]
    for line in aligned_lines(lines, numbers_right=numbers_right):
        yield line + "\n"
    if meanings:
        yield legend_line(columns, meanings)


def titled_tables(
    tables: Mapping[str, Iterable[str]], *, title_first: bool = True
) -> Iterator[str]:
    """The lines of several tables, each under a `# name` line and after a blank line but the
    first (whose title is left out unless `title_first`: a lone table reads as plain TSV).

    >>> "".join(titled_tables({"a": ["x\\n"], "b": ["y\\n"]}, title_first=False))
    'x\\n\\n# b\\ny\\n'
    """
    for index, (name, lines) in enumerate(tables.items()):
        if index:
            yield f"\n# {name}\n"
        elif title_first:
            yield f"# {name}\n"
        yield from lines


def dump_json(document: Any, stream: TextIO, *, indent: int | None = 2) -> None:
    """`document` as JSON (indented by `indent`, on one line with None) and a final newline."""
    json.dump(document, stream, indent=indent)
    stream.write("\n")
