"""trec_eval's cumulated-gain measures: ndcg, ndcg_cut, dcg, ideal_dcg, ndcg_rel, Rndcg, G
and binG.

With r the rank, g(r) the gain at r and I(r) the ideal gain at r (`gain_table`):
- ndcg: Σ g(r)/log2(r+1) ÷ Σ I(r)/log2(r+1) (Järvelin & Kekäläinen, TOIS 2002); dcg and
  ideal_dcg are the two sums; ndcg_cut_k: both sums over ranks 1..k. Without gains given
  (`ndcg.1=3,2=9`) the gain is the grade (> 0): a few array passes over the whole run, the
  normaliser read from the qrels' ideal DCG (`ideal`); the level plays no part.
- ndcg_rel: the mean, over relevant ranks (and the relevant documents not retrieved, at the
  final value), of ndcg so far; Rndcg: the mean of ndcg taken where the ideal gain changes
  (so at R for binary judgements: R-normalised ndcg).
- G: Σ g(r)/log2(2 + cost(r) − Σ_{s≤r} g(s)) ÷ Σ I(r), cost(r) the ideal gains so far with
  each below 1 counted as 1 (Sakai's Q-measure family as trec_eval states it).
- binG: Σ over relevant r of 1/log2(2 + r − c(r)), ÷ R.

The loops follow trec_eval's per-topic order of operations (`m_ndcg.c`, `m_dcg.c`,
`m_ideal_dcg.c`, `m_ndcg_rel.c`, `m_Rndcg.c`, `m_G.c`), so that its values come out to the
last bit; they run only for the families asked for.
"""

from __future__ import annotations

import math

import numpy as np

from focal.evaluation.measures.trec_eval.families.gain_table import (
    TopicGains,
    log2_ranks,
    per_topic,
)
from focal.evaluation.measures.trec_eval.families.measure import (
    LONG_CUTS,
    Context,
    Floats,
    Parameters,
    Row,
    TrecMeasure,
)

JARVELIN_2002 = "Järvelin & Kekäläinen: Cumulated gain-based evaluation of IR techniques, TOIS 2002"


def _discounted(gained: list[float]) -> float:
    found, log2 = 0.0, log2_ranks(len(gained))
    for i, g in enumerate(gained):
        if g != 0:
            found += g / log2[i]
    return found


def _dcg(topic: TopicGains) -> float:
    return _discounted(topic.gained)


def _ideal_dcg(topic: TopicGains) -> float:
    return _discounted(topic.ideal())


def _ndcg(topic: TopicGains) -> float:
    found, best = _dcg(topic), _ideal_dcg(topic)
    return found / best if best > 0.0 else 0.0


def dcg(context: Context, row: Row) -> Floats:
    """dcg: Σ g(r)/log2(r+1)."""
    return per_topic(context, row.family, _dcg)


def ideal_dcg(context: Context, row: Row) -> Floats:
    """ideal_dcg: Σ I(r)/log2(r+1)."""
    return per_topic(context, row.family, _ideal_dcg)


def ndcg(context: Context, row: Row) -> Floats:
    """ndcg and ndcg_cut_k: with gains given topic by topic, else on the run's arrays."""
    if context.pairs(row.family):
        return per_topic(context, row.family, _ndcg)
    cut = None if row.parameter is None else int(row.parameter)
    grades, rank = context.grades, context.rank
    kept = np.arange(len(grades)) if cut is None else np.flatnonzero(rank <= cut)
    gains = np.where(grades[kept] > 0, grades[kept], 0) / np.log2(rank[kept] + 1.0)
    found = context.total_at(context.seg[kept], gains)
    best = context.ranked.ideal.at(cut)
    ratio: Floats = np.divide(found, best, out=np.zeros(len(found)), where=best > 0)
    return ratio


def _ratio(numerator: float, denominator: float) -> float:
    """A C double division: x/0 is ±inf, 0/0 NaN."""
    if denominator:
        return numerator / denominator
    return math.nan if numerator == 0 else math.copysign(math.inf, numerator)


def _ndcg_rel(topic: TopicGains) -> float:
    """`m_ndcg_rel.c`, step for step (a relevant document past the ideal's end divides by the
    ideal DCG so far; a topic without positive ideal gains scores 0, its sum being NaN). The
    ideal gain is positive before step i exactly while i < len(steps) (`walk_steps`)."""
    gained, steps = topic.gained, topic.steps
    n, m = len(gained), len(steps)
    log2 = log2_ranks(max(n, m))
    results = best = total = 0.0
    relevant = found = i = 0
    while i < n and i < m:
        if gained[i] != 0:
            results += gained[i] / log2[i]
        if steps[i] > 0.0:
            relevant += 1
            best += steps[i] / log2[i]
        if gained[i] > 0:
            total += results / best if best else _ratio(results, best)
            found += 1
        i += 1
    while i < n:
        if gained[i] != 0:
            results += gained[i] / log2[i]
        if gained[i] > 0:
            total += results / best if best else _ratio(results, best)
            found += 1
        i += 1
    while i < m:
        if steps[i] > 0.0:
            relevant += 1
            best += steps[i] / log2[i]
        i += 1
    total += _ratio((relevant - found) * results, best)  # (no ideal gain: ∞ − ∞, NaN)
    return total / relevant if total > 0.0 else 0.0


def ndcg_rel(context: Context, row: Row) -> Floats:
    """ndcg_rel: ndcg averaged over the relevant ranks."""
    return per_topic(context, row.family, _ndcg_rel)


def _rndcg(topic: TopicGains) -> float:
    """`m_Rndcg.c`, step for step: ndcg is sampled wherever the ideal gain changes (the ideal
    gain is positive before step i exactly while i < len(steps): `walk_steps`)."""
    if not topic.num_rel:
        return 0.0
    gained, steps = topic.gained, topic.steps
    n, m = len(gained), len(steps)
    log2 = log2_ranks(max(n, m))
    results = best = total = 0.0
    changes = i = 0
    previous = topic.first
    while i < n and i < m:
        if steps[i] != previous:
            if best > 0.0:
                total += results / best
                changes += 1
            previous = steps[i]
        if gained[i] != 0:
            results += gained[i] / log2[i]
        if steps[i] > 0.0:
            best += steps[i] / log2[i]
        i += 1
    if i < n:
        for j in range(i, n):
            if gained[j] != 0:
                results += gained[j] / log2[j]
        i = n
        if best > 0.0:
            total += results / best
            changes += 1
    while i < m:
        if steps[i] != previous:
            if best > 0.0:
                total += results / best
                changes += 1
            previous = steps[i]
        if steps[i] > 0.0:
            best += steps[i] / log2[i]
        i += 1
    return total / changes if changes else math.nan


def r_ndcg(context: Context, row: Row) -> Floats:
    """Rndcg: ndcg sampled where the ideal gain changes, averaged."""
    return per_topic(context, row.family, _rndcg)


def _g(topic: TopicGains) -> float:
    """`m_G.c`: the cost of a rank is its ideal gain, at least 1."""
    gained, steps = topic.gained, topic.steps
    n, m = len(gained), len(steps)
    value = so_far = cost = 0.0
    i = 0
    while i < n and i < m:
        so_far += gained[i]
        step = steps[i]
        cost += step if step >= 1.0 else 1.0
        if gained[i] != 0:
            value += gained[i] / math.log2(2 + cost - so_far)
        i += 1
    while i < n:
        so_far += gained[i]
        cost += 1.0
        if gained[i] != 0:
            value += gained[i] / math.log2(2 + cost - so_far)
        i += 1
    total = sum(topic.ideal())
    return value / total if total > 0.0 else 0.0


def g_measure(context: Context, row: Row) -> Floats:
    """G."""
    return per_topic(context, row.family, _g)


def binary_g(context: Context, row: Row) -> Floats:
    """binG: Σ over relevant r of 1/log2(2 + r − c(r)), ÷ R."""
    terms = np.where(context.relevant,
                     1.0 / np.log2(2.0 + context.rank - context.cumulative), 0.0)  # fmt: skip
    return context.per_rel(context.total(terms))


PAIRS = Parameters("pairs")
TREC = ("all_trec",)
DECLARED = (
    TrecMeasure("binG", 19, binary_g, sets=TREC),
    TrecMeasure("G", 20, g_measure, PAIRS, sets=TREC),
    TrecMeasure("dcg", 21, dcg, PAIRS),
    TrecMeasure("ideal_dcg", 22, ideal_dcg, PAIRS),
    TrecMeasure("ndcg", 23, ndcg, PAIRS, ir_measures=("nDCG",), sets=TREC,
                definition="nDCG over the whole ranking, gain = grade", citation=JARVELIN_2002),
    TrecMeasure("ndcg_rel", 24, ndcg_rel, PAIRS, sets=TREC),
    TrecMeasure("Rndcg", 25, r_ndcg, PAIRS, sets=TREC),
    TrecMeasure("ndcg_cut", 26, ndcg, Parameters("cutoffs", LONG_CUTS), focal=("nDCG@k",),
                ir_measures=("nDCG@k",), sets=TREC, definition="nDCG@k, gain = the qrels grade",
                citation=JARVELIN_2002),
)  # fmt: skip
