"""`focal trec_eval`: trec_eval 10.0's own command line, options, output and exit codes.

    focal trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m measure[.params]]...
                    [-Z zscores] [-R qrels|qrels_jg|prefs|qrels_prefs] [-T trec_results]
                    [--trec-version 9|10]
                    REL_INFO_FILE RESULTS_FILE

Options are read as trec_eval reads them (`arguments`), and so are the files (the columnar
readers of `focal.evaluation.formats.trec` where they read as C does, `files` otherwise; `-` for
results on standard input). The evaluation is `trec_eval.engine.run`'s, the one behind
`focal eval --task articles`; this module adds trec_eval's control flow (`trec_eval.c`):
- the topics are the qrels topics, in id order; without `-c`, a qrels topic the run does not
  answer stops 10.0 with exit code 4 (9.x skips it), a run topic the qrels lack is ignored; a
  duplicate stops it only in a topic it evaluates (`control`), and the `-q` rows of the topics
  before a stop are printed, as trec_eval prints them as it goes;
- `-Z FILE` turns every per-topic value into a z-score against FILE's `topic measure mean
  stddev` lines (-1000000 where FILE has no line or a zero deviation with another value) before
  the `all` rows are taken, and prefixes the names with `Z`;
- exit codes: 1 usage or unknown measure, 2 unreadable, empty or malformed file or bad measure
  parameters, 4 a missing topic or a duplicate document, 7 no topic with both results and
  judgements, 255 an unreadable -Z file (trec_eval returns -1) (docs/trec_eval.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

import click

from focal.evaluation.cli.trec_eval.arguments import Request, parse_arguments
from focal.evaluation.cli.trec_eval.control import Checked, Stop, StopAfter, checked, rows_before
from focal.evaluation.cli.trec_eval.files import qrels_reader, run_reader
from focal.evaluation.cli.trec_eval.layout import trec_lines
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
from focal.evaluation.measures.trec_eval.families.declarations import GROUP_MEASURES, Selection
from focal.evaluation.measures.trec_eval.families.preferences import PreferenceError
from focal.evaluation.measures.trec_eval.names import parse_trec

FORMATS = {"qrels": "", "qrels_jg": "_avgjg", "prefs": "prefs_", "qrels_prefs": "prefs_"}


def evaluate(request: Request, stdin: TextIO | None = None) -> tuple[TrecEvaluation, Selection]:
    """Read, check and evaluate as trec_eval does; Stop on what stops it."""
    if request.rel_format not in FORMATS:
        raise Stop(f"trec_eval: Illegal rel_format '{request.rel_format}'", 2)
    if request.results_format != "trec_results":
        raise Stop(f"trec_eval: Illegal retrieval results format '{request.results_format}'", 2)
    if _empty(request.qrels):  # (10.0 cannot map an empty file: "Cannot read", exit 2)
        raise Stop(f"trec_eval: Cannot read qrels file '{request.qrels}' (it is empty)", 2)
    selection = parse_trec(request.measures, 9 if request.options.get("version") == 9 else 10)
    _check_format(selection, request.rel_format)
    if request.zscores and request.rel_format != "qrels":
        raise Stop(f"focal trec_eval: -Z with -R {request.rel_format} is not provided", 2)
    options = TrecOptions(**request.options)  # type: ignore[arg-type]
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
            raise StopAfter(f"trec_eval: result qid '{missing[0]}' not found in qrels "
                            "(no results for this qrels topic; -c scores it 0)", 4,
                            evaluation, selection, missing[0])  # fmt: skip
    if not evaluation.topics:
        raise Stop("trec_eval: No queries with both results and relevance info", 7)
    return evaluation, selection


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
        evaluation = _evaluate_index(index, run, selection, options, zscores)
    except DuplicateDocument:
        qrels = qrels_lines(read_bytes(request.qrels), request.qrels)
        run = _read_results(request, stdin, run_lines)
        stop = checked(qrels, run, options.version, options.complete, options.max_docs,
                       request.only_topic)  # fmt: skip
        index = _only(GradeTable.from_trec(stop.qrels), request)
        zscores = _zscores(request)
        evaluation = _evaluate_index(index, stop.run, selection, options, zscores)
        topics = sorted({*index.topics, *(() if stop.stop_topic is None else [stop.stop_topic])})
        if stop.stop_topic is not None:
            raise StopAfter(stop.message, 4, evaluation, selection, stop.stop_topic) from None
        return evaluation, topics
    return evaluation, index.topics


def _empty(path: str) -> bool:
    try:
        return os.stat(path).st_size == 0 and os.path.isfile(path)
    except OSError:
        return False  # (the reader names what is wrong)


def _only(index: GradeTable, request: Request) -> GradeTable:
    """-D level.qid: trec_eval.c skips every other qrels topic."""
    return index if request.only_topic is None else index.only(request.only_topic)


def _evaluate_index(index: GradeTable, run: TrecRun, selection: Selection, options: TrecOptions,
                    zscores: ZScores | None) -> TrecEvaluation:  # fmt: skip
    evaluation = evaluate_trec(index, run, selection, options, adjust=_adjuster(zscores))
    _check_first_topic(index, evaluation, selection)
    return evaluation


def _zscores(request: Request) -> ZScores | None:
    """The -Z file; trec_eval returns -1 from main (exit 255) when it cannot read one."""
    if not request.zscores:
        return None
    try:
        return read_zscores(request.zscores)
    except (FormatError, OSError) as error:
        raise Stop(f"trec_eval: {error}", 255) from None


def _check_first_topic(index: GradeTable, evaluation: TrecEvaluation, selection: Selection) -> None:
    """10.0 stops (exit 4) when the first topic it evaluates has only negative judgements: its
    table of grades is then empty, and the allocator returns no memory for an empty first
    request (`form_res_rels.c`, `utility_pool.c`). Later such topics are evaluated (scoring 0)."""
    if not evaluation.topics or evaluation.topics[0] not in index.topics:
        return
    if not index.has_judgements(evaluation.topics[0]):
        names = [row.family for row in selection.rows() if row.family != "num_q"]
        if names:
            raise Stop(f"trec_eval: Can't calculate measure '{names[0]}' (topic "
                       f"{evaluation.topics[0]} has only negative judgements)", 4)  # fmt: skip


def _check_format(selection: Selection, rel_format: str) -> None:
    """trec_eval stops (exit 4) on a measure the relevance format cannot give: the
    judgement-group measures need -R qrels_jg, the preference ones -R prefs or qrels_prefs,
    every other one (runid and num_q aside) -R qrels."""
    for family in selection.families:
        kind = "_avgjg" if family in GROUP_MEASURES else "prefs_" if family.startswith(
            "prefs_") else ""  # fmt: skip
        if family != "num_q" and kind != FORMATS[rel_format]:
            need = {"_avgjg": "qrels_jg", "prefs_": "prefs or qrels_prefs", "": "qrels"}[kind]
            raise Stop(f"trec_eval: Can't calculate measure '{family}' from -R {rel_format} "
                       f"(it needs -R {need})", 4)  # fmt: skip


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


def render(evaluation: TrecEvaluation, selection: Selection, request: Request) -> str:
    """trec_eval's output for the run (`layout.trec_lines`)."""
    return "".join(
        trec_lines(evaluation, selection, request.per_topic, request.summary,
                   request.zscores is not None)
    )  # fmt: skip


def main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """The whole command; returns the exit code."""
    try:
        request = parse_arguments(argv)
        evaluation, selection = evaluate(request)
    except Stop as stop:
        if isinstance(stop, StopAfter) and request.per_topic:
            stdout.write(render(rows_before(stop.evaluation, stop.topic), stop.selection,
                                replace(request, summary=False)))  # fmt: skip
        text = str(stop)
        stream = stdout if stop.code == 0 and not text.startswith("trec_eval version") else stderr
        if text:
            stream.write(text if text.endswith("\n") else text + "\n")
        return stop.code
    except (DuplicateDocument, PreferenceError) as error:
        stderr.write(f"trec_eval: {error}\n")
        return 4
    except (FormatError, ValueError) as error:
        stderr.write(f"trec_eval: {error}\n")
        return 2
    stdout.write(render(evaluation, selection, request))
    return 0


@click.command(
    "trec_eval",
    short_help="trec_eval 10.0's own command line and output, byte for byte (docs/trec_eval.md).",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def trec_eval_command(argv: tuple[str, ...]) -> None:
    """trec_eval 10.0's command line, byte for byte (-h for its options; docs/trec_eval.md)."""
    sys.exit(main(argv, sys.stdout, sys.stderr))
