"""Plain TREC lines split and read with numpy, a buffer of lines at a time.

A line is plain as the C part's readers take it (kernel/_kernel_pass.h): its fields are
printable ASCII but `#`, one space apart, the last ending at a newline, none empty. The bytes a
field may not hold are found in a few array passes (`split`): the lines are plain when no two
are neighbours and they are, line after line, `fields - 1` spaces and a newline (counted, not
compared one by one). Their positions are the fields' bounds.

Ids are read as big-endian 64-bit words from any position (`words`, one gather from a view of
the bytes one byte apart: `raw_words`): word k holds bytes 8k..8k+7 of the id, zero past its
end, so that comparing rows word after word is comparing the ids' bytes (trec_eval's `strcmp`
order: no id holds a zero byte). A line's grade or score is read in `values`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # (the array types for the checker only: numpy.typing takes 0.7 ms to import)
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    Grades = npt.NDArray[np.integer[Any]]  # (int32 as read, narrower as kept)
    Bytes = npt.NDArray[np.uint8]
    Words = npt.NDArray[np.uint64]
    Floats = npt.NDArray[np.float64]
    Bools = npt.NDArray[np.bool_]
    Columns = list[Words]  # ids as words: one array a word (`words`)

PAD = 8  # zero bytes a buffer holds past its lines: a word read at any line start stays inside
# little-endian masks of the first k bytes of a word (k = 0..8)
MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
SPACE, NEWLINE = 32, 10


def split(data: Bytes, fields: int, strict: bool = True) -> Ints | None:
    """The bounds of the lines of `data` (complete lines, the last ending with a newline):
    row i holds where line i's spaces and newline are (`fields` of them); None when a line is
    not plain. `strict=False` (lines found plain once already) finds the spaces and newlines
    without checking the other bytes again. (A byte above 0x7E is looked for with a reduction,
    not a mask; no two neighbours special is one AND of the mask.)"""
    if len(data) == 0:
        return np.zeros((0, fields), dtype=np.int64)
    if strict and (int(data.max()) > 0x7E or np.any(data == ord("#"))):
        return None
    special = data <= SPACE  # spaces, newlines and the other control bytes
    flags = special.view(np.uint8)
    if special[0] or int((flags[1:] & flags[:-1]).max(initial=0)):  # an empty field
        return None
    at = np.flatnonzero(special)
    lines = len(at) // fields
    if len(at) % fields or not np.all(data[at[fields - 1 :: fields]] == NEWLINE):
        return None
    # every `fields`-th a newline, and as many spaces as the others: all of them spaces
    if np.count_nonzero(data == SPACE) != lines * (fields - 1):
        return None
    return at.reshape(-1, fields)


def field(bounds: Ints, k: int) -> tuple[Ints, Ints]:
    """Field k of every line: its starts and lengths."""
    starts = np.empty(len(bounds), dtype=np.int64)
    if k == 0:
        starts[:1] = 0
        np.add(bounds[:-1, -1], 1, out=starts[1:])
    else:
        np.add(bounds[:, k - 1], 1, out=starts)
    return starts, bounds[:, k] - starts


def raw_words(data: Bytes) -> Words:
    """The little-endian word starting at each byte position of `data` but its last seven
    (word p holds bytes p..p+7): a view of `data`, one byte apart, that `at` gathers from. (One
    gather from it takes 40% of the time of two gathers of aligned words and their shifts.)"""
    view: Words = np.ndarray((max(len(data) - 7, 0),), dtype="<u8", buffer=data, strides=(1,))
    return view


def at(raw: Words, positions: Ints) -> Words:
    """The little-endian word starting at each byte position (`raw_words`)."""
    word: Words = raw[positions]
    return word


def _last(raw: Words) -> int:
    """The last byte position `at` reads in `raw`."""
    return len(raw) - 1


def words(raw: Words, starts: Ints, lengths: Ints, count: int = 0,
          order: bool = True) -> Columns:  # fmt: skip
    """The ids at `starts` (`lengths` bytes) as big-endian words: a column a word of the
    longest (at least `count` columns, and one). `order=False`: little-endian words, which
    compare equal as the big-endian ones do but do not sort as the ids (`texts` reads them).
    Ids of several words are read with one gather of as many bytes from each start (`_records`:
    a gather of 16 bytes costs what one of 8 does), those too near the bytes' end word by word."""
    count = max(count, 1, -(-int(lengths.max(initial=0)) // 8))
    first, size = starts, lengths
    records = _records(raw, 8 * count) if count > 1 else None
    if records is None:
        columns = _columns(raw, first, size, count)
    else:
        limit = len(records) - 1
        late = np.flatnonzero(first > limit) if int(first.max(initial=0)) > limit else None
        whole = records[first if late is None else np.minimum(first, limit)].view("<u8")
        columns = [np.ascontiguousarray(whole.reshape(-1, count)[:, k]) for k in range(count)]
        shortest = int(size.min(initial=0))
        for k, column in enumerate(columns):
            if 8 * (k + 1) > shortest:  # (a word that every id fills is kept whole)
                _keep(column, size - 8 * k)
        if late is not None:  # (their words one by one, each inside the bytes)
            for column, fixed in zip(columns, _columns(raw, first[late], size[late], count),
                                     strict=True):  # fmt: skip
                column[late] = fixed
    return [column.byteswap(inplace=True) for column in columns] if order else columns


def _columns(raw: Words, starts: Ints, lengths: Ints, count: int) -> Columns:
    """`words`' little-endian columns, a gather a word."""
    columns: Columns = []
    shortest = int(lengths.min(initial=0))
    for k in range(count):
        # (a word past a shorter id's end: read anywhere inside, then zeroed by `_keep`)
        place = starts if k == 0 else np.minimum(starts + 8 * k, _last(raw))
        word = at(raw, place)
        if 8 * (k + 1) > shortest:
            _keep(word, lengths - 8 * k)
        columns.append(word)
    return columns


def _keep(words: Words, rest: Ints) -> None:
    """Each word's first `rest` bytes kept, the others zero (`rest` clipped to 0..8, in
    place): the word shifted left past them and back (numpy's shift by 64 gives 0), which
    takes 60% of the time of a mask looked up (`MASKS`) per word."""
    np.clip(rest, 0, 8, out=rest)
    shift = (np.uint64(8) - rest.astype(np.uint64)) * np.uint64(8)
    words <<= shift
    words >>= shift


def _records(raw: Words, width: int) -> npt.NDArray[np.void] | None:
    """The `width` bytes from each byte position of the bytes `raw` views, those that have as
    many: a view of the array holding them (None when no array holds them, or none has)."""
    owner = raw.base
    size = len(raw) + 8 - width
    if not isinstance(owner, np.ndarray) or not owner.flags.c_contiguous or size <= 0:
        return None
    offset = raw.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    records: npt.NDArray[np.void] = np.ndarray((size,), dtype=f"V{width}", buffer=owner,
                                               offset=offset, strides=(1,))  # fmt: skip
    return records


def texts(columns: Columns, rows: Ints) -> list[bytes]:
    """The ids of `rows` from their little-endian words (`words(order=False)`): no id holds a
    zero byte, so that the words' bytes, their zeros past the id dropped, are the id."""
    if len(columns) == 1:
        picked = columns[0][rows]
    else:
        picked = np.stack([column[rows] for column in columns], axis=1)
    chars = np.ascontiguousarray(picked, dtype="<u8").view(f"S{8 * len(columns)}")
    return list(chars.ravel().tolist())


def take(columns: Columns, rows: Ints) -> Columns:
    """The rows `rows` of each column."""
    return [column[rows] for column in columns]


def same_rows(a: Columns, b: Columns) -> npt.NDArray[np.bool_]:
    """Whether row i of `a` and of `b` hold the same words (as many columns each)."""
    same: npt.NDArray[np.bool_] = a[0] == b[0]
    for left, right in zip(a[1:], b[1:], strict=True):
        same &= left == right
    return same


def text(data: Bytes, start: int, length: int) -> bytes:
    """The bytes of a field."""
    return data[start : start + length].tobytes()
