"""INEX runs: FOL (8 fields), element (7 fields), article/TREC (6 fields) and XML submissions.

    topic Q0 article rank score run-id offset length      FOL
    topic Q0 article rank score run-id /article[1]/sec[2] element
    topic Q0 article rank score run-id                    article

The shape is taken from the first non-blank line (or the first non-space character `<`, which
means an INEX XML submission); every line must have that shape and the same run id. Results keep
their `rank` as written, but the rank that counts is the order of lines within a topic, as in
the official INEX program. Topics whose lines are not contiguous are grouped (first-seen order)
and reported in `Run.warnings`.

Parsing is columnar: a line is split once, the columns are converted with `map` at C speed, and
only when a conversion fails do we walk the lines again to name the first bad one (`run_fields`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import fields
from itertools import repeat
from pathlib import Path
from typing import TextIO

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import check_run
from focal.evaluation.formats.fol.run_fields import (
    ColumnReader,
    element_paths,
    offsets,
    single_run_id,
)
from focal.evaluation.formats.records import Result, Run, RunKind, group_results
from focal.evaluation.formats.source import collector_paused, read_bytes

FIELDS_OF_KIND: dict[RunKind, int] = {"fol": 8, "element": 7, "article": 6}
KIND_OF_FIELDS: dict[int, RunKind] = {count: kind for kind, count in FIELDS_OF_KIND.items()}
SHAPES: dict[RunKind, str] = {
    "fol": "`topic Q0 article rank score run-id offset length`",
    "element": "`topic Q0 article rank score run-id path`",
    "article": "`topic Q0 article rank score run-id`",
}
A_RUN: dict[RunKind, str] = {
    "fol": "a FOL run",
    "element": "an element run",
    "article": "an article run",
}


def read_run(path: str | Path, kind: RunKind | None = None) -> Run:
    """Parse a run file; `kind` (if given) is the shape the caller insists on.

    Raises FormatError naming the file, the line and what was expected; ids, counts and scores
    are bounded as `focal.evaluation.formats.bounds` says.
    """
    return check_run(parse_run_data(read_bytes(path), str(path), kind))


def parse_run_data(data: bytes, name: str, kind: RunKind | None = None) -> Run:
    """Parse the bytes of a run file named `name`: an XML submission or a text run."""
    if data.lstrip()[:1] == b"<":
        from focal.evaluation.formats.inex.submission import parse_submission

        run = parse_submission(data, name)
        if kind is not None and run.kind != kind:
            raise FormatError(
                name, None, f"expected {A_RUN[kind]}, found a submission of {run.kind} results"
            )
        return run
    with collector_paused():
        return parse_run_bytes(data, name, kind)


def parse_run_bytes(data: bytes, name: str, kind: RunKind | None = None) -> Run:
    """Parse the bytes of a text run (see the module docstring)."""
    canonical = _canonical_columns(data)
    if canonical is not None:
        columns, count = canonical
        numbers = list(range(1, count + 1))
        detected = KIND_OF_FIELDS[len(columns)]
    else:
        columns, numbers, detected = _general_columns(data, name)
    if kind is not None and detected != kind:
        raise FormatError(
            name,
            numbers[0],
            f"expected {A_RUN[kind]} with {FIELDS_OF_KIND[kind]} fields {SHAPES[kind]}, "
            f"found {FIELDS_OF_KIND[detected]} fields",
        )
    column = ColumnReader(numbers, name)
    run_id = single_run_id(columns[5], numbers, name)
    topics = column.text(columns[0], "a UTF-8 topic id")
    articles = column.text(columns[2], "a UTF-8 article id")
    ranks = column.convert(columns[3], int, "an integer rank")
    scores = column.convert(columns[4], float, "a numeric score")
    count = len(numbers)
    starts: Sequence[int | None] = [None] * count
    lengths: Sequence[int | None] = [None] * count
    paths: Sequence[str | None] = [None] * count
    missing: Sequence[bool] = [False] * count
    if detected == "fol":
        starts, missing = offsets(columns[6], numbers, name)
        lengths = column.counts(columns[7], "a non-negative integer length")
    elif detected == "element":
        paths = element_paths(column, columns[6])
    results = build_results(
        topics, articles, ranks, scores, numbers, starts, lengths, paths, missing
    )
    run = Run(run_id=run_id, file=name, kind=detected)
    group_results(run, results)
    return run


def _canonical_columns(data: bytes) -> tuple[list[Sequence[bytes]], int] | None:
    """The columns of a run written canonically, or None to take the general path.

    Canonical: fields separated by single spaces, no blank lines, no spaces at either end of a
    line, `\\n` or `\\r\\n` line ends, the same number of fields (6, 7 or 8) on every line. Then one
    `split()` of the whole file, sliced by column, gives the columns without building a list
    per line.
    """
    body = data.replace(b"\r\n", b"\n") if b"\r" in data else data
    if not body.endswith(b"\n"):
        body += b"\n"
    if any(other in body for other in (b"\t", b"\r", b"\x0b", b"\x0c")):
        return None  # only spaces may separate fields (single-byte searches are fast)
    lines = body.split(b"\n")
    lines.pop()  # after the final newline
    spaces = set(map(bytes.count, lines, repeat(b" ")))
    if len(spaces) != 1:
        return None
    width = spaces.pop() + 1
    if width not in KIND_OF_FIELDS:
        return None
    tokens = body.split()
    # A line with `width - 1` spaces has at most `width` fields (fewer when spaces are doubled or
    # at an end); so the total is `width` per line exactly when every line has `width` fields.
    if len(tokens) != width * len(lines):
        return None
    return [tokens[index::width] for index in range(width)], len(lines)


def _general_columns(data: bytes, name: str) -> tuple[list[Sequence[bytes]], list[int], RunKind]:
    """Columns, line numbers and kind of any run: each line split on its own whitespace."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the newline that ends the last line does not start another
    rows = [line.split() for line in lines]
    numbers = [number for number, row in enumerate(rows, start=1) if row]
    if not numbers:
        raise FormatError(name, None, "expected at least one result line, found an empty file")
    if len(numbers) != len(rows):
        rows = [rows[number - 1] for number in numbers]
    detected = _detect_kind(rows, numbers, name)
    return list(zip(*rows, strict=True)), numbers, detected


def build_results(*columns: Sequence[object]) -> list[Result]:
    """Results from columns in field order (topic, article, rank, score, line, start, ...).

    Equivalent to `list(map(Result, *columns))` but twice as fast: a frozen dataclass sets
    each field through `object.__setattr__` in Python, whereas the slot descriptors below are
    called from C, one column at a time.
    """
    count = len(columns[0])
    if any(len(values) != count for values in columns):
        raise ValueError("every column needs one value per result")  # else slots stay unset
    results: list[Result] = list(map(object.__new__, repeat(Result, count)))
    for field_name, values in zip(_RESULT_FIELDS, columns, strict=True):
        deque(map(_RESULT_SLOTS[field_name].__set__, results, values), maxlen=0)
    return results


_RESULT_FIELDS = tuple(field.name for field in fields(Result))
_RESULT_SLOTS = {name: Result.__dict__[name] for name in _RESULT_FIELDS}


def _detect_kind(rows: list[list[bytes]], numbers: list[int], name: str) -> RunKind:
    width = len(rows[0])
    kind = KIND_OF_FIELDS.get(width)
    if kind is None:
        raise FormatError(
            name,
            numbers[0],
            f"expected 8 fields (FOL run), 7 (element run) or 6 (article run), found {width}",
        )
    widths = set(map(len, rows))
    if len(widths) > 1:
        index = next(i for i, row in enumerate(rows) if len(row) != width)
        raise FormatError(
            name,
            numbers[index],
            f"expected {width} fields {SHAPES[kind]} like line {numbers[0]} ({A_RUN[kind]}), "
            f"found {len(rows[index])}",
        )
    return kind


def write_run(run: Run, stream: TextIO) -> None:
    """Write `run` as text lines of its kind, topics in `run.topics` order, results in list order.

    Ranks are written as stored (line order is what counts when the file is read back); scores
    with `repr` so that they read back exactly. A missing FOL result is written as `-1`.
    """
    for topic, results in run.topics.items():
        for result in results:
            head = f"{topic} Q0 {result.article} {result.rank} {result.score!r} {run.run_id}"
            if run.kind == "fol":
                offset = "-1" if result.missing or result.start is None else str(result.start)
                length = 0 if result.length is None else result.length
                stream.write(f"{head} {offset} {length}\n")
            elif run.kind == "element":
                stream.write(f"{head} {result.path}\n")
            else:
                stream.write(head + "\n")
