"""TREC qrels and runs, as trec_eval reads them, for article evaluation.

    topic iter doc grade                     TREC qrels (4 fields; `#` starts a comment line)
    topic Q0 doc rank score run              TREC run (6 fields)

A qrels grade is an integer; a negative grade means "in the pool but not judged" (trec_eval's
convention, used by infAP), 0 and the grades below the relevance level (`-l`) are judged
non-relevant. A document may be judged once per topic. A run's `Q0` and `rank` columns are read
but never used: trec_eval ranks a topic's documents by score descending, then by document id
descending, whatever the rank column says (see docs/trec_eval.md). A document may appear once per
topic: trec_eval stops with "duplicate docs" otherwise, and so does Focal, naming both lines.

Both readers try a columnar fast path first: a file whose fields are separated by single spaces
(no tab, no comment) is parsed by pyarrow's CSV reader, which insists on the field count of
every line and on numeric grades and scores; anything it refuses, or a duplicate it finds, sends
the file through the line-by-line reader, which names the first bad line. Both paths return
the same columns: topic and document ids as Arrow binary arrays, grades or scores as numpy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.csv as pa_csv

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.arrow import binary_array, has_empty_binary, to_numpy
from focal.evaluation.formats.source import (
    collector_paused,
    columnar_source,
    read_bytes,
)

CSV_PARSE = pa_csv.ParseOptions(delimiter=" ", quote_char=False)  # one space between fields
SPECIAL = b"#\t\r"  # bytes that send a file to the line reader (comments, other whitespace)
RUN_SHAPE = "`topic Q0 doc rank score run` (a TREC run)"
QRELS_SHAPE = "`topic iter doc grade` (TREC qrels)"
RUN_COLUMNS = ("topic", "q0", "doc", "rank", "score", "run")
QRELS_COLUMNS = ("topic", "iter", "doc", "grade")
MAX_GRADE = 2**31 - 1  # the largest qrels grade taken (`checked_grade`)


class DuplicateDocument(FormatError):
    """A document twice in one topic of a run or of qrels (trec_eval stops with exit code 4)."""


@dataclass(frozen=True)
class TrecRun:
    """A run as trec_eval sees it: one row per line (file order); rank and Q0 are dropped."""

    run_id: str
    file: str
    topic: Any  # binary or large binary: an Arrow array, or chunked as the reader read it
    doc: Any
    score: npt.NDArray[np.float64]
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TrecQrels:
    """Judgements, one row per line: topic, document, integer grade (negative: not judged)."""

    file: str
    topic: Any  # binary or large binary Arrow array, or chunked
    doc: Any
    grade: npt.NDArray[np.int64]


RunLines = Callable[[bytes, str], TrecRun]  # a line reader of runs: (bytes, file name) -> run
QrelsLines = Callable[[bytes, str], TrecQrels]


def distinct_pairs(topic: pa.Array, doc: pa.Array) -> bool:
    """Whether no (topic, document) pair occurs twice: the rows sorted by topic and document,
    then neighbours compared (a sort of two columns costs less than hashing joined keys)."""
    import pyarrow.compute as pc  # (imported when first used: 30 ms)

    count = len(topic)
    if count < 2:
        return True
    table = pa.Table.from_arrays([topic, doc], names=["topic", "doc"])
    order = pc.sort_indices(table, sort_keys=[("topic", "ascending"), ("doc", "ascending")])
    topic, doc = topic.take(order), doc.take(order)
    same_topic = pc.equal(topic.slice(1), topic.slice(0, count - 1))
    same = pc.and_(same_topic, pc.equal(doc.slice(1), doc.slice(0, count - 1)))
    return not pc.any(same).as_py()


def read_trec_qrels(
    path: str | Path, check_duplicates: bool = True, lines: QrelsLines | None = None
) -> TrecQrels:
    """Parse TREC qrels. Raises FormatError (file:line) for a line that is not four fields, a
    grade that is not an integer, or a document judged twice in a topic. `check_duplicates=
    False` leaves a columnar read's duplicate check to its caller (the article engine's look-up
    table finds them as it is built, then `qrels_duplicate_error`). `lines` reads the file in
    place of both the columnar path (which skips blank lines) and the line reader (`focal
    trec_eval`'s C readings, which call a blank line malformed)."""
    name = str(path)
    data: bytes | None = None
    if lines is None:
        source = columnar_source(path, SPECIAL)
    else:  # (trec_eval's reading: the columns only when they read as its lines would)
        source = data = read_bytes(path)
        if not reads_as_lines(data):
            source = None
    table = None if source is None else arrow_table(source, QRELS_COLUMNS, {"grade": pa.int64()})
    if table is not None and _largest(table["grade"]) <= MAX_GRADE:  # else named by the lines
        topic, doc, grade = table["topic"], table["doc"], table["grade"].combine_chunks()
        if not check_duplicates:  # columns as read, in chunks (the article engine's table)
            return TrecQrels(name, topic, doc, to_numpy(grade))
        topic, doc = topic.combine_chunks(), doc.combine_chunks()
        if distinct_pairs(topic, doc):
            return TrecQrels(name, topic, doc, to_numpy(grade))
    return (lines or _read_qrels_lines)(read_bytes(path) if data is None else data, name)


def _largest(grades: pa.ChunkedArray) -> int:
    """The largest of a column of grades (0 when there is none)."""
    import pyarrow.compute as pc  # (imported when first used: 30 ms)

    largest = pc.max(grades).as_py()
    return 0 if largest is None else int(largest)


def reads_as_lines(data: bytes) -> bool:
    """Whether pyarrow's columns of `data` are what a line reader splitting on white space
    finds, blank lines refused (trec_eval's qrels readers, `cli.trec_eval.files`): no blank
    line (pyarrow skips them) and no white space but spaces and line ends (a tab, vertical
    tab, form feed or carriage return splits a line's fields there, not in pyarrow), no `#`.
    Two spaces in a row are found in the columns (`has_empty_field`)."""
    return (
        bool(data)
        and not data.startswith(b"\n")
        and b"\n\n" not in data
        and all(byte not in data for byte in (b"#", b"\t", b"\r", b"\x0b", b"\x0c"))
    )


def qrels_duplicate_error(file: str) -> DuplicateDocument:
    """The error for qrels found to judge a document twice in a topic after a columnar read: the
    line reader re-reads the file to name both lines."""
    try:
        _read_qrels_lines(read_bytes(file), file)
    except DuplicateDocument as error:
        return error
    except FormatError:
        pass
    return DuplicateDocument(file, None, "a document is judged twice in a topic; trec_eval "
                             "refuses duplicates")  # fmt: skip


def _read_qrels_lines(data: bytes, name: str) -> TrecQrels:
    topics: list[bytes] = []
    docs: list[bytes] = []
    grades_read: list[int] = []
    seen_at: dict[tuple[bytes, bytes], int] = {}
    with collector_paused():
        for number, line in enumerate(data.split(b"\n"), 1):
            words = line.split()
            if not words or words[0].startswith(b"#"):
                continue
            if len(words) != 4:
                message = f"expected 4 fields {QRELS_SHAPE}, found {len(words)}"
                raise FormatError(name, number, message)
            grade = grade_of(words[3], name, number)
            pair = (words[0], words[2])
            if pair in seen_at:
                raise DuplicateDocument(
                    name, number, f"document {shown(words[2])} of topic {shown(words[0])} is "
                    f"judged twice (also line {seen_at[pair]}); trec_eval refuses duplicates",
                )  # fmt: skip
            seen_at[pair] = number
            topics.append(words[0])
            docs.append(words[2])
            grades_read.append(grade)
    return TrecQrels(
        name, binary_array(topics), binary_array(docs),
        np.array(grades_read, dtype=np.int64),
    )  # fmt: skip


def read_trec_run(path: str | Path, check_duplicates: bool = True) -> TrecRun:
    """Parse a TREC run. Raises FormatError (file:line) for a line of fewer than six fields, a
    score that is not a number, or a document twice in one topic (trec_eval refuses it)."""
    name, source = str(path), columnar_source(path, SPECIAL)
    if source is not None:
        table = arrow_table(source, RUN_COLUMNS, {"score": pa.float64()})
        run = _run_of_table(table, name, check_duplicates)
        if run is not None:
            return run
    return _read_lines(read_bytes(path), name)


def parse_trec_run(
    data: bytes, name: str, check_duplicates: bool = True, lines: RunLines | None = None
) -> TrecRun:
    """A TREC run from its bytes, as trec_eval 10.0 reads it: fields after the sixth ignored,
    blank lines and lines starting with `#` skipped, the run id of the last line kept.
    `check_duplicates=False` leaves a columnar read's duplicate check to its caller (the article
    engine finds duplicates as it looks up its grades, then `duplicate_error`). `lines` reads
    what the columnar path declines in place of the line reader."""
    if data and not any(byte in data for byte in (b"#", b"\t", b"\r")):
        table = arrow_table(data, RUN_COLUMNS, {"score": pa.float64()})
        run = _run_of_table(table, name, check_duplicates)
        if run is not None:
            return run
    return (lines or _read_lines)(data, name)


def _run_of_table(table: pa.Table | None, name: str, check_duplicates: bool) -> TrecRun | None:
    if table is None or not table.num_rows:
        return None
    topic, doc = table["topic"], table["doc"]
    if check_duplicates and not distinct_pairs(topic.combine_chunks(), doc.combine_chunks()):
        return None  # the line reader names both lines
    last = table.num_rows
    run_id = text_field(table["run"][last - 1].as_py(), name, last, "run id")
    return TrecRun(run_id, name, topic, doc, to_numpy(table["score"].combine_chunks()))


def duplicate_error(file: str) -> DuplicateDocument:
    """The error for a run found to hold a document twice in a topic after a columnar read: the
    line reader re-reads the file to name both lines (a generic message if it cannot)."""
    try:
        _read_lines(read_bytes(file), file)
    except DuplicateDocument as error:
        return error
    except FormatError:
        pass
    message = "a document appears twice in a topic; trec_eval refuses duplicate documents"
    return DuplicateDocument(file, None, message)


def run_from_pairs(
    run_id: str, file: str, topics: dict[str, dict[bytes, float]], warnings: list[str]
) -> TrecRun:
    """A TrecRun from per-topic best scores (a passage or element run reduced to articles)."""
    topic = [t.encode() for t, scored in topics.items() for _ in scored]
    docs = [d for scored in topics.values() for d in scored]
    scores = [s for scored in topics.values() for s in scored.values()]
    return TrecRun(
        run_id, file, binary_array(topic), binary_array(docs),
        np.array(scores, dtype=np.float64), warnings,
    )  # fmt: skip


def arrow_table(
    source: bytes | str, columns: tuple[str, ...], types: dict[str, pa.DataType]
) -> pa.Table | None:
    """The file (its path, or its bytes) as columns when every line is the expected fields
    separated by single spaces; None when pyarrow refuses it (the line reader decides). The
    caller has made sure that there is no `#`, tab or carriage return (`SPECIAL`). Two spaces
    in a row, or a space at either end of a line, make an empty field, which pyarrow reads as
    an empty string or a missing number: any of these sends the file to the line reader
    (looking for them in the columns costs less than searching the bytes for them)."""
    # Always on the calling thread: Arrow's CPU pool, once started, can still hold a joinable
    # thread when the interpreter tears Arrow down at exit, which aborts the process
    # ("terminate called without an active exception", about one call in seventy without the C
    # part); the runs being read at once each take a core anyway.
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(source) if isinstance(source, bytes) else source,
            read_options=pa_csv.ReadOptions(column_names=list(columns), use_threads=False),
            parse_options=CSV_PARSE,
            convert_options=converting(columns, types),
        )
    except pa.ArrowException:
        return None
    return None if has_empty_field(table.columns) else table


def converting(columns: tuple[str, ...], types: dict[str, pa.DataType]) -> Any:
    """pyarrow's conversion of a TREC file's columns: `types` where given, bytes elsewhere."""
    return pa_csv.ConvertOptions(column_types={c: types.get(c, pa.binary()) for c in columns})


def has_empty_field(columns: list[Any]) -> bool:
    """Whether a column read by pyarrow's CSV reader holds an empty field: a missing number or
    an empty string, the sign of two spaces in a row or a space at an end of a line."""
    return any(
        column.null_count or (pa.types.is_binary(column.type) and has_empty_binary(column))
        for column in columns
    )


def _read_lines(data: bytes, name: str) -> TrecRun:
    topics: list[bytes] = []
    docs: list[bytes] = []
    scores: list[float] = []
    run_id = ""
    first: dict[tuple[bytes, bytes], int] = {}
    with collector_paused():
        for number, line in enumerate(data.split(b"\n"), 1):
            words = line.split()
            if not words or words[0].startswith(b"#"):
                continue
            if len(words) < 6:
                message = f"expected 6 fields {RUN_SHAPE}, found {len(words)}"
                raise FormatError(name, number, message)
            try:
                scores.append(float(words[4]))
            except ValueError:
                message = f"expected a numeric score, found {shown(words[4])}"
                raise FormatError(name, number, message) from None
            pair = (words[0], words[2])
            if pair in first:
                raise DuplicateDocument(
                    name, number, f"document {shown(words[2])} appears twice in topic "
                    f"{shown(words[0])} (also line {first[pair]}); trec_eval refuses duplicate "
                    "documents in a topic",
                )  # fmt: skip
            first[pair] = number
            run_id = text_field(words[5], name, number, "run id")  # the last line's, as trec_eval
            topics.append(words[0])
            docs.append(words[2])
    return TrecRun(
        run_id or Path(name).stem, name, binary_array(topics),
        binary_array(docs), np.array(scores, dtype=np.float64),
    )  # fmt: skip


def text_field(token: bytes, name: str, line: int, what: str) -> str:
    """A field as UTF-8 text, or a FormatError naming the file and line."""
    try:
        return token.decode()
    except UnicodeDecodeError:
        raise FormatError(name, line, f"expected a UTF-8 {what}, found {token!r}") from None


def grade_of(field: bytes, name: str, number: int) -> int:
    """A qrels grade (plain qrels and qrels_jg alike): an integer within 64 bits, as the
    engine's grade table holds it, and at most `MAX_GRADE`; else a FormatError naming the file
    and line."""
    try:
        grade = int(field)
    except ValueError:
        message = f"expected an integer grade, found {shown(field)}"
        raise FormatError(name, number, message) from None
    if not -(2**63) <= grade < 2**63:
        message = f"expected a grade within 64 bits, found {shown(field)}"
        raise FormatError(name, number, message)
    return checked_grade(grade, field, name, number)


def checked_grade(grade: int, field: bytes, name: str, number: int) -> int:
    """`grade` (read from `field` at line `number` of file `name`) when it is at most
    `MAX_GRADE`, else a FormatError naming the file and line. The qrels are counted per grade
    from 0 to the largest (`GradeTable.levels`, as 10.0's `form_res_rels.c` counts them), so a
    larger grade costs memory in proportion to it: 10.0 needs 16 GiB from 2^31 on, fails from
    2^32, overflows its array's size from 2^61 and its `long` at 2^63 - 1, the grade `atol`
    makes of every larger number (docs/trec_eval.md, "Where 10.0's behaviour is not
    defined")."""
    if grade > MAX_GRADE:
        message = f"expected a grade of at most {MAX_GRADE}, found {shown(field)}"
        raise FormatError(name, number, message)
    return grade


def shown(token: bytes) -> str:
    """A field as an error message quotes it: its text in quotes, bytes that are not UTF-8
    replaced."""
    return repr(token.decode(errors="replace"))
