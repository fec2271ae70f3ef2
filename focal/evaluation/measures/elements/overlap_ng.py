"""inex_eval_ng: overlap-aware recall and precision (INEX 2003; seed 001 eq. 5-7).

For the result c_i at rank i, |c'_i| is the number of its characters that no result at an
earlier rank covered (eq. 7). With e(c) and s(c) the per-dimension quantisations
(`quantisation.dimensions_2004` / `dimensions_2005`):

    recall_o[k]    = sum_{i<=k} e(c_i) * |c'_i| / |c_i|  /  sum over the recall base of e(c)
    precision_o[k] = sum_{i<=k} s(c_i) * |c'_i|  /  sum_{i<=k} |c'_i|

The seed does not say how the (recall_o, precision_o) points become one number; Focal
interpolates as the INEX programs did for their curves, iP(x) = max{precision_o[k] :
recall_o[k] >= x} (0 when no rank reaches x), at the 100 levels 0.01 ... 1.00, and reports
their mean as `inex_eval_ng`. An element without text (|c| = 0) adds nothing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from focal.evaluation.measures.elements.precall import LEVELS

REFERENCE = (
    "N. Gövert, N. Fuhr, M. Lalmas, G. Kazai: Evaluating the effectiveness of content-oriented "
    "XML retrieval methods, Information Retrieval 9(6), 2006 (inex_eval_ng); seed 001 eq. 5-7."
)


@dataclass(frozen=True, slots=True)
class SpanResult:
    """A result as inex_eval_ng needs it: its article, span and per-dimension values."""

    article: str
    start: int
    end: int
    e: float
    s: float


def unseen_sizes(results: Sequence[SpanResult]) -> list[int]:
    """|c'_i| of each result: characters not covered by the results before it (eq. 7).

    >>> unseen_sizes([SpanResult("a", 0, 10, 1, 1), SpanResult("a", 5, 20, 1, 1),
    ...               SpanResult("a", 2, 8, 1, 1)])
    [10, 10, 0]
    """
    covered: dict[str, tuple[list[int], list[int]]] = {}
    out = []
    for r in results:
        starts, ends = covered.setdefault(r.article, ([], []))
        start, end = r.start, r.end
        if end <= start:
            out.append(0)
            continue
        low = bisect_left(ends, start)
        high = bisect_right(starts, end)
        seen = 0
        for s, e in zip(starts[low:high], ends[low:high], strict=True):
            seen += max(0, min(e, end) - max(s, start))
        out.append(end - start - seen)
        if low < high:
            start, end = min(start, starts[low]), max(end, ends[high - 1])
        starts[low:high] = [start]
        ends[low:high] = [end]
    return out


def ng_points(results: Sequence[SpanResult], total_e: float) -> tuple[list[float], list[float]]:
    """(recall_o[k], precision_o[k]) for k = 1 ... n (eq. 5, 6).

    Worked: a (0, 10) with e = s = 1, then its half (0, 5) with e = s = 1, then b (0, 10) with
    e = s = 0; recall base total 2. Unseen sizes 10, 0, 10. recall_o = 1/2, 1/2, 1/2;
    precision_o = 10/10, 10/10, 10/20.

    >>> ng_points([SpanResult("a", 0, 10, 1, 1), SpanResult("a", 0, 5, 1, 1),
    ...            SpanResult("b", 0, 10, 0, 0)], 2.0)
    ([0.5, 0.5, 0.5], [1.0, 1.0, 0.5])
    """
    unseen = np.asarray(unseen_sizes(results), dtype=np.float64)
    sizes = np.fromiter((r.end - r.start for r in results), np.float64, len(results))
    e = np.fromiter((r.e for r in results), np.float64, len(results))
    s = np.fromiter((r.s for r in results), np.float64, len(results))
    share = np.divide(unseen, sizes, out=np.zeros_like(unseen), where=sizes > 0)
    recall = np.cumsum(e * share) / total_e if total_e > 0 else np.zeros(len(results))
    read = np.cumsum(unseen)
    gained = np.cumsum(s * unseen)
    precision = np.divide(gained, read, out=np.zeros_like(read), where=read > 0)
    return recall.tolist(), precision.tolist()


def interpolated(recall: Sequence[float], precision: Sequence[float]) -> list[float]:
    """iP(x) = max{precision[k] : recall[k] >= x} at x = 0.01 ... 1.00 (0 when unreached).

    Reference: the interpolation of the INEX 2002-2006 evaluation programs (module docstring).

    >>> curve = interpolated([0.5, 1.0], [1.0, 0.5])
    >>> curve[0], curve[49], curve[50], curve[99]
    (1.0, 1.0, 0.5, 0.5)
    """
    if not recall:
        return [0.0] * len(LEVELS)
    best_after = np.maximum.accumulate(np.asarray(precision, dtype=np.float64)[::-1])[::-1]
    recall_array = np.asarray(recall, dtype=np.float64)
    # recall is non-decreasing: the first rank reaching x has the max of all later precisions
    reach = np.searchsorted(recall_array, np.asarray(LEVELS) - 1e-12, side="left")
    return [float(best_after[i]) if i < len(recall) else 0.0 for i in reach.tolist()]


def inex_eval_ng(results: Sequence[SpanResult], total_e: float) -> tuple[float, list[float]]:
    """The mean of the interpolated precision_o curve, and the curve (module docstring).

    Reference: seed 001 eq. 5-7.

    >>> inex_eval_ng([SpanResult("a", 0, 10, 1.0, 1.0)], 1.0)[0]
    1.0
    """
    curve = interpolated(*ng_points(results, total_e))
    return sum(curve) / len(curve), curve
