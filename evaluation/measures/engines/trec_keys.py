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
    width = max(1, -(-int(lengths.max(initial=0)) // 8))
    words = np.zeros((width, len(lengths)), dtype=np.uint64)
    at = 0
    for offsets, data in parts:
        count, low, high = len(offsets) - 1, int(offsets[0]), int(offsets[-1])
        padded = np.zeros(high - low + 8, dtype=np.uint8)
        padded[: high - low] = data[low:high]
        # every byte position as the start of an unaligned 8-byte word
        view = np.ndarray((high - low + 1,), dtype="<u8", buffer=padded, strides=(1,))
        starts, size = offsets[:-1] - low, lengths[at : at + count]
        for k in range(width):
            left = np.clip(size - 8 * k, 0, 8)
            words[k, at : at + count] = view[np.minimum(starts + 8 * k, high - low)] & _MASKS[left]
        at += count
    return DocWords(lengths, words)


def _mix(value: Words) -> Words:
    value = value ^ (value >> _S30)
    value = value * _M1
    value = value ^ (value >> _S27)
    value = value * _M2
    mixed: Words = value ^ (value >> _S31)
    return mixed


def fingerprints(codes: Ints, docs: DocWords) -> Words:
    """A 64-bit fingerprint per (topic code, document): equal pairs, equal fingerprints, whatever
    the width of the words (words past a string's end play no part)."""
    start = codes.astype(np.uint64) * _GOLDEN + docs.lengths.astype(np.uint64)
    value = _mix(start)
    for k in range(docs.words.shape[0]):
        value = np.where(docs.lengths > 8 * k, _mix(value ^ docs.words[k]), value)
    return value


def same_pairs(codes: Ints, docs: DocWords, rows: Ints, other_codes: Ints, other: DocWords,
               other_rows: Ints) -> npt.NDArray[np.bool_]:  # fmt: skip
    """Whether pair rows[i] of (codes, docs) equals pair other_rows[i] of the other columns."""
    equal: npt.NDArray[np.bool_] = (codes[rows] == other_codes[other_rows]) & (
        docs.lengths[rows] == other.lengths[other_rows]
    )
    for k in range(min(docs.words.shape[0], other.words.shape[0])):
        equal &= docs.words[k, rows] == other.words[k, other_rows]
    return equal  # equal lengths: no word past the narrower width is used


def has_duplicate(codes: Ints, docs: DocWords, keys: Words) -> bool:
    """Whether a (topic code, document) pair occurs twice: fingerprints sorted, neighbours with
    equal fingerprints confirmed on the pairs themselves."""
    if len(keys) < 2:
        return False
    ordered = np.sort(keys)
    if not np.any(ordered[1:] == ordered[:-1]):
        return False
    order = np.argsort(keys, kind="stable")
    near = np.flatnonzero(keys[order[1:]] == keys[order[:-1]])
    return bool(np.any(same_pairs(codes, docs, order[near], codes, docs, order[near + 1])))


class KeyTable:
    """The qrels' (topic code, document) pairs, for many runs' look-ups."""

    def __init__(self, codes: Ints, docs: DocWords) -> None:
        self.codes, self.docs = codes, docs
        self.keys = fingerprints(codes, docs)
        count = len(self.keys)
        order = np.argsort(self.keys, kind="stable")
        ordered = self.keys[order]
        near = np.flatnonzero(ordered[1:] == ordered[:-1])
        self.duplicate = bool(
            np.any(same_pairs(codes, docs, order[near], codes, docs, order[near + 1]))
        )
        self.bits = max(4, count.bit_length() + 1)  # at most half the home slots taken
        home = (ordered >> np.uint64(64 - self.bits)).astype(np.int64)
        steps = np.arange(count, dtype=np.int64)
        # the i-th smallest goes to its home slot or just past the one before: clusters sorted
        slots = steps + np.maximum.accumulate(home - steps) if count else steps
        size = max(int(slots[-1]) + 2 if count else 2, (1 << self.bits) + 1)  # an empty end
        self.slots = np.full(size, -1, dtype=np.int64)
        self.slots[slots] = order

    def find(self, codes: Ints, docs: DocWords) -> Ints:
        """The qrels row of each (code, document) pair, -1 where the qrels do not hold it."""
        keys = fingerprints(codes, docs)
        rows = np.full(len(keys), -1, dtype=np.int64)
        pending = np.arange(len(keys) if len(self.keys) else 0, dtype=np.int64)
        slot = (keys >> np.uint64(64 - self.bits)).astype(np.int64)
        while len(pending):
            held = self.slots[slot]
            taken = held >= 0
            held_keys = self.keys[np.where(taken, held, 0)]
            wanted = keys[pending]
            maybe = np.flatnonzero(taken & (held_keys == wanted))
            if len(maybe):
                exact = same_pairs(codes, docs, pending[maybe], self.codes, self.docs, held[maybe])
                rows[pending[maybe[exact]]] = held[maybe[exact]]
            found = np.zeros(len(pending), dtype=bool)
            found[maybe[exact] if len(maybe) else maybe] = True
            going = taken & (held_keys <= wanted) & ~found  # clusters are in fingerprint order
            pending, slot = pending[going], slot[going] + 1
        return rows
