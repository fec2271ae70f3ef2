"""trec_eval's measures on run files: `focal eval --task articles` in trec_eval's terms.

Reads TREC or FOL qrels and TREC, FOL or element runs (passage and element runs are reduced to
articles, an article scoring its best result) and evaluates every run against one
`GradeTable`, on workers (`running.article_workers`), or runs already in memory on threads;
`focal compare` takes one measure's per-topic values, and `--plot` the interpolated precision
of each run. What is printed is
`focal.evaluation.cli.trec_eval.articles`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.arrow_table import read_fol_table
from focal.evaluation.formats.fol.article_runs import articles_of_table
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.source import first_fields, read_bytes
from focal.evaluation.formats.trec import TrecRun, read_trec_run
from focal.evaluation.measures.trec_eval.engine.files import QrelsAhead
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
from focal.evaluation.measures.trec_eval.engine.run import (
    TrecEvaluation,
    TrecOptions,
    run_from_records,
)
from focal.evaluation.measures.trec_eval.engine.vocabulary import evaluate_named, select
from focal.evaluation.measures.trec_eval.families.declarations import SUMMARY_ONLY, Selection
from focal.evaluation.measures.trec_eval.selection import NamedSelection
from focal.evaluation.running.article_workers import evaluate_runs, tune_malloc

Curve = tuple[str, list[float], list[float]]  # run id, recall levels, interpolated precision


def is_trec_qrels(path: str) -> bool:
    """Whether a qrels file is TREC's (first line of at most 4 fields; comments only: empty);
    a file that cannot be read is not (the reader that follows reports it)."""
    try:
        return 0 <= first_fields(path) <= 4
    except FormatError:
        return False


def load_index(path: str, ahead: QrelsAhead | None = None) -> GradeTable:
    """TREC qrels (first line of at most 4 fields; comments only: empty) or FOL qrels (an
    article with highlighted text has grade 1); `ahead`, the reading of the file begun by
    `focal eval` as it started (`trec_eval.engine.files.start_qrels`)."""
    if 0 <= first_fields(path) <= 4:
        return GradeTable.from_trec_file(path, ahead)
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
    """What every run of `evaluate_article_files` goes through: read into the qrels' terms,
    then evaluated against them. The qrels are read, and prepared for `-l`, once, before any
    worker starts; a forked worker process inherits them, a spawned one is given the qrels'
    path and reads them again (`__reduce__`): a `GradeTable` is not made to pickle, and
    reading it is no slower than unpickling it would be (`focal.evaluation.processes`)."""

    def __init__(
        self, qrels_path: str, selection: Selection, options: TrecOptions,
        ahead: QrelsAhead | None = None,
    ) -> None:  # fmt: skip
        self.qrels_path, self.selection, self.options = qrels_path, selection, options
        self.index = load_index(qrels_path, ahead)
        self.index.prepare_for(options.level)

    def __reduce__(self) -> tuple[type[ArticleSteps], tuple[str, Selection, TrecOptions]]:
        return ArticleSteps, (self.qrels_path, self.selection, self.options)

    def prepare(self, path: str) -> TrecRun | PreparedRun:
        """The run in the qrels' terms; as read, when a row maps the grades to gains of its own
        (`nDCG(gains=...)`: evaluated against a table of its own, which prepares it again)."""
        apart = self.selection.apart if isinstance(self.selection, NamedSelection) else []
        if any(definition.gains for definition in apart):
            return load_run(path, False)
        return prepared_run(self.index, path)

    def evaluate(self, run: TrecRun | PreparedRun) -> TrecEvaluation:
        return evaluate_named(self.index, run, self.selection, self.options)


def evaluate_article_files(
    qrels_path: str, run_paths: Sequence[str], measures: Sequence[str], options: TrecOptions,
    jobs: int = 1, ahead: QrelsAhead | None = None,
) -> tuple[Selection, list[TrecEvaluation]]:  # fmt: skip
    """The measures' selection and every run's evaluation, on `jobs` workers; FormatError or
    ValueError for a bad file or measure name (the first bad file in run order)."""
    tune_malloc()
    selection = select(measures)
    steps = ArticleSteps(qrels_path, selection, options, ahead)
    pa.default_memory_pool().release_unused()  # what reading the qrels needed and freed
    return selection, evaluate_runs(run_paths, jobs, steps.prepare, steps.evaluate)


def evaluate_trec_runs(
    index: GradeTable, runs: Sequence[TrecRun], selection: Selection, options: TrecOptions,
    jobs: int = 1,
) -> list[TrecEvaluation]:  # fmt: skip
    """Runs already in memory (`focal.evaluation.evaluate`'s objects) against one qrels index,
    on `jobs` threads: they share the runs, which a worker process would have to be sent."""

    def one(run: TrecRun) -> TrecEvaluation:
        return evaluate_named(index, run, selection, options)

    if jobs <= 1 or len(runs) <= 1:
        return [one(run) for run in runs]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as threads:
        return list(threads.map(one, runs))


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


def recall_curves(qrels_path: str, run_paths: Sequence[str], options: TrecOptions) -> list[Curve]:
    """Each run's interpolated precision at the 11 recall levels (trec_eval's
    iprec_at_recall, the `all` rows), for `--plot` of task articles."""
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
    return curves
