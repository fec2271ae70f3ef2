"""The two engines `focal.evaluation.api.evaluate` feeds apart from Focal's own: trec_eval's (qrels
and runs as paths, `TrecQrels`/`TrecRun`, FOL records or plain dicts) and the element measures
(files only, as `focal eval --task elements` reads them). Each goes through the helpers of
`focal eval` (`focal.evaluation.cli.trec_eval.articles`,
`focal.evaluation.cli.eval.elements`), so the values are the command's."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from focal.evaluation.formats.records import Judgement, Run
from focal.evaluation.formats.trec import TrecQrels, TrecRun
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation, TrecOptions

if TYPE_CHECKING:
    from focal.evaluation.measures.records import RunEvaluation


def trec_index(qrels: Any) -> GradeTable:
    """trec_eval's qrels index of a qrels file (TREC or FOL, as `focal eval` tells them apart),
    `TrecQrels`, FOL records (a relevant article has grade 1) or topic -> {doc: grade}.

    >>> trec_index({"q": {"d1": 2, "d2": 0}}).judged["q"].tolist()
    [2, 0]
    """
    if isinstance(qrels, str | os.PathLike):
        from focal.evaluation.cli.trec_eval.articles import load_index

        return load_index(os.fspath(qrels))
    if isinstance(qrels, TrecQrels):
        return GradeTable.from_trec(qrels)
    if isinstance(qrels, PreparedQrels):
        qrels = qrels.qrels
    first = next((judged for judged in qrels.values() if judged), None)
    if first is not None and isinstance(next(iter(first.values())), Judgement):
        return GradeTable.from_fol(qrels)
    grades = {
        str(topic): {str(doc).encode(): int(grade) for doc, grade in judged.items()}
        for topic, judged in qrels.items()
    }
    return GradeTable.from_mapping(grades)


def trec_run(run: Any, position: int) -> TrecRun:
    """A run as trec_eval's engine takes it: a file as `focal eval` reads it, a `TrecRun`, a
    `Run` reduced to articles (an article scores its best result), or topic -> {doc: score}
    named `run<position>`.

    >>> trec_run({"q": {"d1": 0.5}}, 2).run_id
    'run2'
    """
    from focal.evaluation.measures.trec_eval.engine.run import run_from_records

    if isinstance(run, str | os.PathLike):
        from focal.evaluation.cli.trec_eval.articles import load_run

        return load_run(os.fspath(run))
    if isinstance(run, TrecRun):
        return run
    if isinstance(run, Run):
        return run_from_records(run)
    if isinstance(run, Mapping):
        from focal.evaluation.formats.trec import run_from_pairs

        scored = {
            str(topic): {str(doc).encode(): float(score) for doc, score in ranked.items()}
            for topic, ranked in run.items()
        }
        return run_from_pairs(f"run{position}", "", scored, [])
    raise ValueError(f"trec_eval's measures take run files, Run, TrecRun or dicts, not {run!r}")


def evaluate_trec_runs(
    qrels: Any, runs: Sequence[Any], measures: Sequence[str], options: TrecOptions, jobs: int
) -> list[TrecEvaluation]:
    """Every run against one qrels index, on `jobs` threads as `focal eval` runs them.

    >>> [e.summary["P_1"] for e in evaluate_trec_runs(
    ...     {"q": {"d": 1}}, [{"q": {"d": 1.0}}], ["P.1"], TrecOptions(), 1)]
    [1.0]
    """
    from focal.evaluation.measures.trec_eval.engine.vocabulary import evaluate_named, select

    selection = select(measures)
    index = trec_index(qrels)
    converted = [trec_run(run, position) for position, run in enumerate(runs, 1)]

    def one(run: TrecRun) -> TrecEvaluation:
        return evaluate_named(index, run, selection, options)

    if jobs <= 1 or len(converted) <= 1:
        return [one(run) for run in converted]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as threads:
        return list(threads.map(one, converted))


def evaluate_element_runs(
    qrels: Any,
    runs: Sequence[Any],
    measures: Sequence[str],
    options: Mapping[str, Any],
    collection: str | os.PathLike[str] | None,
    jobs: int = 1,
) -> list[RunEvaluation]:
    """Element runs scored with element measures: element or FOL qrels (FOL needs the
    `collection`) and run files, as `focal eval --task elements`; ValueError for objects.

    >>> evaluate_element_runs({}, [], (), {}, None)
    Traceback (most recent call last):
    ...
    ValueError: task elements reads its qrels and runs from files
    """
    from focal.evaluation.cli.eval.elements import evaluate_element_files
    from focal.evaluation.measures.elements.topic import ElementOptions, needs_spans
    from focal.evaluation.measures.records import Settings
    from focal.evaluation.measures.registry.names import DEFAULTS

    files = (str, os.PathLike)
    if not isinstance(qrels, files) or not all(isinstance(run, files) for run in runs):
        raise ValueError("task elements reads its qrels and runs from files")
    if collection is None and needs_spans(measures):
        raise ValueError("inex_eval_ng counts characters: give the collection")
    settings = Settings(
        task="elements", complete=True, elements=ElementOptions(**options),
        measures=tuple(measures) or DEFAULTS["elements"],
    )  # fmt: skip
    folder = None if collection is None else os.fspath(collection)
    paths = [os.fspath(run) for run in runs]
    return evaluate_element_files(os.fspath(qrels), paths, settings, folder, jobs)[0]
