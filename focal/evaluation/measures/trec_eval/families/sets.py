"""trec_eval's measures of the retrieved set, whatever its order: the counts, utility and the
set_* family.

With n documents retrieved, R relevant, c(n) relevant among those retrieved:
- num_q (topics evaluated; the engine counts them), num_ret n, num_rel R, num_rel_ret c(n),
  num_nonrel_judged_ret the judged non-relevant documents retrieved.
- set_P = c(n)/n, set_recall = c(n)/R, set_relative_P = c(n)/min(n, R), set_map =
  c(n)² / (n·R) (computed so, as `m_set_map.c`, not as set_P · set_recall, which rounds
  differently), set_F = (1+x)·P·R ÷ (x·P + R), x = 1 unless given (`set_F.0.5`;
  trec_eval's x is the weight itself, not a squared β); 0 when nothing is found.
- utility: p1·c(n) + p2·(n − c(n)) + p3·(R − c(n)) + p4·(N − n − R + c(n)) with (1, −1, 0, 0)
  by default and N the collection size (`-N`, 0 unless given).
Reference: trec_eval 10.0 `m_num_*.c`, `m_set_*.c`, `m_utility.c`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.measure import (
    SET_NAMES,
    Context,
    Floats,
    Ints,
    Parameters,
    Row,
    TrecMeasure,
)

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


def retrieved(context: Context, row: Row) -> Ints:
    """num_ret."""
    return context.num_ret


def relevant(context: Context, row: Row) -> Ints:
    """num_rel."""
    return context.num_rel


def relevant_retrieved(context: Context, row: Row) -> Ints:
    """num_rel_ret."""
    return context.num_rel_ret


def nonrelevant_retrieved(context: Context, row: Row) -> Ints:
    """num_nonrel_judged_ret: the judged documents below the relevance level retrieved."""
    judged = (context.grades >= 0) & ~context.relevant
    counts: Ints = np.bincount(context.seg, judged, minlength=context.topics).astype(np.int64)
    return counts


def utility(context: Context, row: Row) -> Floats:
    """utility with the coefficients given (p1, p2, p3, p4)."""
    p = context.parameters(row.family)
    hits, num_ret, num_rel = context.num_rel_ret, context.num_ret, context.num_rel
    value: Floats = (p[0] * hits + p[1] * (num_ret - hits) + p[2] * (num_rel - hits)
                     + p[3] * (context.num_docs + hits - num_ret - num_rel)
                     ).astype(np.float64)  # fmt: skip
    return value


def set_measure(context: Context, row: Row) -> Floats:
    """set_P, set_recall, set_relative_P, set_map or set_F: one formula over c(n), n and R."""
    num_ret, num_rel = context.num_ret, context.num_rel
    hits = context.num_rel_ret.astype(np.float64)
    precision = np.divide(hits, num_ret, out=np.zeros(len(hits)), where=num_ret > 0)
    recall = np.divide(hits, num_rel, out=np.zeros(len(hits)), where=num_rel > 0)
    if row.family == "set_P":
        return precision
    if row.family == "set_recall":
        return recall
    if row.family == "set_map":  # c(n)·c(n) / (n·R), in C's order of operations
        ret_rel = (num_ret * num_rel).astype(np.float64)
        ratio: Floats = np.divide(hits * hits, ret_rel, out=np.zeros(len(hits)), where=ret_rel > 0)
        return ratio
    if row.family == "set_relative_P":
        limit = np.minimum(num_ret, num_rel)
        relative: Floats = np.divide(hits, limit, out=np.zeros(len(hits)), where=limit > 0)
        return relative
    weight = context.parameters("set_F")[0]  # trec_eval's x: recall weighs x times precision
    denominator = weight * precision + recall
    f_measure: Floats = np.divide(
        (weight + 1.0) * precision * recall, denominator, out=np.zeros(len(hits)),
        where=denominator > 0,
    )  # fmt: skip
    return f_measure


COUNTED = ("official", "all_trec", "set")
SET = ("all_trec", "set")
DECLARED = (
    TrecMeasure("num_q", 1, None, count=True, summary_only=True, ir_measures=("NumQ",),
                sets=SET_NAMES, definition="topics evaluated"),
    TrecMeasure("num_ret", 2, retrieved, count=True, reset_when_missing=True,
                ir_measures=("NumRet",), sets=COUNTED, definition="documents retrieved"),
    TrecMeasure("num_rel", 3, relevant, count=True, ir_measures=("NumRel",), rel=("NumRel",),
                sets=COUNTED, definition="relevant documents"),
    TrecMeasure("num_rel_ret", 4, relevant_retrieved, count=True, ir_measures=("NumRelRet",),
                rel=("NumRelRet",), sets=COUNTED, definition="relevant documents retrieved"),
    TrecMeasure("utility", 17, utility, Parameters("list", (1.0, -1.0, 0.0, 0.0), length=4),
                reset_when_missing=True, sets=SET),
    TrecMeasure("set_P", 30, set_measure, ir_measures=("SetP",), rel=("SetP",), sets=SET,
                definition="precision of the set"),
    TrecMeasure("set_relative_P", 31, set_measure, sets=SET),
    TrecMeasure("set_recall", 32, set_measure, ir_measures=("SetR",), rel=("SetR",), sets=SET,
                definition="recall of the set"),
    TrecMeasure("set_map", 33, set_measure, ir_measures=("SetAP",), rel=("SetAP",), sets=SET,
                definition="set_P × set_recall, as c(n)² / (n·R)"),
    TrecMeasure("set_F", 34, set_measure, Parameters("list", (1.0,)), ir_measures=("SetF",),
                rel=("SetF",), sets=SET, definition="F-measure of the set"),
    TrecMeasure("num_nonrel_judged_ret", 35, nonrelevant_retrieved, count=True,
                sets=("all_trec",)),
)  # fmt: skip
