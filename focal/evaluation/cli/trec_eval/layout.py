"""trec_eval's output lines (`meas_print_single.c`, `meas_print_final.c`), for `focal
trec_eval` and `focal eval --task articles --format trec` alike."""

from __future__ import annotations

import math
from collections.abc import Sequence

from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation, Value
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    SUMMARY_ONLY,
    TEXT,
    Selection,
)

BLOCK = 1024  # topics formatted at once: their cells are held until they are laid out


def trec_lines(
    evaluation: TrecEvaluation, selection: Selection, per_topic: bool, summary: bool = True,
    zscores: bool = False,
) -> list[str]:  # fmt: skip
    """trec_eval's lines for one run: with -q every topic's rows (topics in id order, rows in
    measure order), then unless -n the `all` rows (runid first). Counts print as integers,
    the rest `%6.4f`, relstring quoted and in per-topic rows only; z-scores (-Z) print every
    value `%6.4f` after a `Z` (`meas_print_single.c`, `meas_print_final.c`)."""
    rows = selection.rows()
    lines: list[str] = []
    if per_topic:  # (a block of topics' values formatted row by row, then laid out by topic)
        shown = [row for row in rows if row.family not in SUMMARY_ONLY]
        names = [("Z" if zscores and row.family not in TEXT else "") + f"{row.name:<22}\t"
                 for row in shown]  # fmt: skip
        topics = evaluation.topics
        for start in range(0, len(topics), BLOCK):
            end = start + BLOCK
            cells = [_column(row.name, row.family, evaluation.values[row.name][start:end],
                             zscores) for row in shown]  # fmt: skip
            for i, topic in enumerate(topics[start:end]):
                for name, column in zip(names, cells, strict=True):
                    lines.append(f"{name}{topic}\t{column[i]}\n")
    if summary:
        if selection.runid:
            lines.append(f"{'runid':<22}\tall\t{evaluation.run_id}\n")
        for row in rows:
            if row.family not in TEXT:
                value = evaluation.summary[row.name]
                lines.append(_line(row.name, row.family, "all", value, zscores))
    return lines


def _line(name: str, family: str, topic: str, value: Value, zscores: bool) -> str:
    if family in TEXT:
        return f"{name:<22}\t{topic}\t'{value}'\n"
    if zscores:
        return f"Z{name:<22}\t{topic}\t{_fixed(float(value))}\n"
    shown = str(int(value)) if name in COUNTS else _fixed(float(value))
    return f"{name:<22}\t{topic}\t{shown}\n"


def _column(name: str, family: str, values: Sequence[Value], zscores: bool) -> list[str]:
    """One row's values of every topic as `_line` prints them."""
    if family in TEXT:
        return [f"'{value}'" for value in values]
    if name in COUNTS and not zscores:
        return [str(int(value)) for value in values]
    floats = [float(value) for value in values]
    return [f"{'-nan':>6}" if value != value else f"{value:6.4f}" for value in floats]


def _fixed(value: float) -> str:
    """`%6.4f` as glibc prints it; a NaN (trec_eval's 0/0 on x86-64) prints `-nan`."""
    return f"{'-nan':>6}" if math.isnan(value) else f"{value:6.4f}"
