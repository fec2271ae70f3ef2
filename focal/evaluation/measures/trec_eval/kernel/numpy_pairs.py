"""The (topic, document) look-ups of `trec_keys.PairIndex` with numpy, no C.

An install without the compiled module (or `FOCAL_KERNEL=numpy`) answers every question the C
tables answer, with the same answers (docs/trec_eval.md, "Without the compiled module"): the
qrels row of each run row's pair (or its value), whether the qrels judge a document twice in a
topic, whether a run names a pair twice (trec_eval refuses both). Vectorised, with no Python
loop over rows or topics, and as the C tables do, a hash routes and the bytes decide:

- each pair becomes a 64-bit hash of its topic code and its id's bytes, read in place from the
  Arrow buffers (`numpy_words.hashed`); the qrels' hashes are sorted once, a run's sorted and
  found among them with `np.searchsorted` (sorted probes: one pass over both, in cache);
- every hash found is confirmed on the code and the bytes (`numpy_words.same_ids`), and so is
  every pair of equal hashes within a run (a repeat when the bytes agree).

When two of the qrels' pairs (or two of a run's, not the same) share a hash, a repeat or a
collision, the exact index answers instead (`EncodedPairs`): each distinct document id becomes
an integer (`pc.dictionary_encode`, one hash pass over the ids' bytes), and a pair one int64,
`code * distinct + id`, which is exact: codes are 32-bit, as the C part takes them, and the
distinct ids fewer than 2**31 (the dictionary's 32-bit indices); repeats are adjacent equal
numbers after a sort. The C tables stop filling at the first qrels row whose pair an earlier row
has; so does that index (the rows before it answer the look-ups), so that even qrels refused for
a repeat look up the same rows. A run's repeat is any pair met twice, judged or not, topics the
qrels do not know (codes from `topics` on) included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from focal.evaluation.formats.arrow import to_numpy
from focal.evaluation.measures.trec_eval.kernel.numpy_words import Ids, Words, hashed, same_ids

Ints = npt.NDArray[np.int64]
_MOST_ROWS = 2**32 - 1  # the C tables' bound: a pair's number must fit in 63 bits


class NumpyPairs:
    """The qrels' (topic code, document) pairs, for many runs' look-ups (`find`): `count` the
    qrels' rows, `duplicate` whether a pair occurs twice.

    Hashed: `hashes` the pairs' 64-bit hashes (distinct: one a pair) in the order of their
    `prefixes` (their high bits, sorted: `packed_order`), `rows[i]` the qrels row of
    `hashes[i]`. When two pairs share a hash (a repeat, or two pairs colliding), `exact` holds
    the encoded index instead and answers every look-up. `bits` keeps that many of each hash,
    the high ones (64; fewer only to test collisions)."""

    def __init__(self, codes: npt.NDArray[np.int32], docs: Any, topics: int,
                 bits: int = 64) -> None:  # fmt: skip
        """`codes` in [0, topics), one a row of `docs` (a binary or string Arrow array)."""
        codes = np.asarray(codes, dtype=np.int32)
        if len(codes) != len(docs):
            raise ValueError(f"one code a row expected: {len(codes)} codes, {len(docs)} rows")
        if len(codes) >= _MOST_ROWS:
            raise ValueError(f"too many rows: {len(codes)}, at most {_MOST_ROWS - 1}")
        if len(codes) and (int(codes.min()) < 0 or int(codes.max()) >= topics):
            raise ValueError(f"a code outside the tables: codes must be in [0, {topics})")
        self.topics, self.count, self.codes = topics, len(codes), codes
        self.docs = _joined(_binary_chunks(docs))
        self.mask = np.uint64(((1 << bits) - 1) << (64 - bits))  # (the high bits: the prefix)
        self.ids = Ids(self.docs)
        hashes = hashed(self.ids, codes) & self.mask
        self.prefixes, self.rows = packed_order(hashes, _row_bits(len(hashes)))
        self.hashes: Words = hashes[self.rows]
        self.exact: EncodedPairs | None = None
        if len(_equal_hashes(self.prefixes, self.hashes)):  # a repeat, or a collision
            self.exact = EncodedPairs(codes, self.docs, topics)
        self.duplicate = False if self.exact is None else self.exact.duplicate

    def find(self, codes: npt.NDArray[Any], docs: Any, values: Ints | None = None,
             missing: int = -1, negative: int = -1) -> Ints | None:  # fmt: skip
        """What `trec_keys.PairIndex.find` answers: each run row's qrels row (-1 where not
        judged), or with `values` that row's value (`negative` below 0, `missing` where not
        judged); None when the run names a pair twice."""
        codes = np.ascontiguousarray(codes, dtype=np.int32).astype(np.int64)  # as C takes them
        if len(codes) != len(docs):
            raise ValueError(f"one code a row expected: {len(codes)} codes, {len(docs)} rows")
        if len(codes) >= _MOST_ROWS:
            raise ValueError(f"too many rows: {len(codes)}, at most {_MOST_ROWS - 1}")
        if len(codes) and int(codes.min()) < 0:
            raise ValueError("codes may not be negative")
        if values is not None and len(values) != self.count:
            raise ValueError(f"values do not match the rows: one a qrels row, not {len(values)}")
        found = self._found(codes, _joined(_binary_chunks(docs)))
        if found is None or values is None:
            return found
        values = np.asarray(values, dtype=np.int64)
        answer = np.full(len(codes), missing, dtype=np.int64)
        judged_rows = found >= 0
        given = values[found[judged_rows]]
        answer[judged_rows] = np.where(given < 0, negative, given)
        return answer

    def _found(self, codes: Ints, docs: Any) -> Ints | None:
        """Each run row's qrels row (-1 where not judged), None for a pair named twice. A run's
        hashes sorted, equal ones are a repeat when their bytes agree (else a collision: the
        encoded index answers); each is then found among the qrels' (sorted both: one
        merge-like pass) and confirmed on the code and the bytes: the qrels' hashes being
        distinct, a hash found whose pair differs is a pair the qrels do not judge."""
        if self.exact is not None:
            return self.exact.find(codes, docs)
        ids = Ids(docs)
        hashes = hashed(ids, codes) & self.mask
        # (the run's prefixes no longer than the qrels': compared on the run's bits)
        prefixes, order = packed_order(hashes, max(_row_bits(len(hashes)), _row_bits(self.count)))
        hashes = hashes[order]
        again = _equal_hashes(prefixes, hashes)
        if len(again):
            first, second = order[again[:, 0]], order[again[:, 1]]
            if bool(np.any((codes[first] == codes[second]) & same_ids(ids, first, ids, second))):
                return None
            return EncodedPairs(self.codes, self.docs, self.topics).find(codes, docs)
        found = np.full(len(codes), -1, dtype=np.int64)
        found[order] = self._rows_of(prefixes, hashes)  # (confirmed in the run's order: in cache)
        asked = np.flatnonzero(found >= 0)
        judged = found[asked]
        sure = (codes[asked] == self.codes[judged]) & same_ids(ids, asked, self.ids, judged)
        found[asked[~sure]] = -1
        return found

    def _rows_of(self, prefixes: Words, hashes: Words) -> Ints:
        """The qrels row whose hash is each of `hashes` (sorted by `prefixes`, which have as
        many low bits cleared as the qrels' or more), -1 for none: the first qrels hash of the
        same prefix, then the next ones while a prefix is shared."""
        rows = np.full(len(hashes), -1, dtype=np.int64)
        high = ~np.uint64((1 << _row_bits(len(hashes), self.count)) - 1)
        at = np.searchsorted(self.prefixes, prefixes)
        asked = np.arange(len(hashes))
        while len(asked):
            at, asked = at[at < len(self.prefixes)], asked[at < len(self.prefixes)]
            same = (self.prefixes[at] & high) == prefixes[asked]
            at, asked = at[same], asked[same]
            match = self.hashes[at] == hashes[asked]
            rows[asked[match]] = self.rows[at[match]]
            at, asked = at[~match] + 1, asked[~match]
        return rows


def _row_bits(*counts: int) -> int:
    """The bits that number the rows of the largest of `counts` (at most 32: `_MOST_ROWS`)."""
    return max(1, *((count - 1).bit_length() for count in counts))


def packed_order(hashes: Words, low_bits: int) -> tuple[Words, Ints]:
    """`hashes`' order by their high bits, with one `np.sort` (not an argsort): each hash's
    `low_bits` (enough to number its rows) give way to its row, so that the sorted numbers hold
    both; returns the high bits (`prefixes`, sorted, at least 32 bits of the hash) and the rows
    in that order."""
    low = np.uint64((1 << low_bits) - 1)
    packed = hashes & ~low
    packed |= np.arange(len(hashes), dtype=np.uint64)
    packed.sort()
    return packed & ~low, (packed & low).astype(np.int64)


def _equal_hashes(prefixes: Words, hashes: Words) -> npt.NDArray[np.int64]:
    """Positions (i, j), as rows of an (n, 2) array, of sorted `prefixes` whose `hashes` are
    equal: neighbours once those sharing a prefix (rarely more than two) are sorted by hash."""
    shared = np.flatnonzero(prefixes[1:] == prefixes[:-1])
    if not len(shared):
        return np.zeros((0, 2), dtype=np.int64)
    members = np.union1d(shared, shared + 1)
    members = members[np.argsort(hashes[members], kind="stable")]
    equal = np.flatnonzero(hashes[members[1:]] == hashes[members[:-1]])
    return np.stack([members[equal], members[equal + 1]], axis=1)


class EncodedPairs:
    """The same index on exact numbers, for qrels whose pairs' hashes are not all distinct:
    each distinct document id becomes an integer (`pc.dictionary_encode`), a pair one int64,
    `code * distinct + id` (see the module); `numbers` sorted, `rows[i]` the qrels row of
    `numbers[i]`, `judged` the distinct ids."""

    def __init__(self, codes: npt.NDArray[np.int32], docs: Any, topics: int) -> None:
        import pyarrow.compute as pc

        self.topics = topics
        encoded = pc.dictionary_encode(docs)
        self.judged = encoded.dictionary
        numbers = _numbers(codes, _indices(encoded), len(self.judged))
        rows = np.argsort(numbers, kind="stable")
        numbers = numbers[rows]
        again = np.flatnonzero(numbers[1:] == numbers[:-1]) + 1  # (stable: later rows)
        self.duplicate = bool(len(again))
        if self.duplicate:  # the rows before the first repeat, as the C tables hold them
            kept = rows < rows[again].min()
            rows, numbers = rows[kept], numbers[kept]
        self.numbers: Ints = numbers
        self.rows: Ints = rows.astype(np.int64)

    def find(self, codes: Ints, docs: Any) -> Ints | None:
        """`NumpyPairs._found` on the exact numbers (`docs`: one binary array)."""
        import pyarrow.compute as pc

        # the qrels' distinct ids first (one hash pass over them and the run's): they keep
        # their numbers, the run's other ids follow
        encoded = pc.dictionary_encode(_joined([self.judged, docs]))
        ids = _indices(encoded)[len(self.judged) :]
        if _repeats(_numbers(codes, ids, len(encoded.dictionary))):
            return None
        found = np.full(len(codes), -1, dtype=np.int64)
        asked = np.flatnonzero((ids < len(self.judged)) & (codes < self.topics))
        if len(asked) and len(self.numbers):
            wanted = codes[asked] * len(self.judged) + ids[asked]
            at = np.minimum(np.searchsorted(self.numbers, wanted), len(self.numbers) - 1)
            hit = self.numbers[at] == wanted
            found[asked[hit]] = self.rows[at[hit]]
        return found


def _binary_chunks(docs: Any) -> list[Any]:
    """The chunks of an Arrow array or chunked array of binary or string ids, as binary (or
    large binary) arrays; nulls are refused, as the C part refuses them."""
    chunks = list(docs.chunks) if isinstance(docs, pa.ChunkedArray) else [docs]
    if any(chunk.null_count for chunk in chunks):
        raise ValueError("document ids may not be null")
    kinds = [pa.large_binary() if _large(chunk.type) else pa.binary() for chunk in chunks]
    return [chunk if chunk.type == kind else chunk.cast(kind)
            for chunk, kind in zip(chunks, kinds, strict=True)]  # fmt: skip


def _joined(chunks: list[Any]) -> Any:
    """Binary chunks in one array: large binary when a chunk is, or when their bytes need
    64-bit offsets."""
    large = any(_large(c.type) for c in chunks) or sum(c.nbytes for c in chunks) >= 2**31 - 1
    kind = pa.large_binary() if large else pa.binary()
    same = [chunk if chunk.type == kind else chunk.cast(kind) for chunk in chunks]
    if not same:
        return pa.nulls(0, kind)
    return same[0] if len(same) == 1 else pa.concat_arrays(same)


def _large(kind: Any) -> bool:
    return bool(pa.types.is_large_binary(kind) or pa.types.is_large_string(kind))


def _indices(encoded: Any) -> Ints:
    """A dictionary array's indices as int64."""
    return to_numpy(encoded.indices).astype(np.int64)


def _numbers(codes: npt.NDArray[Any], ids: Ints, distinct: int) -> Ints:
    """Each (code, id) pair as one int64: code * distinct + id (exact: see the module)."""
    numbers = codes.astype(np.int64)
    numbers *= max(distinct, 1)
    numbers += ids
    return numbers


def _repeats(numbers: Ints) -> bool:
    """Whether a number occurs twice."""
    ordered = np.sort(numbers)
    return bool(np.any(ordered[1:] == ordered[:-1]))
