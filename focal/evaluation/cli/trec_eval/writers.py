"""The layouts of `focal eval --task articles`: trec_eval's (`--format trec`), tab-separated
rows, JSON and the runs × measures table, each writing every run's `TrecEvaluation`.

They are apart from `cli.trec_eval`, which reads the files and evaluates, because printing is
one concern with trec_eval's lines (`layout.trec_lines`, shared with `focal trec_eval`); with
`--ci` each layout carries the intervals as `focal.evaluation.output.intervals.Intervals`
words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from focal.evaluation.cli.trec_eval.layout import trec_lines
from focal.evaluation.measures.registry.vocabulary import asked_rows
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation
from focal.evaluation.measures.trec_eval.engine.vocabulary import NamedSelection
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    SUMMARY_ONLY,
    TEXT,
    Selection,
)
from focal.evaluation.output.intervals import Intervals
from focal.evaluation.output.tables import dump_json


def write_trec(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
               per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """trec_eval's output, run after run (with `--ci`, each interval as two more `all` rows)."""
    for evaluation in evaluations:
        stream.write("".join(trec_lines(evaluation, selection, per_topic)))
        for name, bound in intervals.rows(evaluation.run_id) if intervals else ():
            stream.write(f"{name:<22}\tall\t{bound:6.4f}\n")


def write_tsv(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
              per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """`run_id  measure  topic  value` rows with full precision (repr of the double)."""
    stream.write("run_id\tmeasure\ttopic\tvalue\n")
    rows = selection.rows()
    for evaluation in evaluations:
        run_id = evaluation.run_id
        if per_topic:
            for i, topic in enumerate(evaluation.topics):
                for row in rows:
                    if row.family not in SUMMARY_ONLY:
                        value = evaluation.values[row.name][i]  # relstring: a str
                        stream.write(f"{run_id}\t{row.name}\t{topic}\t{value!r}\n")
        for row in rows:
            if row.family not in TEXT:
                summary = evaluation.summary[row.name]
                stream.write(f"{run_id}\t{row.name}\tall\t{summary!r}\n")
        for name, bound in intervals.rows(run_id) if intervals else ():
            stream.write(f"{run_id}\t{name}\tall\t{bound!r}\n")


def write_json(evaluations: Sequence[TrecEvaluation], selection: Selection, stream: TextIO,
               per_topic: bool, intervals: Intervals | None = None) -> None:  # fmt: skip
    """One object per run: options, per-topic values (with -q), `all`; with `intervals`,
    `intervals`: its level, method and each mean's [low, high]."""
    document = [
        {
            "run_id": e.run_id,
            "file": e.file,
            "trec_version": e.options.version,
            "topics": {
                topic: {name: column[i] for name, column in e.values.items()}
                for i, topic in enumerate(e.topics)
            } if per_topic else {},
            "all": e.summary,
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
