"""Run means from `focal eval --format tsv` files (their `all` rows), for ranking runs
(`focal reliability rankcorr`); read by `focal.evaluation.formats.scores`."""

from __future__ import annotations

from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.scores import AGGREGATE, read_scores

RANKED = ("MAiP", "MAgP", "MAP", "AiP", "AgP")
"""Measures a file is ranked by when none is named, in order of preference."""


def run_means(path: Path, measure: str | None) -> tuple[str, dict[str, float]]:
    """(measure, run id -> mean) for `measure`, or for the file's ranked measure."""
    scores = read_scores([path], aggregates=True)
    measures = scores.measures()
    if measure is None:
        found = [name for name in RANKED if name in measures]
        if not found:
            raise FormatError(str(path), None, "no MAiP, MAgP or MAP rows: name one with -m")
        measure = found[0]
    if measure not in measures:
        known = ", ".join(sorted(measures)) or "none"
        raise FormatError(str(path), None, f"no `all` rows of {measure} (measures: {known})")
    return measure, {run: rows[AGGREGATE] for run, rows in scores.of_measure(measure).items()}
