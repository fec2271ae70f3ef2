"""Document ids read as 64-bit words from Arrow's own buffers: hashed, compared and ordered.

The numpy path of the article engine (docs/trec_eval.md, "Without the compiled module") reads a
binary or string Arrow array as its offsets and bytes (`column_buffers`), and the 8 bytes from
any position as one little-endian word, in place (`as_words`, `Tail` past the end). From there:

- `hashed`: each row's (salt, bytes) as one 64-bit number, a few array passes a word of the
  longest id (only the rows that long take part in each pass); a hash routes, never decides:
- `same_ids`: whether rows of two arrays hold the same bytes, word by word, so that every match
  a hash suggests is confirmed on the bytes, as the C tables confirm theirs.

`engine/keys.py` orders ids on the same words (`doc_words`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]
Flags = npt.NDArray[np.bool_]
MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
# odd 64-bit multipliers (the golden ratio's and splitmix64's): a multiply spreads each bit over
# the bits above it, a shift back down, so that ids differing anywhere differ in most bits
_GOLDEN, _MIX1 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9


def column_buffers(chunk: Any) -> tuple[npt.NDArray[Any], Any]:
    """A binary or string Arrow array's offsets (numpy, 32- or 64-bit, from its own offset) and
    its bytes, for `_article_kernel` and the numpy path."""
    if chunk.null_count:
        raise ValueError("document ids may not be null")
    wide = pa.types.is_large_binary(chunk.type) or pa.types.is_large_string(chunk.type)
    kind = np.dtype(np.int64 if wide else np.int32)
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], dtype=kind, count=len(chunk) + 1,
                            offset=chunk.offset * kind.itemsize)  # fmt: skip
    return offsets, buffers[2] if buffers[2] is not None else b""


def chunks_of(column: Any) -> list[Any]:
    """The chunks of an Arrow array or chunked array."""
    return list(column.chunks) if isinstance(column, pa.ChunkedArray) else [column]


def as_words(data: npt.NDArray[np.uint8]) -> Words:
    """Every byte position of `data` but the last seven as the start of an unaligned word (none
    for fewer than eight bytes)."""
    if len(data) < 8:
        return np.zeros(0, dtype=np.uint64)
    return np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))


class Tail:
    """A chunk's last few bytes, zero-padded, for the words that run past its end: the 8 bytes
    from a position are read in place from the chunk's own bytes when they are all inside it,
    else from this copy (a few rows cost a few reads, not a copy of the chunk)."""

    def __init__(self, data: npt.NDArray[np.uint8], width: int) -> None:
        self.count = len(data)
        self.low = max(0, self.count - 8 * width - 8)
        padded = np.zeros(self.count - self.low + 8 * width + 8, dtype=np.uint8)
        padded[: self.count - self.low] = data[self.low :]
        self.padded = padded

    def words_at(self, inside: Words, at: Ints) -> Words:
        """The little-endian word from each position `at` (at most 8 * width past the end),
        zero past the end; `inside`: `as_words` of the chunk."""
        words = as_words(self.padded)[np.maximum(at - self.low, 0)]  # right near the end
        within = at <= self.count - 8
        words[within] = inside[at[within]]
        return words


class Ids:
    """One binary or string Arrow array's ids as words: `starts` and `lengths` of each row's
    bytes (the offsets' own integers, 32 or 64 bits), and word k of rows (`word`), read from a
    zero-padded copy of the bytes."""

    def __init__(self, chunk: Any) -> None:
        offsets, data = column_buffers(chunk)  # (positions stay below the offsets' bound)
        self.starts: npt.NDArray[Any] = offsets[:-1]
        self.lengths: npt.NDArray[Any] = np.diff(offsets)
        raw = np.frombuffer(data, np.uint8)
        padded = np.zeros(len(raw) + 8, dtype=np.uint8)  # (a copy: one gather a word after)
        padded[: len(raw)] = raw
        self.words = as_words(padded)

    def word(self, rows: Ints | None, k: int) -> Words:
        """Word k (bytes 8k..8k+7, zero past the end of the id) of `rows` (None: every row),
        each of which is longer than 8k bytes."""
        if rows is None:
            return self.word_at(self.starts, self.lengths, k)
        return self.word_at(self.starts[rows], self.lengths[rows], k)

    def word_at(self, starts: npt.NDArray[Any], lengths: npt.NDArray[Any], k: int) -> Words:
        """Word k of the ids at `starts` with `lengths` (each longer than 8k bytes)."""
        words: Words = self.words[starts + 8 * k if k else starts]
        if len(lengths) and int(lengths.min()) < 8 * k + 8:  # (else every word is whole)
            words &= MASKS[np.minimum(lengths - 8 * k, 8)]
        return words


def _longer(ids: Ids, rows: Ints | None, k: int) -> Ints | None:
    """The rows among `rows` (None: every row) longer than 8k bytes; None when that is every
    row, and there are some."""
    lengths = ids.lengths if rows is None else ids.lengths[rows]
    longer = lengths > 8 * k
    if rows is None and len(longer) and bool(longer.all()):
        return None
    return np.flatnonzero(longer) if rows is None else rows[longer]


def hashed(ids: Ids, salt: npt.NDArray[Any]) -> Words:
    """Each row's (salt, length, bytes) as a 64-bit number: equal ids with equal salts give
    equal numbers; different ones, equal numbers with odds near 2**-64 (never trusted alone).
    Each word is mixed in with a multiply and a shift, the salt at the end, then a multiply
    and a shift again, so that every input bit reaches the high bits (`packed_order`'s)."""
    h = ids.lengths.astype(np.uint64)
    rows, k = _longer(ids, None, 0), 0
    while rows is None or len(rows):
        mixed = (h if rows is None else h[rows]) * np.uint64(_GOLDEN)
        mixed ^= ids.word(rows, k)
        mixed ^= mixed >> np.uint64(29)
        if rows is None:
            h = mixed
        else:
            h[rows] = mixed
        k += 1
        rows = _longer(ids, rows, k)
    h += np.asarray(salt).astype(np.uint64) * np.uint64(_GOLDEN)
    h *= np.uint64(_MIX1)  # (the last word's low bits reach the high ones, the prefix)
    h ^= h >> np.uint64(32)
    return h


def same_ids(a: Ids, a_rows: Ints, b: Ids, b_rows: Ints) -> Flags:
    """Whether row `a_rows[i]` of `a` holds the bytes of row `b_rows[i]` of `b`, for each i."""
    lengths = a.lengths[a_rows]
    same: Flags = lengths == b.lengths[b_rows]
    at = np.flatnonzero(same & (lengths > 0))
    a_starts, b_starts, lengths = a.starts[a_rows[at]], b.starts[b_rows[at]], lengths[at]
    k = 0
    while len(at):
        agree = a.word_at(a_starts, lengths, k) == b.word_at(b_starts, lengths, k)
        same[at[~agree]] = False
        k += 1
        going = agree & (lengths > 8 * k)
        at, a_starts, b_starts, lengths = (
            at[going],
            a_starts[going],
            b_starts[going],
            lengths[going],
        )
    return same
