"""A canonical FOL run read by pyarrow's CSV reader: the columns pooling needs, no record per line.

    topic Q0 article rank score run-id offset length

`read_fol_table(data)` takes the fast path only when the answer cannot differ from the careful
reader's (`evaluation.formats.runs.read_run` followed by the bounds of
`evaluation.formats.limits`): it returns None for anything else, and the caller then reads the
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
- ranks, offsets and lengths plain digits of at most 18 (`int` reads them; pyarrow alone would
  also read `0x5`), within 32 bits; scores made of `0-9 . - + e E` that pyarrow converts (the
  correctly rounded value, as `float`; `nan` and `inf` go the careful way).

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

# pyarrow's compute kernels through `call_function`, which `pyarrow.compute` re-exports: that
# module also builds a Python wrapper for each of the hundreds of kernels as it is imported
# (about 16 ms, a twentieth of `focal eval`'s serial part), and this reader needs five kernels.
# `pyarrow._compute` is where `pyarrow.compute` takes them from; should a release move them, the
# public module (slower to import, same functions) is used instead.
try:
    from pyarrow._compute import CastOptions, call_function
except ImportError:  # pragma: no cover - depends on the installed pyarrow
    from pyarrow.compute import CastOptions, call_function

from evaluation.formats.limits import ARTICLE_ID_LENGTH, MAX_COUNT, RUN_ID_LENGTH, TOPIC_ID_LENGTH
from evaluation.formats.tokens import MAX_DIGITS

Ints = npt.NDArray[np.int64]

FOL_COLUMNS = ("topic", "q0", "article", "rank", "score", "run", "offset", "length")


_DIGITS = b"0123456789"
_NUMBER = _DIGITS + b".-+eE"
_PRINTABLE = bytes(range(33, 127))  # ASCII without space and control characters
_SHORT_COUNT = 9  # digits: any such count is below 2**31
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


def read_fol_table(data: bytes, passages: bool = False) -> FolTable | None:
    """The table of a canonical FOL run's bytes (BOM already removed), or None (see above).

    With `passages`, the table also holds each result's score, offset and length (evaluation
    needs them; pooling does not).
    """
    if b"\r" in data:  # pyarrow would end a line at a lone `\r`
        data = data.replace(b"\r\n", b"\n")
        if b"\r" in data:
            return None
    if not data or data[:1] in (b" ", b"\n", b"<"):
        return None
    # No scan of the whole file for non-ASCII bytes or tabs: every field is checked against its
    # characters (printable ASCII, digits or number characters), which excludes both.
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(data),
            # One block, one thread: files are read side by side (`pooling.ranked`), and
            # pyarrow's own pool on top of that costs CPU time without saving any wall time.
            read_options=pa_csv.ReadOptions(
                column_names=list(FOL_COLUMNS), block_size=1 << 26, use_threads=False
            ),
            parse_options=pa_csv.ParseOptions(
                delimiter=" ", quote_char=False, ignore_empty_lines=False
            ),
            convert_options=pa_csv.ConvertOptions(
                column_types=dict.fromkeys(FOL_COLUMNS, pa.binary()),
                strings_can_be_null=False,
                null_values=[],
            ),
        )
        return _checked(table, passages)
    except (pa.ArrowException, UnicodeDecodeError, ValueError):
        return None


def _checked(table: pa.Table, passages: bool) -> FolTable | None:
    columns = {name: _single_chunk(table[name]) for name in FOL_COLUMNS}
    if not len(columns["topic"]):
        return None
    widths, shortest = {}, {}
    for name in FOL_COLUMNS:
        # With eight fields on every line, a doubled, leading or trailing space or a blank
        # line shows as an empty field (`bytes.split` would see another field count).
        lengths = call_function("binary_length", [columns[name]])
        least, widest = call_function("min_max", [lengths]).values()
        shortest[name], widths[name] = least.as_py(), widest.as_py()
        if shortest[name] == 0:
            return None
    limits = {"topic": TOPIC_ID_LENGTH, "article": ARTICLE_ID_LENGTH, "run": RUN_ID_LENGTH}
    for name, limit in limits.items():
        if widths[name] > limit:
            return None
    for name in ("topic", "q0", "article"):
        if not _all_in(columns[name], _PRINTABLE):
            return None
    run = columns["run"]
    first_run = run[0].as_py()
    if shortest["run"] != widths["run"] or _data(run) != first_run * len(run):
        return None  # ids of one length, concatenated as the first repeated: all the same
    if first_run.translate(None, _PRINTABLE):
        return None
    for name in ("rank", "offset", "length"):
        if widths[name] > MAX_DIGITS or not _all_in(columns[name], _DIGITS):
            return None
        if widths[name] > _SHORT_COUNT and int(_values(columns[name]).max()) > MAX_COUNT:
            return None  # a 9-digit count is below 2**31: no need to convert
    if not _all_in(columns["score"], _NUMBER):
        return None
    scores = _cast(columns["score"], pa.float64())  # raises (fast path refused) unless numbers
    blocks = _blocks(columns["topic"])
    if blocks is None:
        return None
    topics, firsts = blocks
    extra = None
    if passages:
        floats = np.frombuffer(scores.buffers()[1], np.float64)[: len(scores)]
        extra = Passages(floats, _values(columns["offset"]), _values(columns["length"]))
    numbers = _plain_numbers(columns["article"], widths["article"])
    if numbers is not None:
        return FolTable(first_run.decode(), topics, firsts, numbers, None, extra)
    encoded = call_function("dictionary_encode", [columns["article"]])
    names = _cast(encoded.dictionary, pa.large_string()).to_pylist()
    codes = np.frombuffer(encoded.indices.buffers()[1], np.int32)[: len(encoded)]
    return FolTable(first_run.decode(), topics, firsts, codes, names, extra)


def _cast(column: pa.Array, target: pa.DataType) -> pa.Array:
    """`pyarrow.compute.cast(column, target)`: raises unless every value converts exactly."""
    return call_function("cast", [column], CastOptions.safe(target))


def _single_chunk(column: pa.ChunkedArray) -> pa.Array:
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _offsets(column: pa.Array) -> npt.NDArray[np.int32]:
    """Where each value of a binary column begins in its data buffer, and where the last ends."""
    offsets: npt.NDArray[np.int32] = np.frombuffer(column.buffers()[1], np.int32)
    return offsets[column.offset : column.offset + len(column) + 1]


def _data(column: pa.Array) -> bytes:
    """The bytes of every value of a binary column, concatenated."""
    offsets = _offsets(column)
    begin, end = int(offsets[0]), int(offsets[-1])
    data: bytes = column.buffers()[2].slice(begin, end - begin).to_pybytes()
    return data


def _all_in(column: pa.Array, allowed: bytes) -> bool:
    return not _data(column).translate(None, allowed)


def _values(column: pa.Array) -> npt.NDArray[np.int64]:
    """An all-digit column of at most `MAX_DIGITS` digits as integers (exactly as `int`)."""
    return np.frombuffer(_cast(column, pa.int64()).buffers()[1], np.int64)[: len(column)]


def _plain_numbers(
    column: pa.Array, widest: int
) -> npt.NDArray[np.int64] | npt.NDArray[np.int32] | None:
    """Article ids as integers when each is a plain number (digits, no leading zero)."""
    if widest > MAX_DIGITS or not _all_in(column, _DIGITS):
        return None
    offsets = _offsets(column)
    data = np.frombuffer(column.buffers()[2], np.uint8)
    leading = data[offsets[:-1]] == _ZERO
    if (leading & (offsets[1:] - offsets[:-1] > 1)).any():
        return None  # `007` is not the id `7`
    try:  # MAX_COUNT is the largest int32: the cast fails exactly when an id exceeds it
        small = _cast(column, pa.int32())
    except pa.ArrowInvalid:
        return _values(column)
    ids: npt.NDArray[np.int32] = np.frombuffer(small.buffers()[1], np.int32)[: len(column)]
    return ids


def _blocks(topic: pa.Array) -> tuple[list[str], Ints] | None:
    """The topic of each block of lines and its first line; None if a topic comes back."""
    changes = call_function("not_equal", [topic[1:], topic[:-1]])
    flags = np.frombuffer(_cast(changes, pa.int8()).buffers()[1], np.int8)[: len(changes)]
    firsts = np.r_[0, np.flatnonzero(flags) + 1].astype(np.int64)
    topics = [topic[int(first)].as_py().decode() for first in firsts]
    if len(set(topics)) != len(topics):
        return None  # `read_run` groups them and warns; pooling refuses them
    return topics, firsts
