"""trec_eval's ranking of a run's rows: topic, then score descending, then document id descending.

trec_eval sorts every topic's documents whatever order the file gives them in (docs/trec_eval.md).
Most runs are written in that order already, topic by topic with scores falling, so the common
case is checked in a few array passes and then costs no sort: the topic blocks are put in topic
order, and only the rows whose score ties with a neighbour are sorted, by their document ids.
Any other file (a topic split into several blocks, scores rising somewhere, a NaN score) is sorted
whole, on the same integer columns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from evaluation.measures.engines.trec_keys import doc_words

Ints = npt.NDArray[np.int64]


def ranking(codes: Ints, scores: npt.NDArray[np.float64], docs: Any,
            ties: str = "descending") -> Ints:  # fmt: skip
    """Row indexes in trec_eval's order: topic code ascending (codes follow the topic ids' byte
    order), score descending, then document id `ties` (descending as trec_eval's measures,
    ascending for its preference measures). `docs`: the ids, an Arrow binary (chunked) array."""
    order = reordering(codes, scores, docs, ties)
    return np.arange(len(codes), dtype=np.int64) if order is None else order


def reordering(codes: Ints, scores: npt.NDArray[np.float64], docs: Any,
               ties: str = "descending") -> Ints | None:  # fmt: skip
    """`ranking`, or None when the rows are in that order already (no row moves: the caller
    then needs no copy of its columns)."""
    count = len(codes)
    if count == 0:
        return None
    change = codes[1:] != codes[:-1]
    starts = np.flatnonzero(np.concatenate(([True], change)))
    block_codes = codes[starts]
    inside = ~change
    falling = scores[1:] <= scores[:-1]  # False at a NaN
    if np.bincount(block_codes).max() > 1 or np.any(inside & ~falling):
        return _sorted(codes, scores, docs, ties)
    tie = inside & (scores[1:] == scores[:-1])
    moved = np.any(block_codes[1:] < block_codes[:-1])  # blocks in file order, not topic order
    if not moved and not np.any(tie):
        return None
    order = np.arange(count, dtype=np.int64)
    if np.any(tie):
        _order_ties(order, tie, docs, ties == "descending")
    if moved:
        sizes = np.diff(np.append(starts, count))
        by_code = np.argsort(block_codes, kind="stable")
        first = np.repeat(starts[by_code] - np.cumsum(sizes[by_code]) + sizes[by_code],
                          sizes[by_code])  # fmt: skip
        order = order[first + np.arange(count)]
    return order


def _order_ties(order: Ints, tie: npt.NDArray[np.bool_], docs: Any, descending: bool) -> None:
    """Sort, in place, each run of rows sharing a topic and a score by document id."""
    member = np.zeros(len(order), dtype=bool)
    member[:-1] |= tie
    member[1:] |= tie
    opens = member & ~np.concatenate(([False], tie))
    rows = np.flatnonzero(member)
    group = np.cumsum(opens)[rows]
    words = doc_words(docs, rows)
    keys = [*words.order_keys(np.arange(len(rows)), descending), group]
    order[rows] = rows[np.lexsort(keys)]


def _sorted(codes: Ints, scores: npt.NDArray[np.float64], docs: Any, ties: str) -> Ints:
    """The whole run sorted: topic code, score descending (NaN last, as Arrow and trec_eval's
    qsort leave it; -0.0 equal to 0.0), then document id."""
    rows = np.arange(len(codes), dtype=np.int64)
    missing = np.isnan(scores)
    falling = np.where(missing, 0.0, -scores)
    keys = [*doc_words(docs).order_keys(rows, ties == "descending"), falling, missing, codes]
    order: Ints = np.lexsort(keys).astype(np.int64)
    return order
