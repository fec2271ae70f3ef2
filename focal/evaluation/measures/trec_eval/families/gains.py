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
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.gain_table import GainBlock, per_topic
from focal.evaluation.measures.trec_eval.families.ideal import IdealDCG, log2_ranks, running_sums
from focal.evaluation.measures.trec_eval.families.measure import (
    LONG_CUTS,
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

JARVELIN_2002 = "Järvelin & Kekäläinen: Cumulated gain-based evaluation of IR techniques, TOIS 2002"


def _sums(terms: Floats) -> Floats:
    """Running sums along each row, rank after rank (`np.cumsum` adds in sequence: the loops'
    own additions, a 0 added where they add nothing)."""
    return np.cumsum(terms, axis=1)


def _row_sums(at: Ints, terms: Floats, shape: tuple[int, ...]) -> Floats:
    """Each row's sum of the `terms` at the flat positions `at` (ascending) of a matrix of
    `shape`, from 0.0 in rank order as trec_eval's loops add (`np.bincount` adds one term
    after the other; a 0 a loop adds changes no such sum)."""
    return np.bincount(at // max(shape[1], 1), terms, minlength=shape[0]).astype(np.float64)


def _last(sums: Floats) -> Floats:
    """Each row's last running sum (0 for a block without columns)."""
    return sums[:, -1] if sums.shape[1] else np.zeros(len(sums), dtype=np.float64)


def _discounted(block: GainBlock) -> tuple[Floats, Floats]:
    """The running DCG of the run (gains ≠ 0, each ÷ its rank's log2) and of the ideal
    ranking (its positive steps), rank by rank: `results` and `best` of `m_ndcg_rel.c`
    (built once a block: ndcg_rel and Rndcg read them)."""

    def build() -> tuple[Floats, Floats]:
        gained, steps, zero = block.gained, block.steps, np.zeros_like(block.gained)
        found = _sums(np.divide(gained, block.log2, out=zero.copy(), where=gained != 0))
        best = _sums(np.divide(steps, block.log2, out=zero, where=steps > 0.0))
        return found, best

    return block.keep("discounted", build)


def _dcg(block: GainBlock) -> Floats:
    return _last(_discounted(block)[0])


def _ideal_dcg(block: GainBlock) -> Floats:
    return _last(_discounted(block)[1])  # (the ideal gains are the positive steps)


def _ndcg(block: GainBlock) -> Floats:
    found, best = (_last(sums) for sums in _discounted(block))
    return np.divide(found, best, out=np.zeros(len(found)), where=best > 0.0)


def dcg(context: Context, row: Row) -> Floats:
    """dcg: Σ g(r)/log2(r+1)."""
    return per_topic(context, row.family, _dcg)


def ideal_dcg(context: Context, row: Row) -> Floats:
    """ideal_dcg: Σ I(r)/log2(r+1)."""
    return per_topic(context, row.family, _ideal_dcg)


def ndcg(context: Context, row: Row) -> Floats:
    """ndcg and ndcg_cut_k: with gains given topic by topic, else on the run's arrays (each
    topic's DCG at every rank, its terms added in rank order, shared by the cut-offs)."""
    if context.pairs(row.family):
        return per_topic(context, row.family, _ndcg)
    cut = None if row.parameter is None else int(row.parameter)
    found = context.shared("dcg sums", lambda: _dcg_sums(context)).at(cut)
    best = context.ranked.ideal.at(cut)
    ratio: Floats = np.divide(found, best, out=np.zeros(len(found)), where=best > 0)
    return ratio


def _dcg_sums(context: Context) -> IdealDCG:
    """Each topic's running DCG with the grade as gain (0 below 1), rank by rank."""
    grades = context.grades
    terms = np.where(grades > 0, grades, 0) / np.log2(context.rank + 1.0)
    return running_sums(terms, context.num_ret)


def _ratio(numerator: Floats, denominator: Floats) -> Floats:
    """C double divisions: x/0 is ±inf, 0/0 NaN."""
    quotient: Floats = numerator / denominator
    zero = denominator == 0
    quotient[zero] = np.where(numerator[zero] == 0, np.nan, np.copysign(np.inf, numerator[zero]))
    return quotient


def _ndcg_rel(block: GainBlock) -> Floats:
    """`m_ndcg_rel.c`: at each relevant rank, the DCG so far ÷ the ideal DCG so far (past the
    ideal's end, its whole DCG), summed in rank order; the relevant documents not retrieved
    add the final ratio each; ÷ the relevant count (a topic without positive ideal gains
    scores 0, its sum being NaN)."""
    found, best = _discounted(block)
    relevant = (block.steps > 0.0).sum(axis=1)
    hit = np.flatnonzero(block.gained > 0)
    total = _row_sums(hit, _ratio(found.ravel()[hit], best.ravel()[hit]), found.shape)
    missed = relevant - np.bincount(hit // max(found.shape[1], 1), minlength=len(found))
    missed = missed.astype(np.float64)
    total += _ratio(missed * _last(found), _last(best))
    return np.where(total > 0.0, total / relevant, 0.0)


def ndcg_rel(context: Context, row: Row) -> Floats:
    """ndcg_rel: ndcg averaged over the relevant ranks."""
    return per_topic(context, row.family, _ndcg_rel)


def _rndcg(block: GainBlock) -> Floats:
    """`m_Rndcg.c`: ndcg is sampled before each rank where the ideal gain changes (while the
    ideal DCG is positive), and once more after the run when it is longer than the ideal
    walk; the samples' mean (NaN without one; 0 for a topic without relevant documents)."""
    found, best = _discounted(block)
    steps, walked = block.steps, block.walked
    before_best = np.hstack([np.zeros((len(steps), 1)), best[:, :-1]])
    previous = np.hstack([block.first[:, None], steps[:, :-1]])
    walking = np.arange(steps.shape[1]) < walked[:, None]
    sampled = np.flatnonzero(walking & (steps != previous) & (before_best > 0.0))
    before = sampled - 1  # (never a row's first column: nothing is before it)
    total = _row_sums(sampled, found.ravel()[before] / best.ravel()[before], found.shape)
    results, ideal = _last(found), _last(best)
    after = (block.retrieved > walked) & (ideal > 0.0)
    total[after] += results[after] / ideal[after]
    changes = np.bincount(sampled // max(steps.shape[1], 1), minlength=len(steps)) + after
    value = np.where(changes > 0, total / changes, np.nan)
    return np.where(block.num_rel > 0, value, 0.0)


def r_ndcg(context: Context, row: Row) -> Floats:
    """Rndcg: ndcg sampled where the ideal gain changes, averaged."""
    return per_topic(context, row.family, _rndcg)


_WHOLE = 1 << 16  # whole numbers below this take their log2 from `log2_ranks`' table


def _log2(values: Floats) -> Floats:
    """C's log2 of each value (the C library's, as trec_eval calls it): log2(0) is -inf, of a
    negative number NaN. Whole numbers (G's, with whole gains) are read from `log2_ranks`'
    table of the same function's values; others are computed once for each distinct value."""
    whole = (values >= 0.0) & (values < _WHOLE) & (np.floor(values) == values)
    if whole.all():
        top = int(values.max(initial=0.0))
        table = np.array([-math.inf, 0.0, *log2_ranks(top)[: max(top - 1, 0)]])
        found: Floats = table[values.astype(np.int64)]
        return found
    distinct, back = np.unique(values, return_inverse=True)
    logs = [math.log2(x) if x > 0.0 else -math.inf if x == 0.0 else math.nan
            for x in distinct.tolist()]  # fmt: skip
    found = np.array(logs, dtype=np.float64)[back.reshape(-1)]
    return found


def _g(block: GainBlock) -> Floats:
    """`m_G.c`: at each retrieved rank the cost so far (each ideal step's gain, at least 1;
    1 past the ideal walk) and the gain so far; a rank's gain ÷ log2(2 + cost − gain so far),
    summed in rank order, ÷ the sum of the ideal gains."""
    gained, steps = block.gained, block.steps
    ranks = np.arange(gained.shape[1])
    retrieved = ranks < block.retrieved[:, None]
    costly = (ranks < block.walked[:, None]) & (steps >= 1.0)
    cost = _sums(np.where(retrieved, np.where(costly, steps, 1.0), 0.0))
    gain = (2.0 + cost) - _sums(gained)  # (2 + cost − so_far, in the loop's order)
    counted = np.flatnonzero(gained != 0)  # (0 past the retrieved ranks)
    terms = gained.ravel()[counted] / _log2(gain.ravel()[counted])
    value = _row_sums(counted, terms, gained.shape)
    ideal = np.flatnonzero(steps > 0.0)  # (the ideal gains, in the sum's order)
    total = _row_sums(ideal, steps.ravel()[ideal], steps.shape)
    return np.where(total > 0.0, value / total, 0.0)


def g_measure(context: Context, row: Row) -> Floats:
    """G."""
    return per_topic(context, row.family, _g)


def binary_g(context: Context, row: Row) -> Floats:
    """binG: Σ over relevant r of 1/log2(2 + r − c(r)), ÷ R (the terms at the relevant ranks
    only: `Context.total_at`)."""
    at = context.found_at
    terms = 1.0 / np.log2(2.0 + context.found_rank - context.cumulative[at])
    return context.per_rel(context.total_at(context.found_seg, terms))


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
