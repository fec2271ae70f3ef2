"""`focal trec_eval`: trec_eval 10.0's own command line, options, output and exit codes.

    focal trec_eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m measure[.params]]...
                    [-Z zscores] [-R qrels|qrels_jg|prefs|qrels_prefs] [-T trec_results]
                    [--trec-version 9|10]
                    REL_INFO_FILE RESULTS_FILE

Options are read as trec_eval reads them (`arguments`). Plain qrels and a plain run file go
through the C part's whole-file pass (`compiled`: no numpy, no pyarrow, topic blocks in bounded
memory, `-q` rows printed as the topics come); everything else, and an install without the C
part, through the article engine (`engine_path`), the one behind `focal eval --task articles`.
Both reproduce trec_eval's control flow (`trec_eval.c`; `stops`):
- the topics are the qrels topics, in id order; without `-c`, a qrels topic the run does not
  answer stops 10.0 with exit code 4 (9.x skips it), a run topic the qrels lack is ignored; a
  duplicate stops it only in a topic it evaluates (`control`), and the `-q` rows of the topics
  before a stop are printed, as trec_eval prints them as it goes;
- `-Z FILE` turns every per-topic value into a z-score against FILE's `topic measure mean
  stddev` lines (-1000000 where FILE has no line or a zero deviation with another value) before
  the `all` rows are taken, and prefixes the names with `Z`;
- exit codes: 1 usage or unknown measure, 2 unreadable, empty or malformed file or bad measure
  parameters, 4 a missing topic or a duplicate document, 7 no topic with both results and
  judgements, 255 an unreadable -Z file (trec_eval returns -1), 2 results that cannot be
  written (docs/trec_eval.md).
The output goes out in large chunks, as bytes when the stream has a binary buffer.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from focal.evaluation.cli.trec_eval.arguments import Request, parse_arguments
from focal.evaluation.cli.trec_eval.compiled import evaluate_compiled
from focal.evaluation.cli.trec_eval.layout import trec_lines
from focal.evaluation.cli.trec_eval.stops import Stop, StopAfter
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation, TrecOptions
from focal.evaluation.measures.trec_eval.families.declarations import GROUP_MEASURES, Selection
from focal.evaluation.measures.trec_eval.names import parse_trec

FORMATS = {"qrels": "", "qrels_jg": "_avgjg", "prefs": "prefs_", "qrels_prefs": "prefs_"}
CHUNK = 1 << 16  # characters of output gathered before they are written


class Output:
    """stdout in large chunks: encoded to the stream's binary buffer when it has one (a real
    stdout: no text layer per line), else written as text (a `StringIO`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.binary = getattr(stream, "buffer", None)
        self.parts: list[str] = []
        self.size = 0

    def write(self, lines: Sequence[str]) -> None:
        self.parts += lines
        self.size += sum(map(len, lines))
        if self.size >= CHUNK:
            self.flush()

    def flush(self) -> None:
        text = "".join(self.parts)
        self.parts.clear()
        self.size = 0
        if not text:
            return
        if self.binary is None:
            self.stream.write(text)
            return
        self.stream.flush()  # (whatever the text layer holds goes first)
        encoding = getattr(self.stream, "encoding", None) or "utf-8"
        errors = getattr(self.stream, "errors", None) or "strict"
        self.binary.write(text.encode(encoding, errors))
        self.binary.flush()


def checked_request(request: Request) -> tuple[Selection, TrecOptions]:
    """The measures and options asked for, checked as trec_eval checks them before it reads a
    topic; Stop on what stops it, ValueError on a bad option."""
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
    return selection, TrecOptions(**request.options)  # type: ignore[arg-type]


def evaluate(request: Request, stdin: TextIO | None = None) -> tuple[TrecEvaluation, Selection]:
    """Read, check and evaluate as trec_eval does, through the article engine (every topic at
    once); Stop on what stops it."""
    selection, options = checked_request(request)
    from focal.evaluation.cli.trec_eval.engine_path import evaluate_files  # (numpy, pyarrow)

    return evaluate_files(request, selection, options, stdin), selection


def _empty(path: str) -> bool:
    try:
        return os.stat(path).st_size == 0 and os.path.isfile(path)
    except OSError:
        return False  # (the reader names what is wrong)


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


def render(evaluation: TrecEvaluation, selection: Selection, request: Request) -> str:
    """trec_eval's output for the run (`layout.trec_lines`)."""
    return "".join(
        trec_lines(evaluation, selection, request.per_topic, request.summary,
                   request.zscores is not None)
    )  # fmt: skip


def _run(argv: Sequence[str], output: Output) -> None:
    request = parse_arguments(argv)
    try:
        selection, options = checked_request(request)
        if evaluate_compiled(request, selection, options, output):
            return
        evaluation, selection = evaluate(request)
    except StopAfter as stop:
        if request.per_topic:
            from focal.evaluation.cli.trec_eval.control import rows_before

            before = rows_before(stop.evaluation, stop.topic)
            output.write(trec_lines(before, stop.selection, True, False))
        raise
    output.write(trec_lines(evaluation, selection, request.per_topic, request.summary,
                            request.zscores is not None))  # fmt: skip


def main(argv: Sequence[str], stdout: TextIO, stderr: TextIO) -> int:
    """The whole command; returns the exit code."""
    output = Output(stdout)
    try:
        _run(argv, output)
    except Stop as stop:
        output.flush()
        text = str(stop)
        stream = stdout if stop.code == 0 and not text.startswith("trec_eval version") else stderr
        if text:
            stream.write(text if text.endswith("\n") else text + "\n")
        return stop.code
    except (FormatError, ValueError) as error:
        output.flush()
        stderr.write(f"trec_eval: {error}\n")
        return _code(error)
    output.flush()
    return 0


def run_process(argv: Sequence[str]) -> NoReturn:
    """`focal trec_eval` as a process of its own (the console script, `launch`): `main`, its
    output flushed, then the process ends at once (`os._exit`), as a C program ends. Python's
    teardown of every module it loaded is skipped: 15 ms of a call with numpy loaded, 5 ms
    without, for nothing, as the command leaves no file but stdout open and its temporary files
    have no name. A write that fails (a full disk) is said in one line, exit 2; a closed pipe
    ends the process quietly where SIGPIPE does not end it first (as it ends C's)."""
    try:
        code = main(argv, sys.stdout, sys.stderr)
        sys.stdout.flush()
    except BrokenPipeError:
        code = 0
    except OSError as error:
        sys.stderr.write(f"trec_eval: cannot write the results: {error.strerror or error}\n")
        code = 2
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)


def _code(error: FormatError | ValueError) -> int:
    """Exit 4 for the article engine's stops at a duplicate document and at inconsistent
    preferences, 2 for any other bad input (`formats.trec` is imported only then: the compiled
    path never loads it)."""
    from focal.evaluation.measures.trec_eval.families.preferences import PreferenceError

    if isinstance(error, PreferenceError):
        return 4
    if isinstance(error, FormatError):
        from focal.evaluation.formats.trec import DuplicateDocument

        return 4 if isinstance(error, DuplicateDocument) else 2
    return 2
