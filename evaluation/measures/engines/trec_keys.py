"""Exact (topic, document) look-ups on integer columns, with one table built once per qrels.

trec_eval gives each retrieved document the grade its topic's qrels give it, and refuses a run
that names a document twice in a topic (docs/trec_eval.md). With thousands of topics and millions
of rows this look-up is most of the work, so it is done here without Python objects and without
re-hashing the qrels for every run:

- A document id becomes `DocWords`: its length and its bytes as little-endian 64-bit words,
  zero-padded (read straight from the Arrow buffers). Two ids are equal exactly when their
  lengths and words are, and their byte order (trec_eval's `strcmp`) is the order of their
  words read big-endian, then of their lengths.
- A (topic code, document) pair gets a 64-bit fingerprint (a splitmix64-style mix of the code,
  the length and each word). Fingerprints only route a probe: every match is confirmed on the
  topic code and the words, so a collision costs a probe, never a wrong grade.
- `KeyTable` holds the qrels' fingerprints in a linear-probing table whose clusters are in
  fingerprint order (placed by sorting, not inserted one by one), so a probe stops at an empty
  slot or at a larger fingerprint. A run's rows are looked up in a few vectorised rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]
_GOLDEN, _M1, _M2 = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xBF58476D1CE4E5B9),
    np.uint64(0x94D049BB133111EB),
)
SLICE = 1 << 17  # rows a look-up handles at a time
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


@dataclass(frozen=True)
class DocWords:
    """Byte strings as integers: `lengths` (n,) and `words` (width, n), word k holding bytes
    8k..8k+7 little-endian, zero past the end of the string."""

    lengths: Ints
    words: Words

    def __len__(self) -> int:
        return len(self.lengths)

    def order_keys(self, rows: Ints, descending: bool) -> list[npt.NDArray[Any]]:
        """np.lexsort keys (least significant first) ordering `rows` by their bytes."""
        lengths = self.lengths[rows]
        keys: list[npt.NDArray[Any]] = [-lengths if descending else lengths]
        for k in range(self.words.shape[0] - 1, -1, -1):
            word = self.words[k, rows].byteswap()  # big-endian: byte order as a number
            keys.append(~word if descending else word)
        return keys


def doc_words(column: Any) -> DocWords:
    """The `DocWords` of a binary or string Arrow array or chunked array without nulls."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    parts = []
    for chunk in chunks:
        if chunk.null_count:
            raise ValueError("document ids may not be null")
        wide = pa.types.is_large_binary(chunk.type) or pa.types.is_large_string(chunk.type)
        kind = np.dtype(np.int64 if wide else np.int32)
        buffers = chunk.buffers()
        offsets = np.frombuffer(buffers[1], dtype=kind, count=len(chunk) + 1,
                                offset=chunk.offset * kind.itemsize).astype(np.int64)  # fmt: skip
        data = np.frombuffer(buffers[2], np.uint8) if buffers[2] is not None else np.zeros(0)
        parts.append((offsets, data))
    lengths = np.concatenate([np.diff(offsets) for offsets, _ in parts] or [np.zeros(0, np.int64)])
    lengths = lengths.astype(np.int32) if lengths.max(initial=0) < 2**31 else lengths
    width = max(1, -(-int(lengths.max(initial=0)) // 8))
    words = np.empty((width, len(lengths)), dtype=np.uint64)
    at = 0
    for offsets, data in parts:  # in place where it can be: fresh arrays cost page faults
        count, low, high = len(offsets) - 1, int(offsets[0]), int(offsets[-1])
        padded = np.zeros(high - low + 8 * width + 8, dtype=np.uint8)
        padded[: high - low] = data[low:high]
        # every byte position as the start of an unaligned 8-byte word
        view = np.ndarray((high - low + 8 * width,), dtype="<u8", buffer=padded, strides=(1,))
        starts, size = offsets[:-1] - low, lengths[at : at + count]
        left, position = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64)
        for k in range(width):
            np.clip(np.subtract(size, 8 * k, out=left), 0, 8, out=left)
            np.add(starts, 8 * k, out=position)
            np.bitwise_and(view[position], _MASKS[left], out=words[k, at : at + count])
        at += count
    return DocWords(lengths, words)


def _mix(value: Words) -> Words:
    value = value ^ (value >> _S30)
    value = value * _M1
    value = value ^ (value >> _S27)
    value = value * _M2
    mixed: Words = value ^ (value >> _S31)
    return mixed


def _multipliers(count: int) -> Words:
    """An odd 64-bit multiplier for each word position (the same for every call)."""
    steps = (np.arange(1, count + 1, dtype=np.uint64) * _GOLDEN) | np.uint64(1)
    return _mix(steps) | np.uint64(1)


def fingerprints(codes: Ints, docs: DocWords) -> Words:
    """A 64-bit fingerprint per (topic code, document): the words weighted by a multiplier of
    their position and summed (mod 2^64), with the code and the length, then mixed. Words past
    a string's end are zero and add nothing: equal pairs have equal fingerprints whatever the
    width of their words."""
    value = codes.astype(np.uint64) * _GOLDEN
    value ^= docs.lengths.astype(np.uint64)
    for k, multiplier in enumerate(_multipliers(docs.words.shape[0])):
        value += docs.words[k] * multiplier
    return _mix(value)


def same_pairs(codes: Ints, docs: DocWords, rows: Ints, other_codes: Ints, other: DocWords,
               other_rows: Ints) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Whether pair rows[i] of (codes, docs) equals pair other_rows[i] of the other columns."""
    equal: npt.NDArray[np.bool_] = (codes[rows] == other_codes[other_rows]) & (
        docs.lengths[rows] == other.lengths[other_rows]
    )
    for k in range(min(docs.words.shape[0], other.words.shape[0])):
        equal &= docs.words[k, rows] == other.words[k, other_rows]
    return equal  # equal lengths: no word past the narrower width is used


def has_duplicate(codes: Ints, docs: DocWords, keys: Words, rows: Ints | None = None) -> bool:
    """Whether a (topic code, document) pair occurs twice among `rows` (all when None), given
    every row's fingerprint. Equal pairs have equal fingerprints, so they share a bucket of
    the fingerprints' top bits (twice as many buckets as rows): only the rows in a bucket with
    another row, about a fifth, have their fingerprints sorted. The rows whose fingerprint
    occurs more than once are then sorted by the pairs themselves and compared with their
    neighbours (different pairs may share a fingerprint)."""
    chosen = keys if rows is None else keys[rows]
    if len(chosen) < 2:
        return False
    bits = (2 * len(chosen) - 1).bit_length()
    bucket = (chosen >> np.uint64(64 - bits)).astype(np.intp)
    crowded = np.bincount(bucket, minlength=1 << bits)[bucket] > 1
    ordered = np.sort(chosen[crowded])
    shared = ordered[1:][ordered[1:] == ordered[:-1]]
    if not len(shared):
        return False
    near = np.flatnonzero(np.isin(chosen, shared))
    near = near if rows is None else rows[near]
    exact = [*(docs.words[k, near] for k in range(docs.words.shape[0])), docs.lengths[near],
             codes[near], keys[near]]  # fmt: skip
    near = near[np.lexsort(exact)]
    return bool(np.any(same_pairs(codes, docs, near[1:], codes, docs, near[:-1])))


class KeyTable:
    """The qrels' (topic code, document) pairs, for many runs' look-ups.

    Each topic has its own buckets, a power of two of them, about one pair each; a pair's
    bucket is its topic's first bucket plus the top bits of its fingerprint. The pairs are
    kept as records (place, code and length, words) sorted by place: bucket, then fingerprint.
    So a topic's records sit together, and a run, written topic by topic, reads the table
    almost in order. `firsts[b]` is bucket b's first record. A look-up first asks `marks`, a
    bit for each eighth of a bucket, whether a record may be there; if so it reads the bucket's
    records, side by side, up to its own place: about two memory reads a pair the qrels hold,
    one for most they do not. A fingerprint only routes the look-up: a match is confirmed on
    the code, the length and the words. `order[i]` is the input row of record i.
    """

    def __init__(self, codes: Ints, docs: DocWords) -> None:
        count = len(codes)
        topics = int(codes.max(initial=-1)) + 1
        sizes = np.bincount(codes, minlength=topics)
        self.topic_bits = np.array([int(n).bit_length() for n in sizes.tolist()] + [0], np.int64)
        spans = np.left_shift(1, self.topic_bits[:-1])
        self.bases = np.concatenate(([0], np.cumsum(spans)))  # the last: one empty bucket
        buckets = int(self.bases[-1]) + 1
        self.bits = max(1, buckets.bit_length())
        self.high = ~np.uint64((1 << max(1, count.bit_length())) - 1)
        places = self.places(codes, fingerprints(codes, docs))
        # the row number rides in the low bits of the sort (only ties in the other 20-odd bits
        # are then out of fingerprint order, and a look-up that meets one still compares it)
        packed = places & self.high
        packed |= np.arange(count, dtype=np.uint64)
        packed.sort()
        index = np.int32 if count < 2**31 - 1 else np.int64
        self.order = (packed & ~self.high).astype(index)
        eighths = (packed >> np.uint64(61 - self.bits)).astype(np.int64)
        del packed
        # one bit for each eighth of a bucket, set where a record's fingerprint falls: most
        # pairs the qrels do not hold stop at this small table, without reading a record
        flags = np.zeros(8 * buckets, dtype=bool)
        flags[eighths] = True
        self.marks = np.packbits(flags, bitorder="little")
        del flags
        eighths >>= 3  # the buckets
        self.firsts = np.zeros(buckets + 1, dtype=index)
        np.cumsum(np.bincount(eighths, minlength=buckets), out=self.firsts[1:])
        del eighths
        width = docs.words.shape[0]
        self.records = np.empty((count, 2 + width), dtype=np.uint64)
        self.records[:, 0] = places[self.order]
        del places
        self.records[:, 1] = _code_and_length(codes[self.order], docs.lengths[self.order])
        for k in range(width):
            self.records[:, 2 + k] = docs.words[k, self.order]
        self.duplicate = self._repeated()

    def places(self, codes: Ints, keys: Words) -> Words:
        """Each pair's place: its bucket in the top bits (its topic's first bucket plus the top
        bits of its fingerprint; a topic without judgements: the empty last bucket), then the
        rest of its fingerprint."""
        known = np.minimum(codes, len(self.topic_bits) - 1)
        own = self.topic_bits[known].astype(np.uint64)
        inside = (keys >> np.uint64(1)) >> (np.uint64(63) - own)  # the top `own` bits
        bucket = self.bases[known].astype(np.uint64) + inside
        rest = (keys << own) >> np.uint64(self.bits)
        placed: Words = (bucket << np.uint64(64 - self.bits)) | rest
        return placed

    def _repeated(self) -> bool:
        """Whether two records hold the same pair: equal pairs have equal fingerprints, so
        they sit in one run of records with equal sort keys; such runs (rare but for
        duplicates) are sorted by the whole record and neighbours compared."""
        keys = self.records[:, 0] & self.high
        tied = keys[1:] == keys[:-1]
        if not np.any(tied):
            return False
        members = np.flatnonzero(np.concatenate(([False], tied)) | np.concatenate((tied, [False])))
        rows = self.records[members]
        order = np.lexsort([rows[:, k] for k in range(rows.shape[1] - 1, -1, -1)])
        rows = rows[order]
        same = np.all(rows[1:] == rows[:-1], axis=1)
        return bool(np.any(same))

    def find(self, codes: Ints, docs: DocWords, keys: Words) -> Ints:
        """The record of each (code, document) pair, given their `fingerprints`; -1 where the
        qrels do not hold it. In slices, so that the look-up's own arrays stay a few MiB
        whatever the run's size."""
        keys = self.places(codes, keys)
        rows = np.full(len(codes), -1, dtype=np.int64)
        for start in range(0, len(codes), SLICE):
            part = slice(start, start + SLICE)
            piece = DocWords(docs.lengths[part], docs.words[:, part])
            rows[part] = self._find(codes[part], piece, keys[part])
        return rows

    def _find(self, codes: Ints, docs: DocWords, keys: Words) -> Ints:
        rows = np.full(len(keys), -1, dtype=np.int64)
        marks = (keys >> np.uint64(61 - self.bits)).astype(np.int64)  # 8 bits a bucket
        pending = np.flatnonzero((self.marks[marks >> 3] >> (marks & 7).astype(np.uint8)) & 1)
        buckets = marks[pending] >> 3
        at, end = self.firsts[buckets].astype(np.int64), self.firsts[buckets + 1].astype(np.int64)
        mine = _code_and_length(codes, docs.lengths)
        width = min(docs.words.shape[0], self.records.shape[1] - 2)
        while len(pending):
            held = np.take(self.records, at, axis=0)  # rows: much faster than records[at]
            wanted = keys[pending]
            hit = (held[:, 0] == wanted) & (held[:, 1] == mine[pending])
            for k in range(width):  # equal lengths: no word past the narrower width is used
                hit &= held[:, 2 + k] == docs.words[k, pending]
            rows[pending[hit]] = at[hit]
            ahead = (held[:, 0] & self.high) <= (wanted & self.high)  # records in this order
            going = ~hit & (at + 1 < end) & ahead
            pending, at, end = pending[going], at[going] + 1, end[going]
        return rows


def _code_and_length(codes: Ints, lengths: Ints) -> Words:
    packed: Words = (codes.astype(np.uint64) << np.uint64(32)) | lengths.astype(np.uint64)
    return packed
