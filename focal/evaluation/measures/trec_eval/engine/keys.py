"""Exact (topic, document) look-ups, and document ids as integers for ordering.

trec_eval gives each retrieved document the grade its topic's qrels give it, and refuses a run
that names a document twice in a topic (docs/trec_eval.md). With thousands of topics and millions
of rows this look-up is most of the work beyond reading the files, so `PairIndex` hands it to C
(`_article_kernel.c`): one pass a run over the document ids' own Arrow buffers, with per-topic hash
tables built once per qrels, outside the interpreter lock. A hash only routes a probe: every
match is confirmed on the bytes, so a collision costs a probe, never a wrong grade. Without the
compiled module (`kernel.compiled()` is None) `kernel/numpy_pairs.py` answers, the same answers.

Ordering is left to numpy: a document id becomes `DocWords`, its length and its bytes as
little-endian 64-bit words, zero-padded (read straight from the Arrow buffers). Their byte order
(trec_eval's `strcmp`) is the order of their words read big-endian, then of their lengths; the
ranking needs them only for rows whose scores tie (`order`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from focal.evaluation.measures.trec_eval.kernel import compiled
from focal.evaluation.measures.trec_eval.kernel.numpy_pairs import NumpyPairs
from focal.evaluation.measures.trec_eval.kernel.numpy_words import MASKS, Tail, as_words, chunks_of
from focal.evaluation.measures.trec_eval.kernel.numpy_words import column_buffers as column_buffers

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]


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


def doc_words(column: Any, rows: Ints | None = None) -> DocWords:
    """The `DocWords` of a binary or string Arrow array or chunked array without nulls: of every
    row, or of `rows` (in that order), read from the chunks' own buffers."""
    chunks = chunks_of(column)
    firsts = np.cumsum([0] + [len(chunk) for chunk in chunks])
    wanted = np.arange(firsts[-1], dtype=np.int64) if rows is None else np.asarray(rows, np.int64)
    chunk_of = np.searchsorted(firsts, wanted, side="right") - 1
    parts = []  # per chunk: the positions it answers, their starts in its bytes, its bytes
    lengths = np.zeros(len(wanted), dtype=np.int64)
    for c, chunk in enumerate(chunks):
        mine = np.flatnonzero(chunk_of == c) if len(chunks) > 1 else np.arange(len(wanted))
        offsets, data = column_buffers(chunk)
        local = wanted[mine] - firsts[c]
        starts = offsets[local].astype(np.int64)
        lengths[mine] = offsets[local + 1] - starts
        parts.append((mine, starts, np.frombuffer(data, np.uint8)))
    width = max(1, -(-int(lengths.max(initial=0)) // 8))
    words = np.empty((width, len(wanted)), dtype=np.uint64)
    for mine, starts, data in parts:
        if not len(mine):
            continue
        size, inside, tail = lengths[mine], as_words(data), Tail(data, width)
        for k in range(width):
            left = np.clip(size - 8 * k, 0, 8)
            words[k, mine] = tail.words_at(inside, starts + 8 * k) & MASKS[left]
    narrow = lengths.max(initial=0) < 2**31
    return DocWords(lengths.astype(np.int32) if narrow else lengths, words)


class PairIndex:
    """The qrels' (topic code, document) pairs, for many runs' look-ups.

    With the compiled module (`kernel`), topic t owns `bases[t + 1] - bases[t]` slots of
    `slots` (32 bits each), a power of two at least twice its judged documents (so a probe
    meets an empty slot soon); `_article_kernel.c` fills them with the qrels rows. The qrels'
    document column is kept, one chunk, for the look-ups to confirm each match on the bytes.
    Without it, `numpy` (a `NumpyPairs`) holds the pairs, and there are no tables. `topics`:
    the qrels' topics (codes from there on are topics they do not know); `duplicate`: whether
    the qrels judge a document twice in a topic.
    """

    kernel: ModuleType

    def __init__(self, codes: npt.NDArray[np.int32], docs: Any, topics: int) -> None:
        column = pa.chunked_array(chunks_of(docs), type=docs.type)
        if column.nbytes >= 2**31 - 1 and pa.types.is_binary(column.type):
            column = column.cast(pa.large_binary())
        self.docs = column.combine_chunks()
        codes = np.ascontiguousarray(codes, dtype=np.int32)
        self.topics = topics
        kernel = compiled()
        self.numpy: NumpyPairs | None = None
        if kernel is None:
            self.numpy = NumpyPairs(codes, self.docs, topics)
            self.duplicate = self.numpy.duplicate
            return
        self.kernel = kernel
        sizes = np.bincount(codes, minlength=topics)
        spans = [1 << (2 * max(1, n) - 1).bit_length() for n in sizes.tolist()]
        self.bases = np.zeros(topics + 1, dtype=np.int64)
        np.cumsum(spans, out=self.bases[1:])
        self.slots = np.zeros(int(self.bases[-1]), dtype=np.uint32)
        # each topic's judged rows [first, end) when they are together (else [0, 0)): the
        # look-up fetches a topic's offsets and bytes ahead of its rows
        self.spans = np.zeros((topics, 2), dtype=np.int64)
        starts = np.flatnonzero(np.concatenate(([len(codes) > 0], codes[1:] != codes[:-1])))
        block_codes = codes[starts]
        alone = np.bincount(block_codes, minlength=topics)[block_codes] == 1
        ends = np.append(starts[1:], len(codes))
        self.spans[block_codes[alone]] = np.stack([starts[alone], ends[alone]], axis=1)
        offsets, data = column_buffers(self.docs)
        self.duplicate = self.kernel.index_pairs(codes, offsets, data, self.bases, self.slots)

    def find(self, codes: npt.NDArray[Any], docs: Any, values: Ints | None = None,
             missing: int = -1, negative: int = -1) -> Ints | None:  # fmt: skip
        """The qrels row of each run row's (code, document) pair, -1 where not judged (codes
        from `topics` on are topics the qrels do not know); with `values` (one per
        qrels row), that row's value instead (`negative` for a value below 0, `missing` where
        not judged), written as it is found: no array of rows, no second pass. None when the
        run names a pair twice (trec_eval refuses such a run)."""
        if self.numpy is not None:
            return self.numpy.find(codes, docs, values, missing, negative)
        found = np.empty(len(codes), dtype=np.int64)
        columns = [column_buffers(chunk) for chunk in chunks_of(docs)]
        offsets, data = column_buffers(self.docs)
        codes = np.ascontiguousarray(codes, dtype=np.int32)
        if self.kernel.find_pairs(columns, codes, self.bases, self.slots, offsets, data,
                                  self.spans, found, values=values, missing=missing,
                                  negative=negative):  # fmt: skip
            return None
        return found
