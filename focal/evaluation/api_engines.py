"""The two engines `focal.evaluation.api.evaluate` feeds apart from Focal's own: trec_eval's (qrels
and runs as paths, `TrecQrels`/`TrecRun`, FOL records or plain dicts) and the element measures
(files only, as `focal eval --task elements` reads them). Each goes through what `focal eval`
runs (`focal.evaluation.running.articles`, `focal.evaluation.running.elements`), so the values
are the command's."""

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
    from focal.evaluation.running.options import EvalOptions


def trec_index(qrels: Any) -> GradeTable:
    """trec_eval's qrels index of a qrels file (TREC or FOL, as `focal eval` tells them apart),
    `TrecQrels`, FOL records (a relevant article has grade 1) or topic -> {doc: grade}.

    >>> trec_index({"q": {"d1": 2, "d2": 0}}).judged["q"].tolist()
    [2, 0]
    """
    if isinstance(qrels, str | os.PathLike):
        from focal.evaluation.running.articles import load_index

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
        from focal.evaluation.running.articles import load_run

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
    """Every run, converted (`trec_run`), against one qrels index (`trec_index`), on `jobs`
    threads (`running.articles.evaluate_trec_runs`).

    >>> [e.summary["P_1"] for e in evaluate_trec_runs(
    ...     {"q": {"d": 1}}, [{"q": {"d": 1.0}}], ["P.1"], TrecOptions(), 1)]
    [1.0]
    """
    from focal.evaluation.measures.trec_eval.engine.vocabulary import select
    from focal.evaluation.running.articles import evaluate_trec_runs as evaluate_in_memory

    selection = select(measures)
    index = trec_index(qrels)
    converted = [trec_run(run, position) for position, run in enumerate(runs, 1)]
    return evaluate_in_memory(index, converted, selection, options, jobs)


def evaluate_trec_paths(
    qrels: str, runs: Sequence[str], options: EvalOptions, per_topic: bool = True
) -> list[TrecEvaluation]:
    """Run files against a qrels file: through the C part's whole-file pass where it answers
    (`running.article_pass.on_pass`: the engine's values to the bit; with `per_topic=False` no
    topic kept, a block of topics in memory), the others through `evaluate_trec_runs`, in the
    runs' order."""
    from focal.evaluation.measures.trec_eval.selection import select
    from focal.evaluation.running.article_pass import on_pass

    trec = options.trec_options()
    found = on_pass(qrels, runs, select(options.measures), trec, per_topic)
    declined = [run for run, evaluation in zip(runs, found, strict=True) if evaluation is None]
    rest = iter(evaluate_trec_runs(qrels, declined, options.measures, trec, options.workers())
                if declined else [])  # fmt: skip
    return [next(rest) if evaluation is None else evaluation for evaluation in found]


def evaluate_element_runs(
    qrels: Any, runs: Sequence[Any], options: EvalOptions
) -> list[RunEvaluation]:
    """Element runs scored with element measures: element or FOL qrels (FOL needs the
    collection) and run files, as `focal eval --task elements` with `options`; ValueError for
    objects.

    >>> from focal.evaluation.running.options import EvalOptions
    >>> evaluate_element_runs({}, [], EvalOptions("elements"))
    Traceback (most recent call last):
    ...
    ValueError: task elements reads its qrels and runs from files
    """
    from focal.evaluation.running.elements import evaluate_element_files

    files = (str, os.PathLike)
    if not isinstance(qrels, files) or not all(isinstance(run, files) for run in runs):
        raise ValueError("task elements reads its qrels and runs from files")
    settings = options.element_settings()
    paths = [os.fspath(run) for run in runs]
    collection = options.collection
    jobs = options.workers()
    return evaluate_element_files(os.fspath(qrels), paths, settings, collection, jobs)[0]
