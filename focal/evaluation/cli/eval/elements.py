"""`focal eval --task elements`: element runs scored with element measures (spec section 5).

Element qrels come from a file (2002-2004 or the 2005/2006 export) or are derived from FOL
passage qrels with `--collection`; runs are 7-field element runs or XML submissions with paths.
The writers are `focal eval`'s, so `-q --format tsv` feeds `focal compare` unchanged. The same
reading and evaluation serve `focal compare --task elements` (`element_values`) and the
reliability studies, so that every command scores an element run alike.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO, cast

import click

from focal.evaluation.cli.eval.output import WRITERS
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.elements.qrels import MAPPING_NOTE, ElementQrels
from focal.evaluation.formats.elements.run_table import read_element_table
from focal.evaluation.formats.elements.runs import read_element_run
from focal.evaluation.measures.elements import quantisation
from focal.evaluation.measures.elements.precall import NonRelevance, Ties
from focal.evaluation.measures.elements.topic import ElementOptions, needs_spans
from focal.evaluation.measures.elements.xcg import PartWeights
from focal.evaluation.measures.engines.element_topics import (
    PreparedElementQrels,
    check_quantisation,
    evaluate_element_table,
    evaluate_elements,
    on_columns,
)
from focal.evaluation.measures.evaluate import RunEvaluation, Settings
from focal.evaluation.measures.registry.names import DEFAULTS
from focal.evaluation.processes import map_on_processes
from focal.evaluation.relevance.element_qrels import load_element_qrels

# What every worker of a call evaluates its runs against: the prepared qrels, the collection
# (None without --collection) and the settings.
Shared = tuple[PreparedElementQrels, Collection | None, Settings]


def notes_for(qrels: ElementQrels, quant: str) -> list[str]:
    """The stderr notes of a call: the four-grade mapping, only when the quantisation reads
    2005/2006 qrels through it (a function with a 2005 definition reads e and s directly)."""
    if qrels.scale == "2005" and quantisation.definition_for(quant, "2005") == "2004":
        return [f"{quant} is a four-grade function: {MAPPING_NOTE}"]
    return []


def read_element_qrels_for(
    qrels_path: str, settings: Settings, collection_dir: str | None
) -> tuple[PreparedElementQrels, Collection | None]:
    """The qrels (derived from FOL qrels with a collection) prepared for many runs, and the
    collection; FormatError for bad input or a quantisation the qrels' scale lacks."""
    collection = Collection(collection_dir) if collection_dir else None
    if collection is None and needs_spans(settings.measures):
        raise click.UsageError("inex_eval_ng counts characters: give --collection DIR")
    qrels = load_element_qrels(qrels_path, collection)
    check_quantisation(qrels, (settings.elements or ElementOptions()).quant)
    return PreparedElementQrels(qrels), collection


def _evaluate_path(shared: Shared, path: str) -> RunEvaluation:
    prepared, collection, settings = shared
    if collection is None and on_columns(prepared, settings):
        table = read_element_table(path)  # None: a file for the careful reader
        if table is not None:
            return evaluate_element_table(prepared, table, settings)
    run, spans = read_element_run(path, collection)
    return evaluate_elements(prepared, run, settings, spans)


def evaluate_element_files(
    qrels_path: str,
    run_paths: Sequence[str],
    settings: Settings,
    collection_dir: str | None,
    jobs: int = 1,
) -> tuple[list[RunEvaluation], list[str]]:
    """Evaluations of the runs and the notes for stderr; FormatError for bad input."""
    prepared, collection = read_element_qrels_for(qrels_path, settings, collection_dir)
    notes = notes_for(prepared.qrels, (settings.elements or ElementOptions()).quant)
    return evaluate_prepared(prepared, collection, settings, run_paths, jobs), notes


def evaluate_prepared(
    prepared: PreparedElementQrels,
    collection: Collection | None,
    settings: Settings,
    run_paths: Sequence[str],
    jobs: int = 1,
) -> list[RunEvaluation]:
    """The runs evaluated against prepared qrels. With `jobs` > 1 and several runs, the runs
    go to worker processes that share the prepared qrels (each topic's values and ideal vector
    worked out before the workers start, once for every run; `focal.evaluation.processes`)."""
    if jobs > 1 and len(run_paths) > 1:
        prepared.prepare_all(settings.elements or ElementOptions())
    shared: Shared = (prepared, collection, settings)
    return list(map_on_processes(_evaluate_path, shared, run_paths, jobs))


def element_settings(measures: Sequence[str], options: ElementOptions) -> Settings:
    """`focal eval --task elements`'s settings: every qrels topic counts (spec section 5)."""
    try:
        return Settings(
            task="elements", complete=True, elements=options,
            measures=tuple(measures) or DEFAULTS["elements"],
        )  # fmt: skip
    except ValueError as error:
        raise click.UsageError(str(error)) from error


def element_values(
    qrels_path: str,
    run_paths: Sequence[str],
    measure: str,
    options: ElementOptions,
    collection_dir: str | None,
    jobs: int = 1,
) -> tuple[dict[str, dict[str, float]], list[str], list[str]]:
    """Per-topic values of one element measure row, exactly as `focal eval --task elements -q`
    prints them: (run -> topic -> value, the qrels topics, the stderr notes). A measure that is
    not one printed row (`nxCG@k`) or a run id used twice is an error."""
    from focal.evaluation.measures.registry.names import element_rows

    rows = element_rows([measure])
    if rows != [measure]:
        raise ValueError(f"-m {measure} is {len(rows)} rows: name one, e.g. {rows[0]}")
    settings = element_settings((measure,), options)
    prepared, collection = read_element_qrels_for(qrels_path, settings, collection_dir)
    notes = notes_for(prepared.qrels, options.quant)
    evaluations = evaluate_prepared(prepared, collection, settings, run_paths, jobs)
    values: dict[str, dict[str, float]] = {}
    for path, evaluation in zip(run_paths, evaluations, strict=True):
        if evaluation.run_id in values:
            raise FormatError(path, None, f"a second run named {evaluation.run_id}")
        values[evaluation.run_id] = {t.topic: float(t.values[measure]) for t in evaluation.topics}
    return values, list(prepared.qrels.topics), notes


def compared_values(
    qrels_path: str, run_paths: Sequence[str], measure: str, quant: str,
    collection_dir: str | None, jobs: int,
) -> tuple[dict[str, dict[str, float]], list[str]]:  # fmt: skip
    """`focal compare --task elements`: `element_values` with the other options at `focal
    eval`'s defaults; its notes and the quantisation go to stderr."""
    try:
        quantisation.canonical(quant)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    values, topics, notes = element_values(
        qrels_path, run_paths, measure, ElementOptions(quant=quant), collection_dir, jobs
    )
    for note in [*notes, f"quantisation {quant}"]:
        click.echo(note, err=True)
    return values, topics


def run_elements(
    qrels_path: str,
    run_paths: Sequence[str],
    *,
    measures: tuple[str, ...],
    quant: str,
    ties: str,
    alpha: float,
    nonrel: str = "indicator",
    parts: str = "size",
    collection_dir: str | None,
    output_format: str,
    per_topic: bool,
    stream: TextIO | None = None,
    jobs: int = 1,
) -> None:
    """The whole command: read, evaluate, write; a FormatError is one line and exit code 2."""
    options = ElementOptions(
        quant, cast(Ties, ties), cast(NonRelevance, nonrel), alpha, cast(PartWeights, parts)
    )
    try:
        quantisation.canonical(quant)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    settings = element_settings(measures, options)
    try:
        evaluations, notes = evaluate_element_files(
            qrels_path, run_paths, settings, collection_dir, jobs
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
    WRITERS[output_format](evaluations, stream or sys.stdout, per_topic)
