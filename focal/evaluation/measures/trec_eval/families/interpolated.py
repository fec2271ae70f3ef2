"""trec_eval's interpolated precision at recall levels: `iprec_at_recall_p` and `11pt_avg`.

At each recall level p the value is the highest precision at or below the rank where the
cut-off's relevant document was found (trec_eval `m_iprec_at_recall.c`); 11pt_avg is the mean
over the levels. The cut-off is where trec_eval 9 and 10 differ (`recall_cutoff`), so the
version travels with it.

Kept apart from the other measures (`trec_eval.families.computed`) because these two families alone
build a per-topic curve, read back at several levels, and sum it in trec_eval's order.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class Topics(Protocol):
    """The ranked topics (`families.computed.Ranked`): each topic's first position and relevant
    count."""

    @property
    def starts(self) -> Ints: ...
    @property
    def num_rel(self) -> Ints: ...


def recall_cutoff(fraction: float, num_rel: int, version: int) -> int:
    """How many relevant documents a recall level needs: 9.x `(long)(p·R + 0.9)`, 10.0
    `lround(p·R)` (halves away from zero).

    3 relevant documents at 10 % recall: 0.3 + 0.9 = 1.2 -> 1 in 9.x; lround(0.3) = 0 in 10.0.
    >>> recall_cutoff(0.1, 3, 9), recall_cutoff(0.1, 3, 10)
    (1, 0)
    >>> recall_cutoff(0.5, 3, 9), recall_cutoff(0.5, 3, 10)
    (2, 2)
    """
    return int(recall_cutoffs(fraction, np.array([num_rel]), version)[0])


def recall_cutoffs(fraction: float, num_rel: Ints, version: int) -> Ints:
    """`recall_cutoff` for every topic at once."""
    product = fraction * num_rel.astype(np.float64)
    if version == 9:
        return (product + 0.9).astype(np.int64)
    whole = np.floor(product)  # lround: halves away from zero (p and R are not negative)
    rounded: Ints = (whole + (product - whole >= 0.5)).astype(np.int64)
    return rounded


def interpolated(
    ranked: Topics, cum: Ints, rank: Ints, relevant: npt.NDArray[np.bool_],
    num_rel_ret: Ints, levels: tuple[float, ...], version: int,
) -> list[Floats]:  # fmt: skip
    """iprec at each recall level, per topic (trec_eval `m_iprec_at_recall.c`)."""
    precision = cum / rank
    ends = np.append(ranked.starts[1:], len(precision))
    best_below = np.empty_like(precision)
    for start, end in zip(ranked.starts.tolist(), ends.tolist(), strict=True):
        best_below[start:end] = np.maximum.accumulate(precision[start:end][::-1])[::-1]
    at_relevant = best_below[relevant]  # per relevant position, topic after topic
    first_relevant = np.concatenate(([0], np.cumsum(num_rel_ret)))[:-1]
    num_rel, found = ranked.num_rel, num_rel_ret
    empty = np.diff(np.append(ranked.starts, len(precision))) == 0
    curves = []
    for fraction in levels:
        needed = recall_cutoffs(fraction, num_rel, version)
        reached = (needed <= found) & (found > 0)
        at = first_relevant + np.maximum(needed, 1) - 1
        picked = at_relevant[np.where(reached, at, 0)] if len(at_relevant) else np.zeros(len(at))
        values = np.where(reached, picked, 0.0)
        values[(needed <= found) & empty] = math.nan  # nothing retrieved (-J): trec_eval's 0/0
        curves.append(values)
    return curves


def mean_reversed(curve: list[Floats]) -> Floats:
    """The mean over recall levels, summed from the last level down as trec_eval sums."""
    total = np.zeros_like(curve[0])
    for values in reversed(curve):
        total = total + values
    return total / len(curve)
