"""`focal eval --task elements`: element runs scored with element measures (spec section 5).

Element qrels come from a file (2002-2004 or the 2005/2006 export) or are derived from FOL
passage qrels with `--collection`; runs are 7-field element runs or XML submissions with paths.
The writers are `focal eval`'s, so `-q --format tsv` feeds `focal compare` unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

import click

from evaluation.cli.eval_output import WRITERS
from evaluation.errors import FormatError
from evaluation.formats.convert import Collection
from evaluation.formats.elements.qrels import MAPPING_NOTE
from evaluation.formats.elements.runs import read_element_run
from evaluation.measures.elements.topic import ElementOptions, needs_spans
from evaluation.measures.engines.element_topics import evaluate_elements
from evaluation.measures.evaluate import RunEvaluation, Settings
from evaluation.measures.registry.names import DEFAULTS
from evaluation.relevance.element_qrels import load_element_qrels


def evaluate_element_files(
    qrels_path: str,
    run_paths: Sequence[str],
    settings: Settings,
    collection_dir: str | None,
) -> tuple[list[RunEvaluation], list[str]]:
    """Evaluations of the runs and the notes for stderr; FormatError for bad input."""
    collection = Collection(collection_dir) if collection_dir else None
    if collection is None and needs_spans(settings.measures):
        raise click.UsageError("inex_eval_ng counts characters: give --collection DIR")
    qrels = load_element_qrels(qrels_path, collection)
    notes = [MAPPING_NOTE] if qrels.scale == "2005" else []
    evaluations = []
    for path in run_paths:
        run, spans = read_element_run(path, collection)
        evaluations.append(evaluate_elements(qrels, run, settings, spans))
    return evaluations, notes


def run_elements(
    qrels_path: str,
    run_paths: Sequence[str],
    *,
    measures: tuple[str, ...],
    quant: str,
    ties: str,
    alpha: float,
    nonrel: str = "indicator",
    collection_dir: str | None,
    output_format: str,
    per_topic: bool,
    stream: TextIO | None = None,
) -> None:
    """The whole command: read, evaluate, write; a FormatError is one line and exit code 2."""
    options = ElementOptions(quant=quant, ties=ties, alpha=alpha, nonrel=nonrel)  # type: ignore[arg-type]
    try:
        settings = Settings(
            task="elements", complete=True, elements=options,
            measures=measures or DEFAULTS["elements"],
        )  # fmt: skip
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    try:
        evaluations, notes = evaluate_element_files(qrels_path, run_paths, settings, collection_dir)
    except FormatError as error:
        click.echo(f"focal eval: {error}", err=True)
        sys.exit(2)
    except ValueError as error:  # a quantisation the qrels' scale cannot serve
        raise click.UsageError(str(error)) from error
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
    WRITERS[output_format](evaluations, stream or sys.stdout, per_topic)
