"""trec_eval's measures weighted to the top of the ranking, and of its unjudged documents:
rbp, rbp_resid, unj and relstring, topic by topic.

- rbp: (1 − p)·Σ g(r)·p^(r−1), gains (`gain_table`) rescaled to [0, 1] when any lies outside,
  p = 0.9 unless `rbp.p=0.8` (Moffat & Zobel, TOIS 2008); rbp_resid: p^n + (1 − p)·Σ over
  unjudged r of p^(r−1), 0 when every retrieved document is judged.
- unj_k: documents outside the pool or unjudged in the first k, ÷ k.
- relstring: the grades of the first 10 (or `relstring.20`) documents as a string: a digit per
  grade 0-9, `>` above 9, `-` outside the pool, `.` unjudged.
Reference: trec_eval 10.0 `m_rbp.c`, `m_rbp_resid.c`, `m_unj.c`, `m_relstring.c`; with -c,
10.0 resets rbp_resid, unj and relstring on a topic the run misses (`trec_eval.c`).
"""

from __future__ import annotations

import numpy as np

from focal.evaluation.measures.trec_eval.families.gain_table import Gain, gain_of, tables
from focal.evaluation.measures.trec_eval.families.measure import (
    NONPOOL,
    UNJUDGED,
    Context,
    Floats,
    Ints,
    Parameters,
    Row,
    TrecMeasure,
    parameter,
)

RBP_PERSISTENCE = 0.9
UNJUDGED_CUTS = (5, 10, 20)
MOFFAT_2008 = (
    "Moffat & Zobel: Rank-biased precision for measurement of retrieval effectiveness, TOIS 2008"
)


def _persistence(context: Context, family: str) -> float:
    p = RBP_PERSISTENCE
    for name, value in context.pairs(family):
        if name == "p":
            p = value
    return p


def _powers(p: float, size: int) -> Floats:
    """1, p, p², ..., p^size as trec_eval forms them, one multiplication per rank (pow differs
    in the last bits)."""
    steps = np.full(size + 1, p, dtype=np.float64)
    steps[0] = 1.0
    return np.cumprod(steps).astype(np.float64)


def _ordered_sum(values: Floats) -> float:
    total = 0.0
    for value in values.tolist():
        total += value
    return total


def _rescaled(table: list[Gain]) -> list[Gain]:
    """The gains rescaled to [0, 1] when any lies outside (`m_rbp.c`)."""
    low = min(g.gain for g in table) if table else 0.0
    high = max(g.gain for g in table) if table else 0.0
    if low < 0 or high > 1:
        return [Gain(g.grade, (g.gain - low) / (high - low), g.count) for g in table]
    return table


def rank_biased_precision(context: Context, row: Row) -> Floats:
    """rbp: (1 − p)·Σ g(r)·p^(r−1)."""
    p = _persistence(context, row.family)
    values = []
    for table, grades in zip(tables(context, row.family), context.topic_grades, strict=True):
        weights = _powers(p, len(grades))[:-1]
        gained = gain_of(_rescaled(table), grades)
        values.append((1.0 - p) * _ordered_sum(np.where(gained != 0, gained * weights, 0.0)))
    return np.array(values, dtype=np.float64)


def rbp_residual(context: Context, row: Row) -> Floats:
    """rbp_resid: p^n + (1 − p)·Σ over unjudged r of p^(r−1)."""
    p = _persistence(context, row.family)
    values = []
    for grades in context.topic_grades:
        unjudged = grades < 0
        if not unjudged.any():
            values.append(0.0)
            continue
        powers = _powers(p, len(grades))
        values.append(float(powers[-1]) + (1 - p) * _ordered_sum(powers[:-1][unjudged]))
    return np.array(values, dtype=np.float64)


def unjudged_at(context: Context, row: Row) -> Floats:
    """unj_k: the share of the first k ranks holding documents without a judgement."""
    cut = int(parameter(row))
    values = [float(np.count_nonzero(grades[:cut] < 0)) / cut for grades in context.topic_grades]
    return np.array(values, dtype=np.float64)


def _relstring(grades: Ints, length: float) -> str:
    out = []
    for grade in grades[: max(int(length), 0)].tolist():
        if grade > 9:
            out.append(">")
        elif grade >= 0:
            out.append(str(grade))
        else:
            out.append({NONPOOL: "-", UNJUDGED: "."}.get(grade, "<"))
    return "".join(out)


def relstring(context: Context, row: Row) -> list[str]:
    """relstring: the first 10 (or as many as given) grades as characters."""
    length = context.parameters(row.family)[0] or 10.0
    return [_relstring(grades, length) for grades in context.topic_grades]


DECLARED = (
    TrecMeasure("relstring", 12, relstring, Parameters("list", (10.0,)), text=True,
                reset_when_missing=True, sets=("all_trec",)),
    TrecMeasure("rbp", 54, rank_biased_precision, Parameters("pairs"), sets=("all_trec",),
                citation=MOFFAT_2008),
    TrecMeasure("rbp_resid", 55, rbp_residual, Parameters("pairs"), reset_when_missing=True,
                sets=("all_trec",), citation=MOFFAT_2008),
    TrecMeasure("unj", 56, unjudged_at, Parameters("cutoffs", UNJUDGED_CUTS),
                reset_when_missing=True, sets=("all_trec",)),
)  # fmt: skip
