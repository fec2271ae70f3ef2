"""trec_eval's measures weighted to the top of the ranking, and of its unjudged documents:
rbp, rbp_resid, unj and relstring, topic by topic.

- rbp: (1 − p)·Σ g(r)·p^(r−1), gains (`gain_table`) rescaled to [0, 1] when any lies outside,
  p = 0.9 unless `rbp.p=0.8` (Moffat & Zobel, TOIS 2008); rbp_resid: p^n + (1 − p)·Σ over
  unjudged r of p^(r−1), 0 when every retrieved document is judged.
- unj_k: documents outside the pool or unjudged in the first k, ÷ k.
- relstring: the grades of the first 10 (or `relstring.20`) documents as a string: a digit per
  grade 0-9, `>` above 9, `-` outside the pool, `.` unjudged.
- gdeval: gdeval.pl's nDCG@k (exponential gains) and ERR@k, which trec_eval lacks, for
  ir_measures' names (`gdeval`, computed apart by `engine.vocabulary`).
Reference: trec_eval 10.0 `m_rbp.c`, `m_rbp_resid.c`, `m_unj.c`, `m_relstring.c`; with -c,
10.0 resets rbp_resid, unj and relstring on a topic the run misses (`trec_eval.c`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.gain_table import gained_flat, level_tables
from focal.evaluation.measures.trec_eval.families.measure import (
    NONPOOL,
    UNJUDGED,
    Context,
    Floats,
    Ints,
    Parameters,
    Ranked,
    Row,
    TrecMeasure,
    parameter,
)

RBP_PERSISTENCE = 0.9
UNJUDGED_CUTS = (5, 10, 20)
MOFFAT_2008 = (
    "Moffat & Zobel: Rank-biased precision for measurement of retrieval effectiveness, TOIS 2008"
)

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


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


def _rescaled(gains: Floats) -> Floats:
    """The gains rescaled to [0, 1] when any lies outside (`m_rbp.c`): g ↦ (g − low)/(high −
    low), low and high the least and greatest of 0 and the gains. 10.0 leaves its min and max
    uninitialised, and its built program (on every table tried, in every order of topics and
    measures) rescales as if both start at 0: a table of one level, or of equal gains, outside
    [0, 1] then has a range of its own (rbp.0=2: 2 ↦ 1), and no range is ever 0 (docs/
    trec_eval.md, "Where 10.0's behaviour is not defined")."""
    low, high = min([0.0, *gains.tolist()]), max([0.0, *gains.tolist()])
    if low < 0 or high > 1:
        rescaled: Floats = (gains - low) / (high - low)
        return rescaled
    return gains


def rank_biased_precision(context: Context, row: Row) -> Floats:
    """rbp: (1 − p)·Σ g(r)·p^(r−1), each topic's terms added in rank order (`np.bincount`
    adds them one after the other, as trec_eval's loop; a 0 it adds changes no sum)."""
    p = _persistence(context, row.family)
    tables = level_tables(context, row.family)
    gained = gained_flat(context, tables, [_rescaled(gains) for gains in tables.gains])
    ranks = context.rank  # (a topic's powers are the first ones of the longest topic's)
    powers = _powers(p, int(ranks.max()) if len(ranks) else 0)
    at = np.flatnonzero(gained)  # (a 0 adds nothing: `Context.total_at`)
    sums = context.total_at(context.seg[at], gained[at] * powers[ranks[at] - 1])
    rbp: Floats = (1.0 - p) * sums
    return rbp


def rbp_residual(context: Context, row: Row) -> Floats:
    """rbp_resid: p^n + (1 − p)·Σ over unjudged r of p^(r−1), the unjudged ranks' powers added
    in rank order (`Context.total_at`); 0 for a topic without unjudged documents."""
    p = _persistence(context, row.family)
    sizes = context.num_ret
    powers = _powers(p, int(sizes.max(initial=0)))  # (a topic's are the longest one's first)
    unjudged = np.flatnonzero(context.grades < 0)
    seg = context.seg[unjudged]
    sums = context.total_at(seg, powers[context.rank[unjudged] - 1])
    some = np.bincount(seg, minlength=context.topics) > 0
    resid: Floats = np.where(some, powers[sizes] + (1 - p) * sums, 0.0)
    return resid


def unjudged_at(context: Context, row: Row) -> Floats:
    """unj_k: the share of the first k ranks holding documents without a judgement."""
    cut = int(parameter(row))
    seg, rank = context.shared("unjudged", lambda: _unjudged(context))
    found = np.bincount(seg[rank <= cut], minlength=context.topics).astype(np.float64)
    share: Floats = found / cut
    return share


def _unjudged(context: Context) -> tuple[Ints, Ints]:
    """The topic and rank of each document without a judgement, for every cut-off of unj."""
    at = np.flatnonzero(context.grades < 0)
    return context.seg[at], context.rank[at]


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


GDEVAL_MAX_GRADE = 4  # gdeval.pl's MAX_JUDGMENT: ERR's stop probability is (2^g − 1) / 2^4


def gdeval(ranked: Ranked, k: int) -> tuple[Floats, Floats]:
    """nDCG@k with exponential gains and ERR@k per topic, as the TREC Web track's gdeval.pl
    computes them (ir_measures' gdeval provider: `nDCG(dcg='exp-log2')@k`, `ERR@k`): gain
    2^g − 1 (a grade below 1 or a document outside the qrels gains 0), discount ln(r + 1), the
    ideal from the topic's grades above 0; ERR = Σ R(r)/r · Π_{i<r} (1 − R(i)) with
    R = (2^g − 1)/2^4 (Chapelle et al., CIKM 2009). Ranks are trec_eval's (score descending,
    then document id descending), which is gdeval.pl's order too. A grade above 4 is refused,
    as gdeval.pl refuses it."""
    count = len(ranked.starts)
    ndcg, err = np.zeros(count), np.zeros(count)
    ends = np.append(ranked.starts[1:], len(ranked.grades)).tolist()
    for topic, (start, end) in enumerate(zip(ranked.starts.tolist(), ends, strict=True)):
        per_grade = ranked.levels[topic] if ranked.levels else np.zeros(0, dtype=np.int64)
        if len(per_grade) > GDEVAL_MAX_GRADE + 1 and per_grade[GDEVAL_MAX_GRADE + 1 :].any():
            highest = len(per_grade) - 1
            raise ValueError(f"gdeval's nDCG and ERR take grades up to {GDEVAL_MAX_GRADE} "
                             f"(gdeval.pl's maximum judgement); found {highest}")  # fmt: skip
        grades = np.clip(ranked.grades[start : min(end, start + k)], 0, None).astype(np.float64)
        gains = np.exp2(grades) - 1.0
        discounts = np.log(np.arange(2, len(gains) + 2, dtype=np.float64))
        best = np.repeat(np.arange(len(per_grade))[::-1], per_grade[::-1])[:k]
        best = best[best > 0].astype(np.float64)
        ideal = float(np.sum((np.exp2(best) - 1.0) / np.log(np.arange(2, len(best) + 2))))
        if ideal > 0:
            ndcg[topic] = float(np.sum(gains / discounts)) / ideal
        stop = gains / 2.0**GDEVAL_MAX_GRADE
        reach = np.cumprod(np.concatenate(([1.0], 1.0 - stop[:-1])))
        err[topic] = float(np.sum(stop * reach / np.arange(1, len(stop) + 1)))
    return ndcg, err
