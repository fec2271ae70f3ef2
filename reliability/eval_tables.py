"""The `all` rows of `focal eval --format tsv` output (`run_id measure topic value`), read for
comparing run rankings (`focal reliability rankcorr`)."""

from __future__ import annotations

import math
from pathlib import Path

from evaluation.errors import FormatError

HEADER = ["run_id", "measure", "topic", "value"]
RANKED = ("MAiP", "MAgP", "MAP", "AiP", "AgP")
"""Measures a file is ranked by when none is named, in order of preference."""


def read_all_rows(path: Path) -> dict[str, dict[str, float]]:
    """Measure -> run id -> value of the `all` rows; FormatError with file and line."""
    table: dict[str, dict[str, float]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(str(path), None, f"not UTF-8 ({error.reason})") from None
    lines = text.splitlines()
    if not lines or lines[0].split("\t") != HEADER:
        raise FormatError(str(path), 1, f"expected the header {' '.join(HEADER)}")
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != 4:
            raise FormatError(
                str(path), number, f"expected 4 tab-separated fields, found {len(fields)}"
            )
        run_id, measure, topic, value = fields
        if topic != "all":
            continue
        try:
            number_value = float(value)
        except ValueError:
            raise FormatError(str(path), number, f"value {value!r} is not a number") from None
        if math.isnan(number_value):
            raise FormatError(str(path), number, "value is NaN")
        runs = table.setdefault(measure, {})
        if run_id in runs:
            raise FormatError(str(path), number, f"a second `all` row of {measure} for {run_id}")
        runs[run_id] = number_value
    return table


def run_means(path: Path, measure: str | None) -> tuple[str, dict[str, float]]:
    """(measure, run id -> mean) for `measure`, or for the file's ranked measure."""
    table = read_all_rows(path)
    if measure is None:
        found = [name for name in RANKED if name in table]
        if not found:
            raise FormatError(str(path), None, "no MAiP, MAgP or MAP rows: name one with -m")
        measure = found[0]
    if measure not in table:
        known = ", ".join(sorted(table)) or "none"
        raise FormatError(str(path), None, f"no `all` rows of {measure} (measures: {known})")
    return measure, table[measure]
