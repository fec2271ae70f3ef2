"""`focal eval --task articles` in trec_eval's terms: its files, names, options and layout.

Reads TREC or FOL qrels and TREC, FOL or element runs (passage and element runs are reduced to
articles, an article scoring its best result), evaluates every run against one `GradeTable`, and
prints trec_eval's layout (`--format trec`: `%-22s\\t%s\\t%6.4f`, counts as integers, a `runid`
row), or tab-separated rows, or JSON, or a table (`cli.trec_eval.writers`). Every file is read and
evaluated before anything is printed, so a bad file leaves stdout empty. With `--ci`, every
`all` row that is the mean of its per-topic values (not the counts, not gm_map) gets its interval
over the topics, as `focal.evaluation.output.intervals.Intervals` words it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
import numpy as np
import pyarrow as pa

from focal.evaluation.cli.trec_eval.workers import evaluate_runs, tune_malloc
from focal.evaluation.cli.trec_eval.writers import WRITERS
from focal.evaluation.errors import FormatError
from focal.evaluation.formats._source import read_bytes
from focal.evaluation.formats.fol.arrow_table import read_fol_table
from focal.evaluation.formats.fol.article_runs import articles_of_table
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.trec import TrecRun, first_fields, read_trec_run
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
from focal.evaluation.measures.trec_eval.engine.run import (
    TrecEvaluation,
    TrecOptions,
    run_from_records,
)
from focal.evaluation.measures.trec_eval.engine.vocabulary import evaluate_named, select
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    SUMMARY_ONLY,
    Selection,
)
from focal.evaluation.output.intervals import Intervals

TREC_FORMATS = ("trec", "tsv", "json", "table")
# The measures of `table` when no -m is given (trec_eval's `official` set has 30 rows).
TABLE_DEFAULT = ("map", "Rprec", "bpref", "recip_rank", "P.5,10,20")


def is_trec_qrels(path: str) -> bool:
    """Whether a qrels file is TREC's (first line of at most 4 fields; comments only: empty);
    a file that cannot be read is not (the reader that follows reports it)."""
    try:
        return 0 <= first_fields(path) <= 4
    except FormatError:
        return False


def load_index(path: str) -> GradeTable:
    """TREC qrels (first line of at most 4 fields; comments only: empty) or FOL qrels (an
    article with highlighted text has grade 1)."""
    if 0 <= first_fields(path) <= 4:
        return GradeTable.from_trec_file(path)
    return GradeTable.from_fol(read_qrels(path), path)


def load_run(path: str, check_duplicates: bool = True) -> TrecRun:
    """A TREC run (6 fields, or more than 8: trec_eval ignores fields after the sixth) read as
    columns; a canonical FOL run read by pyarrow and reduced to
    articles there (an article scores its best passage); any other run Focal reads through the
    careful reader, whose errors name the file and line, then reduced the same way.
    `check_duplicates=False` for a run going straight to the article engine, whose grade
    look-up finds duplicate documents (`GradeTable.grades_of`)."""
    fields = first_fields(path)
    if fields == 6 or fields > 8:  # more than a FOL run's 8: a TREC run with trailing fields
        return read_trec_run(path, check_duplicates)
    data = read_bytes(path)
    if data.lstrip()[:1] != b"<":
        table = read_fol_table(data, passages=True)
        if table is not None:
            return articles_of_table(table, path)
    return run_from_records(read_run(path))


def prepared_run(index: GradeTable, path: str) -> PreparedRun:
    """A run in the engine's columns: a TREC run read in batches (`GradeTable.prepare_file`),
    any other through `load_run`."""
    fields = first_fields(path)
    if fields == 6:
        return index.prepare_file(path)
    return index.prepare(load_run(path, False))


class ArticleSteps:
    """What every run of `run_trec_eval` goes through: read into the qrels' terms, then
    evaluated against them. The qrels are read, and prepared for `-l`, once, before any worker
    starts; a forked worker process inherits them, a spawned one is given the qrels' path and
    reads them again (`__reduce__`): a `GradeTable` is not made to pickle, and reading it is
    no slower than unpickling it would be (`focal.evaluation.processes`)."""

    def __init__(self, qrels_path: str, selection: Selection, options: TrecOptions) -> None:
        self.qrels_path, self.selection, self.options = qrels_path, selection, options
        self.index = load_index(qrels_path)
        self.index.prepare_for(options.level)

    def __reduce__(self) -> tuple[type[ArticleSteps], tuple[str, Selection, TrecOptions]]:
        return ArticleSteps, (self.qrels_path, self.selection, self.options)

    def prepare(self, path: str) -> PreparedRun:
        return prepared_run(self.index, path)

    def evaluate(self, run: PreparedRun) -> TrecEvaluation:
        return evaluate_named(self.index, run, self.selection, self.options)


def run_trec_eval(
    qrels_path: str, run_paths: Sequence[str], measures: Sequence[str], options: TrecOptions,
    per_topic: bool, output_format: str, jobs: int = 1, confidence: float | None = None,
    ci_method: str = "t",
) -> None:  # fmt: skip
    """Evaluate and print; a bad file or measure name is one line on stderr and exit code 2.
    Runs are read and evaluated on `jobs` workers (`cli.trec_eval.workers`); the first bad file in
    order is reported."""
    if output_format == "table" and not measures:
        measures = TABLE_DEFAULT
    tune_malloc()
    try:
        selection = select(measures)
        steps = ArticleSteps(qrels_path, selection, options)
        pa.default_memory_pool().release_unused()  # what reading the qrels needed and freed
        evaluations = evaluate_runs(run_paths, jobs, steps.prepare, steps.evaluate)
    except (FormatError, ValueError) as error:
        click.echo(f"focal eval: {error}", err=True)
        sys.exit(2)
    if selection.left_out:
        click.echo(
            "focal eval: not computed by Focal (left out of the set): "
            + " ".join(selection.left_out), err=True,
        )  # fmt: skip
    for evaluation in evaluations:
        for note in notes(evaluation):
            click.echo(note, err=True)
    intervals = None
    if confidence is not None:
        intervals = trec_intervals(evaluations, confidence, ci_method)
    WRITERS[output_format](evaluations, selection, sys.stdout, per_topic, intervals)


def trec_intervals(
    evaluations: Sequence[TrecEvaluation], confidence: float, method: str = "t"
) -> Intervals:
    """The interval over the topics of every `all` row equal to the mean of its per-topic
    values (to 1e-12), per run (the bootstrap with seed 0)."""

    from focal.evaluation.statistics.significance.effects import bootstrap_intervals, t_intervals

    found: dict[str, dict[str, tuple[float, float]]] = {}
    for evaluation in evaluations:
        numeric = {  # relstring's values are text: no interval
            name: [float(v) for v in column]
            for name, column in evaluation.values.items()
            if name not in COUNTS
            and len(column) >= 2
            and not any(isinstance(v, str) for v in column)
        }
        names = [
            name for name, column in numeric.items()
            if isinstance(summary := evaluation.summary.get(name, np.nan), int | float)
            and abs(float(np.mean(column)) - float(summary)) < 1e-12
        ]  # fmt: skip
        if not names:
            continue
        matrix = np.array([numeric[n] for n in names]).T
        if method == "bootstrap":
            intervals = bootstrap_intervals(matrix, confidence, 10_000, 0)
        else:
            intervals = t_intervals(matrix, confidence)
        found[evaluation.run_id] = {
            name: (i.low, i.high) for name, i in zip(names, intervals, strict=True)
        }
    return Intervals(confidence, method, found)


def per_topic_values(
    qrels_path: str, run_paths: Sequence[str], measure: str, options: TrecOptions
) -> tuple[dict[str, dict[str, float]], list[str]]:
    """One measure's per-topic values of each run (run -> topic -> value) and the qrels
    topics, for `focal compare`; FormatError or ValueError for a bad file or name."""
    selection = select([measure])
    rows = [row.name for row in selection.rows() if row.family not in SUMMARY_ONLY]
    if len(rows) != 1:
        raise ValueError(f"-m {measure} is {len(rows)} per-topic measures; compare one")
    index = load_index(qrels_path)
    values: dict[str, dict[str, float]] = {}
    for path in run_paths:
        evaluation = evaluate_named(index, load_run(path, False), selection, options)
        if evaluation.run_id in values:
            raise FormatError(path, None, f"a second run named {evaluation.run_id}")
        column = evaluation.values[rows[0]]
        values[evaluation.run_id] = {
            topic: float(value) for topic, value in zip(evaluation.topics, column, strict=True)
        }
    return values, list(index.topics)


def plot_recall_curves(
    qrels_path: str, run_paths: Sequence[str], options: TrecOptions, path: str
) -> None:
    """`--plot` of task articles: each run's interpolated precision at the 11 recall levels
    (trec_eval's iprec_at_recall, the `all` rows), drawn in one figure."""
    from focal.evaluation.cli.plot import draw_curves

    selection = select(["iprec_at_recall"])
    index = load_index(qrels_path)
    curves = []
    for run_path in run_paths:
        evaluation = evaluate_named(index, load_run(run_path, False), selection, options)
        rows = selection.rows()
        levels = [float(row.parameter or 0.0) for row in rows]
        curves.append(
            (evaluation.run_id, levels, [float(evaluation.summary[r.name]) for r in rows])
        )
    draw_curves(curves, "articles", "interpolated precision", path)
    click.echo(f"plot written to {path}", err=True)


def notes(evaluation: TrecEvaluation) -> list[str]:
    """What stderr says about a run: version, averaging, topics the qrels do not know."""
    options = evaluation.options
    name = evaluation.run_id
    answered = sum(evaluation.answered)
    said = [f"{name}: trec_eval {options.version} semantics, {answered} topics answered"]
    if evaluation.unknown_topics:
        said.append(
            f"{name}: run topics absent from the qrels (ignored): "
            + " ".join(evaluation.unknown_topics)
        )
    if not answered:
        said.append(f"{name}: no topic with both results and judgements (trec_eval stops here)")
    said.extend(f"{name}: warning: {w}" for w in evaluation.warnings[:10])
    return said
