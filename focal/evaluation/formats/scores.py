"""Per-topic scores: the `run_id measure topic value` rows of `focal eval -q --format tsv`.

A study evaluates once and tests many ways (`focal compare --scores`, spec section 8). Fields are
separated by tabs or spaces; the header `run_id measure topic value` is optional; `all` rows
(aggregates) are skipped, or with `aggregates=True` are the only rows kept (the run means a
ranking needs, `focal reliability rankcorr`). Refused, with the file and line: a row without
exactly four fields, a value that is not a finite number, a second row for the same run, measure
and topic (in any of the files read together), and a file with none of the rows wanted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.source import decode_lines, read_bytes

HEADER = ("run_id", "measure", "topic", "value")
AGGREGATE = "all"


@dataclass
class Scores:
    """run → measure → topic → value, runs and topics in the order first read."""

    values: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    origin: dict[tuple[str, str, str], str] = field(default_factory=dict)  # key -> "file:line"

    @property
    def runs(self) -> list[str]:
        return list(self.values)

    def measures(self) -> list[str]:
        """Every measure of any run, in the order first read."""
        seen: dict[str, None] = {}
        for measures in self.values.values():
            seen.update(dict.fromkeys(measures))
        return list(seen)

    def of_measure(self, measure: str) -> dict[str, dict[str, float]]:
        """run → topic → value for one measure (runs without it are left out)."""
        return {run: dict(m[measure]) for run, m in self.values.items() if measure in m}


def read_scores(paths: Sequence[str | Path], aggregates: bool = False) -> Scores:
    """Read one or more per-topic score files into one `Scores` (with `aggregates`, only the
    `all` rows, under topic `all`).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "s.tsv")
    ...     _ = open(path, "w").write("run_id\\tmeasure\\ttopic\\tvalue\\nr\\tAiP\\t1\\t0.5\\n"
    ...                               "r\\tAiP\\tall\\t0.5\\n")
    ...     read_scores([path]).values
    {'r': {'AiP': {'1': 0.5}}}
    """
    scores = Scores()
    for path in paths:
        _read_file(path, scores, aggregates)
    return scores


def _read_file(path: str | Path, scores: Scores, aggregates: bool) -> None:
    name = str(path)
    rows = 0
    for number, line in enumerate(decode_lines(read_bytes(path), name), start=1):
        fields = line.split()
        if not fields or (tuple(fields) == HEADER):
            continue
        if len(fields) != 4:
            raise FormatError(
                name, number,
                f"expected 4 fields (run_id measure topic value), found {len(fields)}",
            )  # fmt: skip
        run, measure, topic, text = fields
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise FormatError(name, number, f"expected a finite number as value, found {text!r}")
        if (topic == AGGREGATE) != aggregates:
            continue
        key = (run, measure, topic)
        if key in scores.origin:
            raise FormatError(
                name, number,
                f"duplicate row for run {run}, measure {measure}, topic {topic} "
                f"(first at {scores.origin[key]})",
            )  # fmt: skip
        scores.origin[key] = f"{name}:{number}"
        scores.values.setdefault(run, {}).setdefault(measure, {})[topic] = value
        rows += 1
    if rows == 0 and aggregates:
        raise FormatError(name, None, "no `all` rows (as `focal eval --format tsv` writes them)")
    if rows == 0:
        raise FormatError(name, None, "no per-topic rows (write them with `focal eval -q`)")
