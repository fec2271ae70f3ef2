"""trec_eval's output lines (`meas_print_single.c`, `meas_print_final.c`), for `focal
trec_eval` and `focal eval --task articles --format trec` alike."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation, Value
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    SUMMARY_ONLY,
    TEXT,
    Selection,
)
from focal.evaluation.measures.trec_eval.families.measure import Row

BLOCK = 1024  # topics formatted at once: their cells are held until they are laid out
NAN, NEGATIVE_NAN = "\t   nan\n", "\t  -nan\n"  # a value field as `%6.4f` and as glibc prints it


def trec_lines(
    evaluation: TrecEvaluation, selection: Selection, per_topic: bool, summary: bool = True,
    zscores: bool = False,
) -> list[str]:  # fmt: skip
    """trec_eval's text for one run, in pieces that each end a line: with -q every topic's rows
    (topics in id order, rows in measure order), then unless -n the `all` rows (runid first).
    Counts print as integers, the rest `%6.4f`, relstring quoted and in per-topic rows only;
    z-scores (-Z) print every value `%6.4f` after a `Z` (`meas_print_single.c`,
    `meas_print_final.c`)."""
    lines: list[str] = []
    if per_topic:
        shown = topic_rows(selection)
        names = row_names(shown, zscores)
        topics = evaluation.topics
        for start in range(0, len(topics), BLOCK):
            end = start + BLOCK
            columns = [evaluation.values[row.name][start:end] for row in shown]
            rows = zip(*columns, strict=True)
            lines += block_lines(shown, names, topics[start:end], rows, zscores)
    if summary:
        lines += summary_lines(selection, evaluation.run_id, evaluation.summary, zscores)
    return lines


def topic_rows(selection: Selection) -> list[Row]:
    """The rows a topic prints with -q: all but the `all`-only ones (num_q, geometric means)."""
    return [row for row in selection.rows() if row.family not in SUMMARY_ONLY]


def row_names(rows: Sequence[Row], zscores: bool = False) -> list[str]:
    """Each row's name as a line starts with it (`Z` before a z-score's)."""
    return [("Z" if zscores and row.family not in TEXT else "") + f"{row.name:<22}\t"
            for row in rows]  # fmt: skip


def block_lines(
    rows: Sequence[Row], names: Sequence[str], topics: Sequence[str],
    values: Iterable[Sequence[Value]], zscores: bool = False,
) -> list[str]:  # fmt: skip
    """The -q rows of a block of topics (`values`: each topic's values of `rows`), a piece per
    topic: one `%` formatting of a template of its lines (`%6.4f`; a count's `%d`, C's `%ld` of
    its integer; relstring's `'%s'`), then every NaN as glibc prints trec_eval's 0/0, `-nan`."""
    count = len(rows)
    if count == 0:
        return []
    template = "".join(name.replace("%", "%%") + "%s\t" + _format(row, zscores) + "\n"
                       for row, name in zip(rows, names, strict=True))  # fmt: skip
    slots: list[object] = [None] * (2 * count)
    pieces: list[str] = []
    for topic, topic_values in zip(topics, values, strict=True):
        slots[0::2] = [topic] * count
        slots[1::2] = topic_values
        pieces.append(template % tuple(slots))
    return [piece.replace(NAN, NEGATIVE_NAN) for piece in pieces]


def _format(row: Row, zscores: bool) -> str:
    """How a -q value of `row` prints (as `_line` prints it, but for NaN: `block_lines`)."""
    if row.family in TEXT:
        return "'%s'"
    return "%d" if row.name in COUNTS and not zscores else "%6.4f"


def summary_lines(selection: Selection, run_id: str, summary: Mapping[str, Value],
                  zscores: bool = False) -> list[str]:  # fmt: skip
    """The `all` rows: runid first when asked for, then each row but relstring."""
    lines: list[str] = []
    if selection.runid:
        lines.append(f"{'runid':<22}\tall\t{run_id}\n")
    for row in selection.rows():
        if row.family not in TEXT:
            lines.append(_line(row.name, row.family, "all", summary[row.name], zscores))
    return lines


def _line(name: str, family: str, topic: str, value: Value, zscores: bool) -> str:
    if family in TEXT:
        return f"{name:<22}\t{topic}\t'{value}'\n"
    if zscores:
        return f"Z{name:<22}\t{topic}\t{_fixed(float(value))}\n"
    shown = str(int(value)) if name in COUNTS else _fixed(float(value))
    return f"{name:<22}\t{topic}\t{shown}\n"


def _fixed(value: float) -> str:
    """`%6.4f` as glibc prints it; a NaN (trec_eval's 0/0 on x86-64) prints `-nan`."""
    return f"{'-nan':>6}" if math.isnan(value) else f"{value:6.4f}"
