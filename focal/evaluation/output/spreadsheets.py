"""Cells that a spreadsheet shows as text, never runs as a formula (OWASP, "CSV injection").

Spreadsheets read a cell that starts with `=`, `+`, `-` or `@` as a formula, and some also one
that starts with a tab or a carriage return; a name or a note written by a user could then run
a function, reach the network or mislead whoever opens the file. Such a cell is written with a
leading apostrophe (`'=1+2`), which spreadsheets display as the text itself. A number keeps its
sign (`-0.25` is a number, not a formula), and a cell of one character (the `-` of an undefined
value) has nothing to run. The exports that take a `raw` choice write the text
unchanged when it is set, for programs that read the files.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(text: str) -> str:
    """`text` as a cell a spreadsheet shows as text.

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("-0.25"), spreadsheet_cell("@a")
    ("'=HYPERLINK(1)", '-0.25', "'@a")
    >>> spreadsheet_cell("plain"), spreadsheet_cell("-"), spreadsheet_cell("\\tx")
    ('plain', '-', "'\\tx")
    """
    if len(text) < 2 or not text.startswith(FORMULA_STARTS):
        return text
    try:
        float(text)
    except ValueError:
        return "'" + text
    return text
