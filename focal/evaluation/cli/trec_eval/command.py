"""`focal trec_eval`: trec_eval 10.0's own command line, options, output and exit codes.

    focal trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m measure[.params]]...
                    [-Z zscores] [-R qrels|qrels_jg|prefs|qrels_prefs] [-T trec_results]
                    [--trec-version 9|10]
                    REL_INFO_FILE RESULTS_FILE

Options are read as trec_eval reads them (GNU getopt: `-l2`, `-m P.5,10`, long forms such as
`--measure=map`, options after the files), and so are the files (`focal.evaluation.formats.trec`,
`-` for results on standard input). The evaluation is `trec_eval.engine.run`'s, the one behind
`focal eval --task articles`; this module adds trec_eval's control flow (`trec_eval.c`):
- the topics are the qrels topics, in id order; without `-c`, a qrels topic the run does not
  answer stops 10.0 with exit code 4 (9.x skips it), a run topic the qrels lack is ignored;
- `-Z FILE` turns every per-topic value into a z-score against FILE's `topic measure mean
  stddev` lines (-1000000 where FILE has no line or a zero deviation with another value) before
  the `all` rows are taken, and prefixes the names with `Z`;
- output is written only once everything is computed; exit codes: 1 usage or unknown measure,
  2 unreadable or malformed file or bad measure parameters, 4 a missing topic or a duplicate
  document, 7 no topic with both results and judgements (docs/trec_eval.md).
"""

from __future__ import annotations

import getopt
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

import click

from focal.evaluation.cli.trec_eval.layout import trec_lines
from focal.evaluation.cli.trec_eval.zscores import to_zscores
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.c_numbers import c_atol
from focal.evaluation.formats.source import UTF8_BOM, read_bytes
from focal.evaluation.formats.trec import DuplicateDocument, TrecRun, parse_trec_run
from focal.evaluation.formats.trec_eval_inputs import (
    ZScores,
    read_preferences,
    read_qrels_jg,
    read_zscores,
)
from focal.evaluation.measures.registry.names import UnknownMeasure, parse_trec
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

VERSION = "10.0-rc3"
SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
LONG = [
    "help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted",
    "level_for_rel=", "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=",
    "Max_retrieved_per_topic=", "Rel_info_format=", "Results_format=",
    "Output_old_results_format", "Zscore=", "trec-version=",
]  # fmt: skip
USAGE = (
    "Usage: focal trec_eval [-h] [-q] {-m measure}* rel_info_file results_file\n"
    "   -h: full help (options, measures, formats); -q: per-topic rows too;\n"
    "   -m: measures or sets to print (official by default; all_trec for all)\n"
)
HELP = """focal trec_eval: trec_eval 10.0's command line (docs/trec_eval.md).

  -q, --query_eval_wanted        per-topic rows before the summary
  -m, --measure NAME[.PARAMS]    measures or sets (official, all_trec, set); repeatable;
                                 parameters as trec_eval: P.5,10 ndcg.1=3,2=9 rbp.p=0.8
  -c, --complete_rel_info_wanted average over every qrels topic (missing ones score 0)
  -l, --level_for_rel N          lowest grade counted relevant (1)
  -n, --nosummary                no summary (`all`) rows
  -J, --Judged_docs_only         drop retrieved documents without a judgement
  -N, --Number_docs_in_coll N    collection size (utility)
  -M, --Max_retrieved_per_topic N  documents per topic considered
  -Z, --Zscore FILE              z-scores against FILE's `topic measure mean stddev` lines
  -R, --Rel_info_format FORMAT   qrels (default), qrels_jg, prefs, qrels_prefs
  -T, --Results_format trec_results
  -D, --Debug_level N[.qid]      no debug output; with .qid only that topic is evaluated
  -v, --version                  print the trec_eval version reproduced
  --trec-version 9|10            reproduce trec_eval 9.0.x (pytrec_eval) or 10.0 (default)
  RESULTS_FILE `-` reads standard input.

Measures: {names}
"""


class Stop(Exception):
    """trec_eval stopping: a message for stderr (may be empty) and its exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Request:
    """A parsed command line."""

    qrels: str = ""
    results: str = ""
    measures: list[str] = field(default_factory=list)
    per_topic: bool = False
    summary: bool = True
    zscores: str | None = None
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    options: dict[str, int | bool | None] = field(default_factory=dict)
    only_topic: str | None = None  # -D level.qid: evaluate that topic alone


def parse_arguments(argv: Sequence[str]) -> Request:
    """trec_eval's options by GNU getopt; -h and -v stop with their output (exit 0)."""
    try:
        pairs, files = getopt.gnu_getopt(list(argv), SHORT, LONG)
    except getopt.GetoptError as error:
        raise Stop(f"trec_eval: {error}\n{USAGE}", 1) from None
    request = Request()
    settings: dict[str, int | bool | None] = {}
    wants_help = False
    for option, value in pairs:
        name = option.lstrip("-")
        if name in ("h", "help"):
            wants_help = True
        elif name in ("v", "version"):
            raise Stop(f"trec_eval version {VERSION}", 0)
        elif name in ("q", "query_eval_wanted"):
            request.per_topic = True
        elif name in ("m", "measure"):
            request.measures.append(value)
        elif name in ("c", "complete_rel_info_wanted"):
            settings["complete"] = True
        elif name in ("l", "level_for_rel"):
            settings["level"] = c_atol(value)
        elif name in ("n", "nosummary"):
            request.summary = False
        elif name in ("J", "Judged_docs_only"):
            settings["judged_only"] = True
        elif name in ("N", "Number_docs_in_coll"):
            settings["num_docs"] = c_atol(value)
        elif name in ("M", "Max_retrieved_per_topic"):
            settings["max_docs"] = c_atol(value)
        elif name in ("R", "Rel_info_format"):
            request.rel_format = value
        elif name in ("T", "Results_format"):
            request.results_format = value
        elif name in ("Z", "Zscore"):
            request.zscores = value
        elif name in ("D", "Debug_level"):
            request.only_topic = value.partition(".")[2] or None
        elif name == "trec-version":
            settings["version"] = c_atol(value)
    for spec in request.measures:  # trec_eval refuses an unknown name as it reads -m
        try:
            parse_trec([spec])
        except UnknownMeasure:
            raise Stop(f"trec_eval: illegal measure '{spec.partition('.')[0]}'", 1) from None
        except ValueError as error:
            raise Stop(f"trec_eval: Cannot initialize measure: {error}", 2) from None
    if wants_help:
        from focal.evaluation.measures.trec_eval.families.declarations import known_names

        raise Stop(HELP.format(names=known_names()), 0)
    if len(files) != 2:
        raise Stop(USAGE.rstrip("\n"), 1)
    request.qrels, request.results = files
    request.options = settings
    return request


def evaluate(request: Request, stdin: TextIO | None = None) -> tuple[TrecEvaluation, Selection]:
    """Read, check and evaluate as trec_eval does; Stop on what stops it."""
    if request.rel_format not in FORMATS:
        raise Stop(f"trec_eval: Illegal rel_format '{request.rel_format}'", 2)
    if request.results_format != "trec_results":
        raise Stop(f"trec_eval: Illegal retrieval results format '{request.results_format}'", 2)
    selection = parse_trec(request.measures)
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
        evaluation = evaluate_preferences(preferences, run, selection, options)
        qrels_topics = sorted(preferences.topics)
    else:
        index = GradeTable.from_trec_file(request.qrels)
        run = _read_results(request, stdin)
        zscores = read_zscores(request.zscores) if request.zscores else None
        if request.only_topic is not None:  # trec_eval.c skips every other qrels topic
            index = index.only(request.only_topic)
        evaluation = evaluate_trec(index, run, selection, options, adjust=_adjuster(zscores))
        qrels_topics = index.topics
        _check_first_topic(index, evaluation, selection)
    if not options.complete and options.version == 10:
        answered = set(evaluation.topics)
        missing = [topic for topic in qrels_topics if topic not in answered]
        if missing:
            raise Stop(f"trec_eval: result qid '{missing[0]}' not found in qrels "
                       "(no results for this qrels topic; -c scores it 0)", 4)  # fmt: skip
    if not evaluation.topics:
        raise Stop("trec_eval: No queries with both results and relevance info", 7)
    return evaluation, selection


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


FORMATS = {"qrels": "", "qrels_jg": "_avgjg", "prefs": "prefs_", "qrels_prefs": "prefs_"}


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


def _read_results(request: Request, stdin: TextIO | None) -> TrecRun:
    if request.results == "-":
        source = stdin if stdin is not None else sys.stdin
        data = source.buffer.read() if hasattr(source, "buffer") else source.read().encode()
        run = parse_trec_run(data.removeprefix(UTF8_BOM), "-")
    else:
        run = parse_trec_run(read_bytes(request.results), request.results, False)
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
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def trec_eval_command(argv: tuple[str, ...]) -> None:
    """trec_eval 10.0's command line, byte for byte (-h for its options; docs/trec_eval.md)."""
    sys.exit(main(argv, sys.stdout, sys.stderr))
