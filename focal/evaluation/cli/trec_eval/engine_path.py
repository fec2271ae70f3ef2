"""`focal trec_eval` through the article engine (`trec_eval.engine.run`): every relevance format,
`-Z`, `-D`, results on standard input and files the C part's whole-file pass does not take.

The files are read as trec_eval reads them (the columnar readers of
`focal.evaluation.formats.trec` where they read as C does, `files` otherwise), evaluated at once,
and the stops of trec_eval's loop over topics found afterwards (`control`): the `-q` rows of the
topics before a stop are those `command` prints.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TextIO

from focal.evaluation.cli.trec_eval.arguments import Request
from focal.evaluation.cli.trec_eval.control import Checked, checked
from focal.evaluation.cli.trec_eval.files import qrels_reader, run_reader
from focal.evaluation.cli.trec_eval.stops import Stop, StopAfter, missing_topic, only_negative
from focal.evaluation.cli.trec_eval.zscores import to_zscores
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.source import UTF8_BOM, read_bytes
from focal.evaluation.formats.trec import DuplicateDocument, RunLines, TrecRun, parse_trec_run
from focal.evaluation.formats.trec_eval_inputs import (
    ZScores,
    read_preferences,
    read_qrels_jg,
    read_zscores,
)
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.groups import evaluate_groups
from focal.evaluation.measures.trec_eval.engine.prefs import evaluate_preferences
from focal.evaluation.measures.trec_eval.engine.run import (
    TrecEvaluation,
    TrecOptions,
    evaluate_trec,
)
from focal.evaluation.measures.trec_eval.families.declarations import Selection
from focal.evaluation.measures.trec_eval.families.preferences import PreferenceError


def evaluate_files(request: Request, selection: Selection, options: TrecOptions,
                   stdin: TextIO | None = None) -> TrecEvaluation:  # fmt: skip
    """Read and evaluate as trec_eval does (the request checked by `command.checked_request`);
    Stop on what stops it."""
    if request.rel_format == "qrels_jg":
        groups = read_qrels_jg(request.qrels)
        run = _read_results(request, stdin)
        evaluation = evaluate_groups(groups, run, selection, options)
        qrels_topics = groups.topics()
    elif request.rel_format in ("prefs", "qrels_prefs"):
        preferences = read_preferences(request.qrels, request.rel_format == "qrels_prefs")
        run = _read_results(request, stdin)
        qrels_topics = sorted(preferences.topics)
        try:
            evaluation = evaluate_preferences(preferences, run, selection, options)
        except PreferenceError as error:
            if error.topic is None:
                raise
            stop = error.topic.encode()  # the rows of the topics before it are printed
            before = {t: lines for t, lines in preferences.topics.items() if t.encode() < stop}
            partial = evaluate_preferences(replace(preferences, topics=before), run, selection,
                                           options)  # fmt: skip
            raise StopAfter(f"trec_eval: {error}", 4, partial, selection, error.topic) from None
    else:
        evaluation, qrels_topics = _evaluate_qrels(request, options, selection, stdin)
    if not options.complete and options.version == 10:
        answered = set(evaluation.topics)
        missing = [topic for topic in qrels_topics if topic not in answered]
        if missing:
            raise StopAfter(missing_topic(missing[0]), 4, evaluation, selection, missing[0])
    if not evaluation.topics:
        raise Stop("trec_eval: No queries with both results and relevance info", 7)
    return evaluation


def _evaluate_qrels(request: Request, options: TrecOptions, selection: Selection,
                    stdin: TextIO | None) -> tuple[TrecEvaluation, list[str]]:  # fmt: skip
    """Plain qrels: read as trec_eval `options.version` reads them (`files`), evaluated; a
    duplicate sends both files through `control.checked`, which finds where trec_eval stops."""
    qrels_lines, run_lines = qrels_reader(options.version), run_reader(options.version)
    stop: Checked | None = None
    try:  # (plain qrels are read in C; any other file by `qrels_lines`)
        index = _only(GradeTable.from_trec_file(request.qrels, lines=qrels_lines), request)
        run = _read_results(request, stdin, run_lines)
        zscores = _zscores(request)
        evaluation = _evaluate_index(index, run, selection, options, zscores, None)
    except DuplicateDocument:
        qrels = qrels_lines(read_bytes(request.qrels), request.qrels)
        run = _read_results(request, stdin, run_lines)
        stop = checked(qrels, run, options.version, options.complete, options.max_docs,
                       request.only_topic)  # fmt: skip
        index = _only(GradeTable.from_trec(stop.qrels), request)
        zscores = _zscores(request)
        evaluation = _evaluate_index(index, stop.run, selection, options, zscores,
                                     stop.stop_topic)  # fmt: skip
        topics = sorted({*index.topics, *(() if stop.stop_topic is None else [stop.stop_topic])})
        if stop.stop_topic is not None:
            raise StopAfter(stop.message, 4, evaluation, selection, stop.stop_topic) from None
        return evaluation, topics
    return evaluation, index.topics


def _only(index: GradeTable, request: Request) -> GradeTable:
    """-D level.qid: trec_eval.c skips every other qrels topic."""
    return index if request.only_topic is None else index.only(request.only_topic)


def _evaluate_index(index: GradeTable, run: TrecRun, selection: Selection, options: TrecOptions,
                    zscores: ZScores | None, stop_topic: str | None) -> TrecEvaluation:  # fmt: skip
    evaluation = evaluate_trec(index, run, selection, options, adjust=_adjuster(zscores))
    _check_first_topic(index, evaluation, selection, stop_topic)
    return evaluation


def _zscores(request: Request) -> ZScores | None:
    """The -Z file; trec_eval returns -1 from main (exit 255) when it cannot read one."""
    if not request.zscores:
        return None
    try:
        return read_zscores(request.zscores)
    except (FormatError, OSError) as error:
        raise Stop(f"trec_eval: {error}", 255) from None


def _check_first_topic(index: GradeTable, evaluation: TrecEvaluation, selection: Selection,
                       stop_topic: str | None) -> None:  # fmt: skip
    """The first topic evaluated with only negative judgements stops 10.0 (`stops.only_negative`)
    unless trec_eval stops before it: at a qrels topic 10.0 misses without -c, or at a
    duplicate (`stop_topic`), as its loop meets them in topic order."""
    if not evaluation.topics or evaluation.topics[0] not in index.topics:
        return
    first = evaluation.topics[0]
    options = evaluation.options
    if options.version == 10 and not options.complete and index.topics[0] != first:
        return  # (a qrels topic before it is missing: that stop comes first)
    if stop_topic is not None and stop_topic.encode() <= first.encode():
        return  # (a duplicate in the first topic itself: 10.0 names the duplicate first)
    if not index.has_judgements(first):
        stop = only_negative(selection, first)
        if stop is not None:
            raise stop


def _read_results(request: Request, stdin: TextIO | None, lines: RunLines | None = None) -> TrecRun:
    if request.results == "-":
        source = stdin if stdin is not None else sys.stdin
        data = source.buffer.read() if hasattr(source, "buffer") else source.read().encode()
        run = parse_trec_run(data.removeprefix(UTF8_BOM), "-", lines=lines)
    else:
        run = parse_trec_run(read_bytes(request.results), request.results, False, lines)
    if len(run.topic) == 0:
        raise Stop(f"trec_eval: Quit in file '{request.results}' (no results)", 2)
    return run


def _adjuster(zscores: ZScores | None):  # type: ignore[no-untyped-def]
    if zscores is None:
        return None
    return lambda evaluation: to_zscores(evaluation, zscores)
