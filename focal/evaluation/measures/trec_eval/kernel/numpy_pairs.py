"""The (topic, document) look-ups of `trec_keys.PairIndex` with pyarrow and numpy, no C.

An install without the compiled module (or `FOCAL_KERNEL=numpy`) answers every question the C
tables answer, with the same answers (docs/trec_eval.md, "Without the compiled module"): the
qrels row of each run row's pair (or its value), whether the qrels judge a document twice in a
topic, whether a run names a pair twice (trec_eval refuses both). Vectorised, with no Python
loop over rows or topics:

- each distinct document id becomes an integer once (`pc.dictionary_encode`, one hash pass over
  the ids' bytes), and a pair becomes one int64, `code * distinct + id`, which is exact: codes
  are 32-bit, as the C part takes them, and the distinct ids fewer than 2**31 (the dictionary's
  32-bit indices);
- the qrels' pair numbers are sorted once, and a run's are found with `np.searchsorted`;
- repeats are adjacent equal numbers after a sort.

The C tables stop filling at the first qrels row whose pair an earlier row has; so does this
index (the rows before it answer the look-ups), so that even qrels refused for a repeat look up
the same rows. A run's repeat is any pair met twice, judged or not, topics the qrels do not know
(codes from `topics` on) included.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from focal.evaluation.formats.arrow import to_numpy

Ints = npt.NDArray[np.int64]
_MOST_ROWS = 2**32 - 1  # the C tables' bound: a pair's number must fit in 63 bits


class NumpyPairs:
    """The qrels' (topic code, document) pairs: `numbers` sorted, `rows[i]` the qrels row of
    `numbers[i]`; `judged` the distinct document ids (the dictionary the numbers use); `count`
    the qrels' rows; `duplicate` whether a pair occurs twice."""

    def __init__(self, codes: npt.NDArray[np.int32], docs: Any, topics: int) -> None:
        """`codes` in [0, topics), one a row of `docs` (a binary or string Arrow array)."""
        import pyarrow.compute as pc

        codes = np.asarray(codes, dtype=np.int32)
        if len(codes) != len(docs):
            raise ValueError(f"one code a row expected: {len(codes)} codes, {len(docs)} rows")
        if len(codes) >= _MOST_ROWS:
            raise ValueError(f"too many rows: {len(codes)}, at most {_MOST_ROWS - 1}")
        if len(codes) and (int(codes.min()) < 0 or int(codes.max()) >= topics):
            raise ValueError(f"a code outside the tables: codes must be in [0, {topics})")
        self.topics, self.count = topics, len(codes)
        encoded = pc.dictionary_encode(_joined(_binary_chunks(docs)))
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

    def find(self, codes: npt.NDArray[Any], docs: Any, values: Ints | None = None,
             missing: int = -1, negative: int = -1) -> Ints | None:  # fmt: skip
        """What `trec_keys.PairIndex.find` answers: each run row's qrels row (-1 where not
        judged), or with `values` that row's value (`negative` below 0, `missing` where not
        judged); None when the run names a pair twice."""
        import pyarrow.compute as pc

        codes = np.ascontiguousarray(codes, dtype=np.int32).astype(np.int64)  # as C takes them
        if len(codes) != len(docs):
            raise ValueError(f"one code a row expected: {len(codes)} codes, {len(docs)} rows")
        if len(codes) >= _MOST_ROWS:
            raise ValueError(f"too many rows: {len(codes)}, at most {_MOST_ROWS - 1}")
        if len(codes) and int(codes.min()) < 0:
            raise ValueError("codes may not be negative")
        if values is not None and len(values) != self.count:
            raise ValueError(f"values do not match the rows: one a qrels row, not {len(values)}")
        # the qrels' distinct ids first (one hash pass over them and the run's): they keep
        # their numbers, the run's other ids follow
        chunks = [self.judged, *_binary_chunks(docs)]
        encoded = pc.dictionary_encode(_joined(chunks))
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
        if values is None:
            return found
        values = np.asarray(values, dtype=np.int64)
        answer = np.full(len(codes), missing, dtype=np.int64)
        judged_rows = found >= 0
        given = values[found[judged_rows]]
        answer[judged_rows] = np.where(given < 0, negative, given)
        return answer


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
