"""`focal eval --task elements`: element runs scored with element measures (spec section 5),
evaluated by `focal.evaluation.running.elements` and written here.

The writers are `focal eval`'s, so `-q --format tsv` feeds `focal compare` unchanged; the notes
(the four-grade mapping, the quantisation, averaging, unknown topics, warnings) go to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

import click

from focal.evaluation.cli.eval.output import WRITERS
from focal.evaluation.errors import FormatError
from focal.evaluation.running.elements import evaluate_element_files
from focal.evaluation.running.options import EvalOptions


def run_elements(
    qrels_path: str, run_paths: Sequence[str], options: EvalOptions, stream: TextIO | None = None
) -> None:
    """The whole command: read, evaluate, write; a FormatError is one line and exit code 2."""
    settings = options.element_settings()
    try:
        evaluations, notes = evaluate_element_files(
            qrels_path, run_paths, settings, options.collection, options.workers()
        )
    except FormatError as error:
        click.echo(f"focal eval: {error}", err=True)
        sys.exit(2)
    for note in notes:
        click.echo(note, err=True)
    for evaluation in evaluations:
        click.echo(f"{evaluation.run_id}: quantisation {options.quant}", err=True)
        click.echo(f"{evaluation.run_id}: {evaluation.averaging}", err=True)
        if evaluation.unknown_topics:
            click.echo(
                f"{evaluation.run_id}: run topics absent from the qrels (ignored): "
                + " ".join(evaluation.unknown_topics),
                err=True,
            )
        for warning in evaluation.warnings:
            click.echo(f"{evaluation.run_id}: warning: {warning}", err=True)
    layout = options.layout(len(run_paths))
    WRITERS[layout](evaluations, stream or sys.stdout, options.per_topic)
