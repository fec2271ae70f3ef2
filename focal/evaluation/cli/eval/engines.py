"""`focal eval` through Focal's own engines: the passage tasks and Focal's article measures on
FOL qrels, evaluated and written.

`cli.eval` reads the command line and hands each call to the path of its engine: trec_eval's
(`cli.trec_eval.articles`), the element engine's (`cli.eval.elements`), or this one, which
has the qrels read once and the runs evaluated on workers (`running.focal_engines`), then
writes the notes to stderr and the evaluations to stdout in the official program's layout or
another (`cli.eval.output`). A bad file is one line on stderr and exit code 2, with nothing on
stdout.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING

import click

from focal.evaluation.errors import FormatError

if TYPE_CHECKING:  # the measures are loaded once the focused runs are being parsed (below)
    from focal.evaluation.measures.evaluate import RunEvaluation
    from focal.evaluation.running.options import EvalOptions

SHOWN_WARNINGS = 10  # per run; the rest are counted


def run_notes(evaluation: RunEvaluation) -> list[str]:
    """What stderr says about a run: averaging, strict mode, unknown topics, warnings."""
    name = evaluation.run_id
    notes = [f"{name}: {evaluation.averaging}"]
    if evaluation.settings.strict:
        notes.append(
            f"{name}: strict mode: exact recall bins and gP[k] = sum/k; NOT the official program"
        )
    if evaluation.unknown_topics:
        notes.append(
            f"{name}: run topics absent from the qrels (ignored): "
            + " ".join(evaluation.unknown_topics)
        )
    shown = evaluation.warnings[:SHOWN_WARNINGS]
    notes.extend(f"{name}: warning: {w}" for w in shown)
    if len(evaluation.warnings) > len(shown):
        notes.append(f"{name}: ... and {len(evaluation.warnings) - len(shown)} more warnings")
    return notes


def run_focal_engines(qrels_path: str, run_paths: Sequence[str], options: EvalOptions) -> None:
    """Evaluate the runs of a passage task, or Focal's article measures, and print them; task
    articles draws its plot with trec_eval's interpolation (`trec_eval.plot_recall_curves`)."""
    from focal.evaluation.formats.source import collector_paused

    task = options.task
    # Modules, records and arrays hold no cycles worth collecting: the cyclic collector would go
    # through numpy's and pyarrow's modules as they load, then through the qrels' objects, some
    # 60 times in a call of 20 runs (20-25 ms holding the GIL), and once more through every
    # object of the call as the output is written, freeing nothing.
    with collector_paused():
        with ExitStack() as stack:
            runs = None
            if task == "focused":  # parsed from here on, while the measures load and qrels are read
                from focal.evaluation.formats.fol.read_ahead import ReadAhead

                runs = stack.enter_context(ReadAhead(run_paths))
            from focal.evaluation.running.focal_engines import evaluate_qrels_file

            settings = options.settings()
            try:
                evaluations = evaluate_qrels_file(
                    qrels_path, settings, run_paths, options.workers(), runs
                )
            except FormatError as error:
                click.echo(f"focal eval: {error}", err=True)
                sys.exit(2)
        write(
            evaluations, options.layout(len(run_paths)), options.per_topic,
            None if task == "articles" else options.plot, options.confidence, options.ci_method,
        )  # fmt: skip
    if options.plot and task == "articles":  # the same relevance (rel_chars > 0) as trec_eval's
        from focal.evaluation.cli.trec_eval.articles import plot_recall_curves

        plot_recall_curves(qrels_path, run_paths, options.trec_options(), options.plot)


def write(
    evaluations: list[RunEvaluation], output_format: str, per_topic: bool, plot_path: str | None,
    confidence: float | None = None, ci_method: str = "t",
) -> None:  # fmt: skip
    """The notes on stderr, the evaluations on stdout, and the plot if asked for."""
    from focal.evaluation.cli.eval.output import WRITERS, mean_intervals

    for evaluation in evaluations:
        for note in run_notes(evaluation):
            click.echo(note, err=True)
    intervals = None
    if confidence is not None:
        intervals = mean_intervals(evaluations, confidence, ci_method, seed=0)
    WRITERS[output_format](evaluations, sys.stdout, per_topic, intervals)
    if plot_path:
        from focal.evaluation.cli.plot import plot_curves

        plot_curves(evaluations, plot_path)
        click.echo(f"plot written to {plot_path}", err=True)
