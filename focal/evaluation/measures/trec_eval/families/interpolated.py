"""trec_eval's interpolated precision at recall levels: `iprec_at_recall_p` and `11pt_avg`.

At each recall level p the value is the highest precision at or below the rank where the
cut-off's relevant document was found (trec_eval `m_iprec_at_recall.c`); 11pt_avg is the mean
over its levels (`m_11pt_avg.c`). The cut-off is where trec_eval 9 and 10 differ
(`recall_cutoff`): `(long)(p·R + 0.9)` in 9, `lround(p·R)` in 10.

The two families share one curve: the best precision below each relevant document is found
once a call, and each level read from it once, whichever family asks first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.ideal import padded
from focal.evaluation.measures.trec_eval.families.measure import (
    RECALL_LEVELS,
    Context,
    Floats,
    Ints,
    Parameters,
    Row,
    TrecMeasure,
    parameter,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


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


@dataclass(frozen=True)
class Curve:
    """What every level reads: at each relevant position (topic after topic) the highest
    precision at or below it, where each topic's relevant positions start, and the topics
    that retrieved nothing."""

    at_relevant: Floats
    first_relevant: Ints
    empty: npt.NDArray[np.bool_]


def _best_below(precision: Floats, starts: Ints, sizes: Ints) -> Floats:
    """At each relevant position the highest precision at or below it in its topic (given the
    precision at its relevant positions: below a relevant document, precision is highest at
    the relevant ones, c(k)/j < c(k)/k at a rank j past the k-th; so the same maximum as over
    every position, from a third of them): a running maximum from each topic's last relevant
    position up, in a matrix of the topics padded with -inf (maxima are exact, so the matrix
    and a topic's own pass agree); topic by topic when padding would cost more than four times
    the values."""
    width = int(sizes.max(initial=0))
    if len(sizes) * width > 4 * len(precision) + 4096:
        best = np.empty_like(precision)
        for start, end in zip(starts.tolist(), (starts + sizes).tolist(), strict=True):
            best[start:end] = np.maximum.accumulate(precision[start:end][::-1])[::-1]
        return best
    matrix, inside = padded(precision, sizes, width, -np.inf)
    found: Floats = np.maximum.accumulate(matrix[:, ::-1], axis=1)[:, ::-1][inside]
    return found


def _curve(context: Context) -> Curve:
    def build() -> Curve:
        first_relevant = np.concatenate(([0], np.cumsum(context.num_rel_ret)))[:-1]
        best_below = _best_below(context.precision_found, first_relevant, context.num_rel_ret)
        return Curve(best_below, first_relevant, context.num_ret == 0)

    return context.shared("interpolated", build)


def at_level(context: Context, fraction: float) -> Floats:
    """iprec at recall level `fraction`, per topic."""

    def build() -> Floats:
        curve, found = _curve(context), context.num_rel_ret
        needed = recall_cutoffs(fraction, context.num_rel, context.version)
        reached = (needed <= found) & (found > 0)
        at = curve.first_relevant + np.maximum(needed, 1) - 1
        picked = (curve.at_relevant[np.where(reached, at, 0)] if len(curve.at_relevant)
                  else np.zeros(len(at)))  # fmt: skip
        values: Floats = np.where(reached, picked, 0.0)
        values[(needed <= found) & curve.empty] = math.nan  # nothing retrieved (-J): 0/0
        return values

    return context.shared(("iprec_at_recall", fraction), build)


def interpolated_precision(context: Context, row: Row) -> Floats:
    """iprec_at_recall_p."""
    return at_level(context, parameter(row))


def eleven_point_average(context: Context, row: Row) -> Floats:
    """11pt_avg: the mean over the levels given, summed from the last level down as trec_eval
    sums."""
    levels = context.parameters(row.family)
    total = np.zeros(context.topics)
    for fraction in reversed(levels):
        total = total + at_level(context, fraction)
    mean: Floats = total / len(levels)
    return mean


DECLARED = (
    TrecMeasure("iprec_at_recall", 10, interpolated_precision,
                Parameters("levels", RECALL_LEVELS), ir_measures=("IPrec@k",), rel=("IPrec",),
                sets=("official", "all_trec"), definition="interpolated precision at recall x"),
    TrecMeasure("11pt_avg", 18, eleven_point_average, Parameters("list", RECALL_LEVELS),
                sets=("all_trec",)),
)  # fmt: skip
