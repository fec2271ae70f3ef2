"""trec_eval's precision and recall at ranks: P, recall, relative_P, success, Rprec,
Rprec_mult, recip_rank, and the judgement-group means of P and Rprec_mult.

With R the topic's relevant documents and c(r) those in ranks 1..r (`measure` has the notation):
- P_k: c(k)/k; recall_k: c(k)/R; relative_P_k: c(k)/min(k, R); success_k: 1 if c(k) > 0.
- Rprec: c(R)/R; Rprec_mult_m: precision at rank (long)(m·R + 0.9), past the run's end too.
- recip_rank: 1/first relevant rank (0 when none is retrieved).
- P_avgjg_k, Rprec_mult_avgjg_m: the mean over a topic's judgement groups (`-R qrels_jg`) of
  P_k and Rprec_mult_m (`engine.groups`).
Reference: trec_eval 10.0 `m_P.c`, `m_recall.c`, `m_relative_P.c`, `m_success.c`, `m_Rprec.c`,
`m_Rprec_mult.c`, `m_recip_rank.c`, `m_P_avgjg.c`, `m_Rprec_mult_avgjg.c`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.measure import (
    LONG_CUTS,
    Context,
    Floats,
    Parameters,
    Row,
    TrecMeasure,
    parameter,
)

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def precision_at(context: Context, row: Row) -> Floats:
    """P_k: c(k)/k."""
    k = parameter(row)
    return context.found_within(k) / k


def recall_at(context: Context, row: Row) -> Floats:
    """recall_k: c(k)/R."""
    return context.per_rel(context.found_within(parameter(row)))


def relative_precision(context: Context, row: Row) -> Floats:
    """relative_P_k: c(k)/min(k, R)."""
    k, num_rel = parameter(row), context.num_rel
    found = context.found_within(k)
    ratio: Floats = np.divide(found, np.minimum(num_rel, k), out=np.zeros(context.topics),
                              where=num_rel > 0)  # fmt: skip
    return ratio


def success(context: Context, row: Row) -> Floats:
    """success_k: 1 when a relevant document is in ranks 1..k."""
    return (context.first <= parameter(row)).astype(np.float64)


def r_precision(context: Context, row: Row) -> Floats:
    """Rprec: c(R)/R."""
    found_seg = context.found_seg  # (the relevant ranks up to R, counted)
    within = context.found_rank <= context.num_rel[found_seg]
    counts = np.bincount(found_seg[within], minlength=context.topics).astype(np.float64)
    return context.per_rel(counts)


def precision_at_multiple(context: Context, row: Row) -> Floats:
    """Rprec_mult_m: precision at rank (long)(m·R + 0.9), past the run's end too (the relevant
    documents found ÷ that rank); 0 when the rank is 0."""
    num_rel = context.num_rel
    cut = (parameter(row) * num_rel + 0.9).astype(np.int64)
    found = context.found_upto(cut).astype(np.float64)
    ratio: Floats = np.divide(found, cut, out=np.zeros(len(num_rel)), where=cut > 0)
    return ratio


def reciprocal_rank(context: Context, row: Row) -> Floats:
    """recip_rank: 1/first relevant rank."""
    return 1.0 / context.first


CUTOFFS = Parameters("cutoffs", LONG_CUTS)
MULTIPLES = Parameters("levels", R_MULTIPLES)
TREC = ("official", "all_trec")
DECLARED = (
    TrecMeasure("Rprec", 7, r_precision, rel=("Rprec",), sets=TREC,
                definition="precision at rank R"),
    TrecMeasure("recip_rank", 9, reciprocal_rank, ir_measures=("RR",), rel=("RR",), sets=TREC,
                definition="1 / rank of the first relevant document"),
    TrecMeasure("P", 11, precision_at, CUTOFFS, focal=("P@k",), ir_measures=("P@k",),
                rel=("P",), sets=TREC, definition="relevant in ranks 1..k / k"),
    TrecMeasure("recall", 13, recall_at, CUTOFFS, ir_measures=("R@k",), rel=("R",),
                sets=("all_trec",), definition="relevant in ranks 1..k / R"),
    TrecMeasure("Rprec_mult", 16, precision_at_multiple, MULTIPLES, sets=("all_trec",)),
    TrecMeasure("relative_P", 28, relative_precision, CUTOFFS, sets=("all_trec",)),
    TrecMeasure("success", 29, success, Parameters("cutoffs", (1, 5, 10)),
                ir_measures=("Success@k",), rel=("Success",), sets=("all_trec",),
                definition="1 if a relevant document is in ranks 1..k"),
    TrecMeasure("P_avgjg", 51, None, CUTOFFS, over_groups="P", sets=("qrels_jg",)),
    TrecMeasure("Rprec_mult_avgjg", 52, None, MULTIPLES, over_groups="Rprec_mult",
                sets=("qrels_jg",)),
)  # fmt: skip
