"""`focal eval --task articles` in trec_eval's terms: its names, options and layout.

The runs are evaluated by `focal.evaluation.running.articles` (TREC or FOL qrels; TREC, FOL or
element runs reduced to articles, an article scoring its best result); this module prints
trec_eval's layout (`--format trec`: `%-22s\\t%s\\t%6.4f`, counts as integers, a `runid` row),
or tab-separated rows, or JSON, or a table (`cli.trec_eval.writers`). Every file is read and
evaluated before anything is printed, so a bad file leaves stdout empty. With `--ci`, every
`all` row that is the mean of its per-topic values (not the counts, not gm_map) gets its interval
over the topics, as `focal.evaluation.output.intervals.Intervals` words it.

Plain TREC qrels and runs go through the C part's whole-file pass where it answers
(`running.article_pass`: the engine's values to the bit, a block of topics in memory without
-q or --ci); then nothing here imports numpy, pyarrow or click (docs/performance.md).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from focal.evaluation.cli.trec_eval.writers import WRITERS
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation, TrecOptions
from focal.evaluation.measures.trec_eval.families.declarations import COUNTS
from focal.evaluation.measures.trec_eval.selection import select
from focal.evaluation.output.intervals import Intervals
from focal.evaluation.running.article_pass import answered_topics, completed, on_pass

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.engine.files import QrelsAhead

TREC_FORMATS = ("trec", "tsv", "json", "table")
# The measures of `table` when no -m is given (trec_eval's `official` set has 30 rows).
TABLE_DEFAULT = ("map", "Rprec", "bpref", "recip_rank", "P.5,10,20")


def run_trec_eval(
    qrels_path: str, run_paths: Sequence[str], measures: Sequence[str], options: TrecOptions,
    per_topic: bool, output_format: str, jobs: int = 1, confidence: float | None = None,
    ci_method: str = "t", ahead: QrelsAhead | None = None,
    found: Sequence[TrecEvaluation | None] | None = None,
) -> None:  # fmt: skip
    """Evaluate and print; a bad file or measure name is one line on stderr and exit code 2.
    Runs go through the whole-file pass where it answers (`found`, else `by_pass` now), the
    others are read and evaluated on `jobs` workers (`running.article_pass.completed`); the
    first bad file in order is reported. `ahead`: the qrels' reading begun as the command
    started."""
    measures = measures_for(measures, output_format)
    if found is None:
        found = by_pass(qrels_path, run_paths, measures, options, per_topic or bool(confidence))
    try:
        selection = select(measures)
        evaluations = completed(qrels_path, run_paths, found, measures, options, jobs, ahead)
    except (FormatError, ValueError) as error:
        _say(f"focal eval: {error}")
        sys.exit(2)
    if selection.left_out:
        _say("focal eval: not computed by Focal (left out of the set): "
             + " ".join(selection.left_out))  # fmt: skip
    for evaluation in evaluations:
        for note in notes(evaluation):
            _say(note)
    intervals = None
    if confidence is not None:
        intervals = trec_intervals(evaluations, confidence, ci_method)
    WRITERS[output_format](evaluations, selection, sys.stdout, per_topic, intervals)


def measures_for(measures: Sequence[str], output_format: str) -> Sequence[str]:
    """The measures a call prints: -m's, or `table`'s own when none is given."""
    return TABLE_DEFAULT if output_format == "table" and not measures else measures


def by_pass(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
            options: TrecOptions, per_topic: bool) -> list[TrecEvaluation | None]:  # fmt: skip
    """Each run evaluated through the whole-file pass, None where it declines
    (`running.article_pass.pass_evaluation`); every run None when the measures are not
    trec_eval's (the engine that serves them says what is wrong). `per_topic`: keep the
    topics' values (-q, --ci). A run the pass answers has plain TREC qrels: trec_eval's engine
    is the one `focal eval --task articles` would choose."""
    try:
        selection = select(measures)
    except ValueError:
        return [None] * len(run_paths)
    return on_pass(qrels_path, run_paths, selection, options, per_topic)


def _say(line: str) -> None:
    """A line on stderr (click's `echo` would cost its import on the whole-file pass's path)."""
    sys.stdout.flush()
    print(line, file=sys.stderr, flush=True)


def trec_intervals(
    evaluations: Sequence[TrecEvaluation], confidence: float, method: str = "t"
) -> Intervals:
    """The interval over the topics of every `all` row equal to the mean of its per-topic
    values (to 1e-12), per run (the bootstrap with seed 0)."""
    import numpy as np

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


def plot_recall_curves(
    qrels_path: str, run_paths: Sequence[str], options: TrecOptions, path: str
) -> None:
    """`--plot` of task articles: each run's interpolated precision at the 11 recall levels
    (trec_eval's iprec_at_recall, the `all` rows), drawn in one figure."""
    from focal.evaluation.cli.plot import draw_curves
    from focal.evaluation.running.articles import recall_curves

    curves = recall_curves(qrels_path, run_paths, options)
    draw_curves(curves, "articles", "interpolated precision", path)
    _say(f"plot written to {path}")


def notes(evaluation: TrecEvaluation) -> list[str]:
    """What stderr says about a run: version, averaging, topics the qrels do not know."""
    options = evaluation.options
    name = evaluation.run_id
    answered = answered_topics(evaluation)
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
