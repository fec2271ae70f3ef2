"""A canonical FOL run read by pyarrow's CSV reader: the columns pooling needs, no record per line.

    topic Q0 article rank score run-id offset length

`read_fol_table(data)` takes the fast path only when the answer cannot differ from the careful
reader's (`focal.evaluation.formats.fol.runs.read_run` followed by the bounds of
`focal.evaluation.formats.bounds`): it returns None for anything else, and the caller then reads the
file carefully, which accepts it or names the file and line of the first problem. pyarrow's
reader takes one delimiter byte, so the fast path is for files written as `write_run` and the
INEX tools write them:

- ASCII only (so ids are UTF-8 and hold no Unicode space), fields separated by single spaces, no
  space at either end of a line, no blank line, `\\n` or `\\r\\n` line ends, no tab, vertical tab,
  form feed or lone `\\r` (those separate fields for `bytes.split`); pyarrow itself insists on
  eight fields on every line;
- no control character in an id, ids within their lengths, one run id, each topic in one
  contiguous block (a repeated block is grouped and warned about by `read_run`, refused by
  pooling);
- ranks, offsets and lengths read by pyarrow as unsigned integers (digits only: a sign, a blank
  or `_` is refused; `0x1f`, which pyarrow reads and `int` refuses, is told by the `x`), within
  32 bits; scores read by pyarrow as doubles (the correctly rounded value, as `float`), finite
  (the careful reader refuses `nan` and keeps infinities: both go the careful way).

Article ids that are all plain numbers (no leading zero), as in the INEX Wikipedia collections,
are kept as one integer per result; other ids as codes into the run's distinct ids. Either way
there is no Python object per result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.csv as pa_csv

from focal.evaluation.formats.arrow_columns import (
    call_function,
    cast_exact,
    data_of,
    dictionary_codes,
    numbers_of,
    single_chunk,
    value_offsets,
)
from focal.evaluation.formats.bounds import (
    ARTICLE_ID_LENGTH,
    MAX_COUNT,
    RUN_ID_LENGTH,
    TOPIC_ID_LENGTH,
)
from focal.evaluation.formats.fol.tokens import MAX_DIGITS

Ints = npt.NDArray[np.int64]

FOL_COLUMNS = ("topic", "q0", "article", "rank", "score", "run", "offset", "length")
ELEMENT_COLUMNS = ("topic", "q0", "article", "rank", "score", "run", "path")
_TEXT = ("topic", "q0", "article", "run")  # read as bytes; the others as numbers
_TYPES = {
    **dict.fromkeys((*_TEXT, "path"), pa.binary()),
    **dict.fromkeys(("rank", "offset", "length"), pa.uint64()),
    "score": pa.float64(),
}


_DIGITS = b"0123456789"
_PRINTABLE = bytes(range(33, 127))  # ASCII without space and control characters
_ZERO = ord("0")


@dataclass(frozen=True)
class Passages:
    """Each result's score, offset and length, in file order (as `float` and `int` read them)."""

    scores: npt.NDArray[np.float64]
    starts: Ints
    lengths: Ints


@dataclass(frozen=True)
class FolTable:
    """A FOL run's article per result, in file order, and its topic blocks.

    Result i (line i + 1) is article `names[articles[i]]`, or `str(articles[i])` when `names`
    is None (every id a plain number). Topic `topics[b]` holds results `firsts[b]` up to
    `firsts[b + 1]` (or the end).
    """

    run_id: str
    topics: list[str]
    firsts: Ints
    articles: npt.NDArray[np.int64] | npt.NDArray[np.int32]
    names: list[str] | None
    passages: Passages | None = None  # with `read_fol_table(..., passages=True)`

    def __len__(self) -> int:
        return len(self.articles)


@dataclass(frozen=True)
class ParsedFol:
    """A FOL run as pyarrow's CSV reader gives it, before the checks (`parse_fol`)."""

    table: pa.Table
    letters_x: int  # `x` and `X` in the file: an `0x` number shows as more than the ids hold


def read_fol_table(data: bytes, passages: bool = False) -> FolTable | None:
    """The table of a canonical FOL run's bytes (BOM already removed), or None (see above).

    With `passages`, the table also holds each result's score, offset and length (evaluation
    needs them; pooling does not).
    """
    parsed = parse_fol(data)
    return None if parsed is None else checked_fol(parsed, passages)


def parse_fol(data: bytes, columns: tuple[str, ...] = FOL_COLUMNS) -> ParsedFol | None:
    """pyarrow's reading of `data` (None: not for the fast path), by default as a FOL run
    (`ELEMENT_COLUMNS` reads an element run the same way). It spends nearly all its time
    in pyarrow without the GIL, so runs can be parsed on a thread while Python does other work.

    Ranks, offsets and lengths are read as unsigned integers and scores as doubles by the reader
    itself (no text column, no second pass to convert them). pyarrow refuses signs, blanks and
    `_` in them as the careful reader's bounds would, but also reads `0x1f` as 31: `letters_x`
    lets `checked_fol` see whether any `x` lies outside the id columns.
    """
    if b"\r" in data:  # pyarrow would end a line at a lone `\r`
        data = data.replace(b"\r\n", b"\n")
        if b"\r" in data:
            return None
    if not data or data[:1] in (b" ", b"\n", b"<"):
        return None
    # No scan of the whole file for non-ASCII bytes or tabs: every id is checked against its
    # characters (printable ASCII) and every number is converted, which excludes both.
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(data),
            # One block, one thread: files are read side by side (`focal.pooling.ranked`,
            # `focal eval`), and pyarrow's own pool on top of that costs CPU time without saving
            # any wall time.
            read_options=pa_csv.ReadOptions(
                column_names=list(columns), block_size=1 << 26, use_threads=False
            ),
            parse_options=pa_csv.ParseOptions(
                delimiter=" ", quote_char=False, ignore_empty_lines=False
            ),
            convert_options=pa_csv.ConvertOptions(
                column_types={name: _TYPES[name] for name in columns},
                strings_can_be_null=False,
                null_values=[],
            ),
        )
    except (pa.ArrowException, ValueError):
        return None
    letters = data.count(b"x") + data.count(b"X") if b"x" in data or b"X" in data else 0
    return ParsedFol(table, letters)


def checked_fol(parsed: ParsedFol, passages: bool = False) -> FolTable | None:
    """The table of `parse_fol`'s reading once every check passes, or None (see above)."""
    try:
        return _checked(parsed, passages)
    except (pa.ArrowException, UnicodeDecodeError, ValueError):
        return None


@dataclass(frozen=True)
class CheckedRun:
    """What every run read by pyarrow shares once `checked_run` passes: the run id, the topic
    blocks, the id columns, the number columns and the scores."""

    run_id: str
    topics: list[str]
    firsts: Ints
    columns: dict[str, pa.Array]
    counts: dict[str, npt.NDArray[np.uint64]]
    scores: npt.NDArray[np.float64]
    widths: dict[str, int]  # the longest value of each id column
    texts: dict[str, bytes]  # the values of each id column but the run's, concatenated


def _checked(parsed: ParsedFol, passages: bool) -> FolTable | None:
    checked = checked_run(parsed, ("offset", "length"))
    if checked is None:
        return None
    extra = None
    if passages:
        starts, sizes = (checked.counts[name].view(np.int64) for name in ("offset", "length"))
        extra = Passages(checked.scores, starts, sizes)
    column = checked.columns["article"]
    numbers = _plain_numbers(column, checked.texts["article"], checked.widths["article"])
    if numbers is not None:
        return FolTable(checked.run_id, checked.topics, checked.firsts, numbers, None, extra)
    names, codes = dictionary_codes(column)
    return FolTable(checked.run_id, checked.topics, checked.firsts, codes, names, extra)


def checked_run(
    parsed: ParsedFol, counted: tuple[str, ...] = (), texts: tuple[str, ...] = ()
) -> CheckedRun | None:
    """The checks of the module docstring shared by every kind of run: ids, run id, ranks and
    the `counted` columns, scores, topic blocks; `texts` are further id-like columns (printable
    ASCII, not empty). None when any check fails."""
    table = parsed.table
    if not table.num_rows:
        return None
    columns = {name: single_chunk(table[name]) for name in (*_TEXT, *texts)}
    widths, shortest = {}, {}
    for name, column in columns.items():
        # With a fixed number of fields on every line, a doubled, leading or trailing space
        # or a blank line shows as an empty field (`bytes.split` would see another field
        # count); the number columns refuse an empty field themselves.
        lengths = call_function("binary_length", [column])
        least, widest = call_function("min_max", [lengths]).values()
        shortest[name], widths[name] = least.as_py(), widest.as_py()
        if shortest[name] == 0:
            return None
    limits = {"topic": TOPIC_ID_LENGTH, "article": ARTICLE_ID_LENGTH, "run": RUN_ID_LENGTH}
    for name, limit in limits.items():
        if widths[name] > limit:
            return None
    text = {name: data_of(columns[name]) for name in ("topic", "q0", "article", *texts)}
    if any(value.translate(None, _PRINTABLE) for value in text.values()):
        return None
    run = columns["run"]
    first_run = run[0].as_py()
    if shortest["run"] != widths["run"] or data_of(run) != first_run * len(run):
        return None  # ids of one length, concatenated as the first repeated: all the same
    if first_run.translate(None, _PRINTABLE):
        return None
    if parsed.letters_x:
        ids = [*text.values(), first_run * len(run)]
        if sum(value.count(b"x") + value.count(b"X") for value in ids) != parsed.letters_x:
            return None  # an `x` in a number column: `0x1f`, which `int` refuses
    counts = {name: numbers_of(table[name], np.uint64) for name in ("rank", *counted)}
    if any(len(values) and int(values.max()) > MAX_COUNT for values in counts.values()):
        return None  # out of the bounds of `limits`: the careful reader names the line
    scores = numbers_of(table["score"], np.float64)
    if not np.isfinite(scores).all():
        return None  # `nan` is refused and infinities kept by the careful reader
    blocks = _blocks(columns["topic"])
    if blocks is None:
        return None
    return CheckedRun(first_run.decode(), *blocks, columns, counts, scores, widths, text)


def _plain_numbers(
    column: pa.Array, text: bytes, widest: int
) -> npt.NDArray[np.int64] | npt.NDArray[np.int32] | None:
    """Article ids as integers when each is a plain number (digits, no leading zero); `text` is
    the column's values concatenated."""
    if widest > MAX_DIGITS or text.translate(None, _DIGITS):
        return None
    offsets = value_offsets(column)
    data = np.frombuffer(column.buffers()[2], np.uint8)
    leading = data[offsets[:-1]] == _ZERO
    if (leading & (offsets[1:] - offsets[:-1] > 1)).any():
        return None  # `007` is not the id `7`
    try:  # MAX_COUNT is the largest int32: the cast fails exactly when an id exceeds it
        small = cast_exact(column, pa.int32())
    except pa.ArrowInvalid:
        return np.frombuffer(cast_exact(column, pa.int64()).buffers()[1], np.int64)[: len(column)]
    ids: npt.NDArray[np.int32] = np.frombuffer(small.buffers()[1], np.int32)[: len(column)]
    return ids


def _blocks(topic: pa.Array) -> tuple[list[str], Ints] | None:
    """The topic of each block of lines and its first line; None if a topic comes back."""
    changes = call_function("not_equal", [topic[1:], topic[:-1]])
    flags = np.frombuffer(cast_exact(changes, pa.int8()).buffers()[1], np.int8)[: len(changes)]
    firsts = np.r_[0, np.flatnonzero(flags) + 1].astype(np.int64)
    topics = [topic[int(first)].as_py().decode() for first in firsts]
    if len(set(topics)) != len(topics):
        return None  # `read_run` groups them and warns; pooling refuses them
    return topics, firsts
