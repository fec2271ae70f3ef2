"""`focal eval --task articles` in trec_eval's terms: its names, options and layout.

The runs are evaluated by `focal.evaluation.running.articles` (TREC or FOL qrels; TREC, FOL or
element runs reduced to articles, an article scoring its best result); this module prints
trec_eval's layout (`--format trec`: `%-22s\\t%s\\t%6.4f`, counts as integers, a `runid` row),
or tab-separated rows, or JSON, or a table (`cli.trec_eval.writers`). Every file is read and
evaluated before anything is printed, so a bad file leaves stdout empty. With `--ci`, every
`all` row that is the mean of its per-topic values (not the counts, not gm_map) gets its interval
over the topics, as `focal.evaluation.output.intervals.Intervals` words it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click
import numpy as np

from focal.evaluation.cli.trec_eval.writers import WRITERS
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation, TrecOptions
from focal.evaluation.measures.trec_eval.families.declarations import COUNTS
from focal.evaluation.output.intervals import Intervals
from focal.evaluation.running.articles import evaluate_article_files, recall_curves

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.engine.files import QrelsAhead

TREC_FORMATS = ("trec", "tsv", "json", "table")
# The measures of `table` when no -m is given (trec_eval's `official` set has 30 rows).
TABLE_DEFAULT = ("map", "Rprec", "bpref", "recip_rank", "P.5,10,20")


def run_trec_eval(
    qrels_path: str, run_paths: Sequence[str], measures: Sequence[str], options: TrecOptions,
    per_topic: bool, output_format: str, jobs: int = 1, confidence: float | None = None,
    ci_method: str = "t", ahead: QrelsAhead | None = None,
) -> None:  # fmt: skip
    """Evaluate and print; a bad file or measure name is one line on stderr and exit code 2.
    Runs are read and evaluated on `jobs` workers (`running.article_workers`); the first bad
    file in order is reported. `ahead`: the qrels' reading begun as the command started."""
    if output_format == "table" and not measures:
        measures = TABLE_DEFAULT
    try:
        selection, evaluations = evaluate_article_files(
            qrels_path, run_paths, measures, options, jobs, ahead
        )
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


def plot_recall_curves(
    qrels_path: str, run_paths: Sequence[str], options: TrecOptions, path: str
) -> None:
    """`--plot` of task articles: each run's interpolated precision at the 11 recall levels
    (trec_eval's iprec_at_recall, the `all` rows), drawn in one figure."""
    from focal.evaluation.cli.plot import draw_curves

    curves = recall_curves(qrels_path, run_paths, options)
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
