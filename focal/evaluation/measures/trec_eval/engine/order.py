"""trec_eval's ranking of a run's rows: topic, then score descending, then document id descending.

trec_eval sorts every topic's documents whatever order the file gives them in (docs/trec_eval.md).
Most runs are written in that order already, topic by topic with scores falling, so the common
case is checked in a few array passes and then costs no sort: the topic blocks are put in topic
order, and only the rows whose score ties with a neighbour are sorted, by their document ids.
Any other file (a topic split into several blocks, scores rising somewhere, a NaN score) is sorted
whole, on the same integer columns; a topic with a NaN score is then put in the order trec_eval's
comparator and glibc's merge sort give it (`c_ranking`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.arrow import numeric_array
from focal.evaluation.measures.trec_eval.c_order import merge_sorted
from focal.evaluation.measures.trec_eval.engine.keys import doc_words

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Moves:
    """How rows move into trec_eval's order: row `rows[i]` takes the row `sources[i]` (with
    `rows` None, every row: `sources` is the whole order). When only rows whose scores tie move,
    they move within their topic, so a column is reordered in place (`apply`) and the topic
    codes not at all: no array of the run's length is made."""

    rows: Ints | None
    sources: Ints

    def apply(self, column: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """`column` in the new order: a new array for a whole order, else `column` itself,
        changed in place."""
        if self.rows is None:
            moved: npt.NDArray[Any] = column[self.sources]
            return moved
        column[self.rows] = column[self.sources]  # (the right side is gathered first)
        return column


def ranking(codes: Ints, scores: npt.NDArray[np.float64], docs: Any,
            ties: str = "descending") -> Ints:  # fmt: skip
    """Row indexes in trec_eval's order: topic code ascending (codes follow the topic ids' byte
    order), score descending, then document id `ties` (descending as trec_eval's measures,
    ascending for its preference measures). `docs`: the ids, an Arrow binary (chunked) array."""
    moves = reordering(codes, scores, docs, ties)
    order = np.arange(len(codes), dtype=np.int64)
    return order if moves is None else moves.apply(order)


def reordering(codes: Ints, scores: npt.NDArray[np.float64], docs: Any,
               ties: str = "descending", blocks: bool = True) -> Moves | None:  # fmt: skip
    """The `Moves` into `ranking`'s order, or None when the rows are in that order already.
    `blocks=False`: where each topic's rows come together, the topics stay in the file's order
    (only rows of tied scores move; the caller puts the topics' values in order)."""
    count = len(codes)
    if count == 0:
        return None
    change = codes[1:] != codes[:-1]
    starts = np.flatnonzero(np.concatenate(([True], change)))
    block_codes = codes[starts]
    inside = ~change
    falling = scores[1:] <= scores[:-1]  # False at a NaN
    if np.bincount(block_codes).max() > 1 or np.any(inside & ~falling):
        return Moves(None, _sorted(codes, scores, docs, ties))
    tie = inside & (scores[1:] == scores[:-1])
    moved = np.any(block_codes[1:] < block_codes[:-1])  # blocks in file order, not topic order
    ties_move = _order_ties(tie, docs, ties == "descending") if np.any(tie) else None
    if not moved or not blocks:
        return ties_move
    order = np.arange(count, dtype=np.int64)
    if ties_move is not None:
        order = ties_move.apply(order)
    sizes = np.diff(np.append(starts, count))
    by_code = np.argsort(block_codes, kind="stable")
    first = np.repeat(starts[by_code] - np.cumsum(sizes[by_code]) + sizes[by_code],
                      sizes[by_code])  # fmt: skip
    return Moves(None, order[first + np.arange(count)])


def _order_ties(tie: npt.NDArray[np.bool_], docs: Any, descending: bool) -> Moves:
    """Each run of rows sharing a topic and a score, sorted by document id."""
    member = np.zeros(len(tie) + 1, dtype=bool)
    member[:-1] |= tie
    member[1:] |= tie
    opens = member & ~np.concatenate(([False], tie))
    rows = np.flatnonzero(member)
    group = np.cumsum(opens[rows])  # (opens is False off the members)
    words = doc_words(docs, rows)
    keys = [*words.order_keys(np.arange(len(rows)), descending), group]
    return Moves(rows, rows[np.lexsort(keys)])


def _sorted(codes: Ints, scores: npt.NDArray[np.float64], docs: Any, ties: str) -> Ints:
    """The whole run sorted: topic code, score descending (NaN last, as Arrow and trec_eval's
    qsort leave it; -0.0 equal to 0.0), then document id."""
    rows = np.arange(len(codes), dtype=np.int64)
    missing = np.isnan(scores)
    falling = np.where(missing, 0.0, -scores)
    keys = [*doc_words(docs).order_keys(rows, ties == "descending"), falling, missing, codes]
    order: Ints = np.lexsort(keys).astype(np.int64)
    if ties == "descending" and missing.any():
        for code in np.unique(codes[missing]).tolist():  # the few topics with a NaN score
            segment = np.flatnonzero(codes[order] == code)
            members = np.sort(order[segment])
            ids = docs.take(numeric_array(members)).to_pylist()
            by_id = sorted(range(len(members)), key=ids.__getitem__)
            placed = c_ranking([ids[i] for i in by_id], scores[members[by_id]].tolist())
            order[segment] = members[by_id][placed]
    return order


def c_ranking(ids: list[bytes], scores: list[float]) -> list[int]:
    """Positions of one topic's documents (given in id order, as trec_eval's reader leaves
    them) in the order trec_eval 10.0's `qsort` gives them with its comparator
    (`form_res_rels.c`: score descending, then id descending) in glibc's merge sort: a NaN
    score is neither above nor below another, so it compares by id alone and its place depends
    on the merges, as in the C program (docs/trec_eval.md)."""

    def before(a: int, b: int) -> bool:  # comp_sim_docno(a, b) <= 0
        if scores[a] > scores[b]:
            return True
        if scores[a] < scores[b]:
            return False
        return ids[b] <= ids[a]

    return merge_sorted(range(len(ids)), before)  # glibc's msort_with_tmp
