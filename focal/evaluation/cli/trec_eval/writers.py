"""The layouts of `focal eval --task articles`: trec_eval's (`--format trec`), tab-separated
rows, JSON and the runs × measures table, each writing every run's `TrecEvaluation`.

Every layout but trec_eval's names a row as the user typed it (`-m AP` prints `AP`, not `map`;
`shown_names`), whatever the number of runs, so that a script reading its own names keeps
working; trec_eval's layout keeps trec_eval's names, as `focal trec_eval` prints them.

They are apart from `cli.trec_eval`, which reads the files and evaluates, because printing is
one concern with trec_eval's lines (`layout.trec_lines`, shared with `focal trec_eval`); with
`--ci` each layout carries the intervals as `focal.evaluation.output.intervals.Intervals`
words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from focal.evaluation.cli.trec_eval.layout import trec_lines
from focal.evaluation.measures.grammar import UnknownMeasure
from focal.evaluation.measures.registry.vocabulary import asked_rows
from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    SUMMARY_ONLY,
    TEXT,
    Selection,
)
from focal.evaluation.measures.trec_eval.selection import NamedSelection
from focal.evaluation.output.intervals import Intervals
from focal.evaluation.output.tables import dump_json


def write_trec(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
               per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """trec_eval's output, run after run (with `--ci`, each interval as two more `all` rows)."""
    for evaluation in evaluations:
        stream.write("".join(trec_lines(evaluation, selection, per_topic)))
        for name, bound in intervals.rows(evaluation.run_id) if intervals else ():
            stream.write(f"{name:<22}\tall\t{bound:6.4f}\n")


def shown_names(selection: Selection) -> dict[str, str]:
    """Printed row -> the name the user typed for it (`map` -> `AP`); a row asked for by a name
    that prints several rows (`P.5,10`, `official`) or none (`runid`), or not asked for, keeps
    its own name."""
    asked = selection.asked if isinstance(selection, NamedSelection) else ()
    printed = [row.name for row in selection.rows()]
    shown: dict[str, str] = {}
    for typed in asked:
        try:
            pairs = asked_rows([typed], printed)
        except UnknownMeasure:
            continue
        shown.update((row, name) for name, row in pairs)
    return shown


def write_tsv(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
              per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """`run_id  measure  topic  value` rows with full precision (repr of the double), each
    measure named as typed (`shown_names`)."""
    stream.write("run_id\tmeasure\ttopic\tvalue\n")
    rows = selection.rows()
    shown = shown_names(selection)
    for evaluation in evaluations:
        run_id = evaluation.run_id
        if per_topic:
            for i, topic in enumerate(evaluation.topics):
                for row in rows:
                    if row.family not in SUMMARY_ONLY:
                        value = evaluation.values[row.name][i]  # relstring: a str
                        name = shown.get(row.name, row.name)
                        stream.write(f"{run_id}\t{name}\t{topic}\t{value!r}\n")
        for row in rows:
            if row.family not in TEXT:
                summary = evaluation.summary[row.name]
                stream.write(f"{run_id}\t{shown.get(row.name, row.name)}\tall\t{summary!r}\n")
        for name, bound in intervals.rows(run_id) if intervals else ():
            stream.write(f"{run_id}\t{name}\tall\t{bound!r}\n")


def write_json(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
               per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """One object per run: options, per-topic values (with -q), `all`, measures named as typed
    (`shown_names`); with `intervals`, `intervals`: its level, method and each mean's [low,
    high]."""
    shown = shown_names(selection)
    document = [
        {
            "run_id": e.run_id,
            "file": e.file,
            "trec_version": e.options.version,
            "topics": {
                topic: {shown.get(name, name): column[i] for name, column in e.values.items()}
                for i, topic in enumerate(e.topics)
            } if per_topic else {},
            "all": {shown.get(name, name): value for name, value in e.summary.items()},
            "unknown_topics": e.unknown_topics,
        }
        for e in evaluations
    ]  # fmt: skip
    if intervals is not None:
        intervals.attach(document)
    dump_json(document, stream)


def write_table(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
                per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """Runs × measures: the `all` value of every chosen row but the counts, the best of each
    column marked."""
    from focal.evaluation.output.leaderboard import leaderboard_lines

    if per_topic:
        raise ValueError("--format table shows the `all` rows: -q with trec, tsv or json")
    if intervals is not None:
        raise ValueError("--format table shows the means: --ci with trec, tsv or json")
    rows = [row.name for row in selection.rows() if row.name not in COUNTS]
    asked = selection.asked if isinstance(selection, NamedSelection) else ()
    columns = asked_rows(asked, rows) if asked else [(row, row) for row in rows]
    values = {e.run_id: {name: float(e.summary[row]) for name, row in columns} for e in evaluations}
    names = [name for name, _ in columns]
    stream.writelines(line + "\n" for line in leaderboard_lines(values, names))


WRITERS = {
    "trec": write_trec, "tsv": write_tsv, "json": write_json, "table": write_table,
}  # fmt: skip
