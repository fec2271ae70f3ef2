"""Element runs scored with element measures (spec section 5): `focal eval --task elements`.

Element qrels come from a file (2002-2004 or the 2005/2006 export) or are derived from FOL
passage qrels with a collection; runs are 7-field element runs or XML submissions with paths.
The same reading and evaluation serve `focal compare --task elements` (`element_values`), the
Python API and the reliability studies, so that every caller scores an element run alike.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.elements.qrels import MAPPING_NOTE, ElementQrels
from focal.evaluation.formats.elements.run_table import read_element_table
from focal.evaluation.formats.elements.runs import read_element_run
from focal.evaluation.measures.elements import quantisation
from focal.evaluation.measures.elements.topic import ElementOptions
from focal.evaluation.measures.engines.element_topics import (
    PreparedElementQrels,
    check_quantisation,
    evaluate_element_table,
    evaluate_elements,
    on_columns,
)
from focal.evaluation.measures.evaluate import RunEvaluation, Settings
from focal.evaluation.processes import map_on_processes
from focal.evaluation.relevance.element_qrels import load_element_qrels
from focal.evaluation.running.options import element_settings

# What every worker of a call evaluates its runs against: the prepared qrels, the collection
# (None without one) and the settings.
Shared = tuple[PreparedElementQrels, Collection | None, Settings]
Folder = str | os.PathLike[str] | None  # the collection's folder


def notes_for(qrels: ElementQrels, quant: str) -> list[str]:
    """The stderr notes of a call: the four-grade mapping, only when the quantisation reads
    2005/2006 qrels through it (a function with a 2005 definition reads e and s directly)."""
    if qrels.scale == "2005" and quantisation.definition_for(quant, "2005") == "2004":
        return [f"{quant} is a four-grade function: {MAPPING_NOTE}"]
    return []


def read_element_qrels_for(
    qrels_path: str, settings: Settings, collection_dir: Folder
) -> tuple[PreparedElementQrels, Collection | None]:
    """The qrels (derived from FOL qrels with a collection) prepared for many runs, and the
    collection; FormatError for bad input or a quantisation the qrels' scale lacks."""
    collection = Collection(os.fspath(collection_dir)) if collection_dir else None
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
    collection_dir: Folder,
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


def element_values(
    qrels_path: str,
    run_paths: Sequence[str],
    measure: str,
    options: ElementOptions,
    collection_dir: Folder,
    jobs: int = 1,
) -> tuple[dict[str, dict[str, float]], list[str], list[str]]:
    """Per-topic values of one element measure row, exactly as `focal eval --task elements -q`
    prints them: (run -> topic -> value, the qrels topics, the stderr notes). A measure that is
    not one printed row (`nxCG@k`) or a run id used twice is an error."""
    from focal.evaluation.measures.registry.names import element_rows

    rows = element_rows([measure])
    if rows != [measure]:
        raise ValueError(f"-m {measure} is {len(rows)} rows: name one, e.g. {rows[0]}")
    settings = element_settings((measure,), options, collection_dir)
    prepared, collection = read_element_qrels_for(qrels_path, settings, collection_dir)
    notes = notes_for(prepared.qrels, options.quant)
    evaluations = evaluate_prepared(prepared, collection, settings, run_paths, jobs)
    values: dict[str, dict[str, float]] = {}
    for path, evaluation in zip(run_paths, evaluations, strict=True):
        if evaluation.run_id in values:
            raise FormatError(path, None, f"a second run named {evaluation.run_id}")
        values[evaluation.run_id] = {t.topic: float(t.values[measure]) for t in evaluation.topics}
    return values, list(prepared.qrels.topics), notes
