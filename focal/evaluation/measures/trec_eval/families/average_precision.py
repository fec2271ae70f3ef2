"""trec_eval's average precision and its kin: map, gm_map, map_cut, yaap, and bpref, gm_bpref
and infAP, which judge the ranking with incomplete judgements.

With R the topic's relevant documents, r a rank and c(r) the relevant ones in ranks 1..r:
- map: Σ rel(r)·c(r)/r ÷ R; gm_map: ln max(AP, 1e-5) per topic, exp of the mean overall;
  map_cut_k: the map sum over r ≤ k ÷ R; map_avgjg: map's mean over judgement groups.
- yaap: ln((1 + S) / (1 + R − S)), S = Σ rel(r)·c(r)/r (Robertson, ECIR 2012).
- bpref: Σ over relevant r of 1 − min(n_r, R)/min(N, R) (1 when n_r = 0) ÷ R, n_r the judged
  non-relevant documents above r, N all judged non-relevant (Buckley & Voorhees, SIGIR 2004);
  gm_bpref: ln max(bpref, 1e-5) per topic, like gm_map.
- infAP (Yilmaz & Aslam, CIKM 2006), as trec_eval `m_infap.c`: at a relevant document with
  index j (0-based) after c−1 relevant, n judged non-relevant and u pooled-unjudged documents:
  1/(j+1) + j/(j+1) · (c−1+n+u)/j · (c−1+ε)/(c−1+n+2ε), ε = 1e-5 (1 at j = 0); ÷ R.
Reference: trec_eval 10.0 `m_map.c`, `m_gm_map.c`, `m_map_cut.c`, `m_yaap.c`, `m_bpref.c`,
`m_gm_bpref.c`, `m_infap.c`, `m_map_avgjg.c`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families.measure import (
    LONG_CUTS,
    UNJUDGED,
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
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

INFAP_EPSILON = 1e-5
BUCKLEY_2004 = "Buckley & Voorhees: Retrieval evaluation with incomplete information, SIGIR 2004"


def _precision_sum(context: Context) -> Floats:
    """S = Σ rel(r)·c(r)/r per topic: the sum map and yaap share."""
    return context.shared("precision_sum", lambda: context.total_at(
        context.found_seg, context.precision_found))  # fmt: skip


def average_precision(context: Context, row: Row) -> Floats:
    """map (and gm_map, its geometric mean): S ÷ R."""
    return context.per_rel(_precision_sum(context))


def average_precision_at(context: Context, row: Row) -> Floats:
    """map_cut_k: the map sum over ranks 1..k ÷ R."""
    within = context.found_rank <= parameter(row)
    return context.per_rel(context.total_at(context.found_seg[within],
                                            context.precision_found[within]))  # fmt: skip


def yaap(context: Context, row: Row) -> Floats:
    """yaap: ln((1 + S) / (1 + R − S))."""
    found = _precision_sum(context)
    value: Floats = np.log((1.0 + found) / (1.0 + context.num_rel - found))
    return value


def _nonrelevant_above(context: Context) -> Ints:
    """At each position, the judged non-relevant documents at or above it in its topic."""

    def build() -> Ints:
        return context.within(np.cumsum((context.grades >= 0) & ~context.relevant))

    return context.shared("nonrelevant_above", build)


def bpref(context: Context, row: Row) -> Floats:
    """bpref (and gm_bpref, its geometric mean: computed once for both)."""

    def build() -> Floats:  # (at the relevant ranks, the only ones that add to it)
        above, seg = _nonrelevant_above(context)[context.found_at], context.found_seg
        r = context.num_rel[seg]
        denominator = np.maximum(np.minimum(context.ranked.num_nonrel[seg], r), 1)
        terms = np.where(above > 0, 1.0 - np.minimum(above, r) / denominator, 1.0)
        return context.per_rel(context.total_at(seg, terms))

    return context.shared("bpref", build)


def inferred_average_precision(context: Context, row: Row) -> Floats:
    """infAP, term by term as `m_infap.c` forms it, at the relevant ranks (the only ones that
    add to it)."""
    at = context.found_at
    nonrel = _nonrelevant_above(context)[at]
    unjudged = context.within(np.cumsum(context.grades == UNJUDGED))[at]
    j = (context.found_rank - 1).astype(np.float64)
    before = (context.cumulative[at] - 1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((before + nonrel + unjudged) / j) * (
            (before + INFAP_EPSILON) / (before + nonrel + 2 * INFAP_EPSILON)
        )
    terms = np.where(j == 0, 1.0, terms)
    return context.per_rel(context.total_at(context.found_seg, terms))


TREC = ("official", "all_trec")
DECLARED = (
    TrecMeasure("map", 5, average_precision, focal=("MAP",), ir_measures=("AP",),
                rel=("AP", "map", "MAP"), sets=TREC,
                definition="mean of AP = Σ_{rel d_r} P@r / R"),
    TrecMeasure("gm_map", 6, average_precision, geometric=True, sets=TREC,
                definition="geometric mean of AP"),
    TrecMeasure("bpref", 8, bpref, ir_measures=("Bpref",), rel=("Bpref",), sets=TREC,
                definition="binary preference", citation=BUCKLEY_2004),
    TrecMeasure("infAP", 14, inferred_average_precision, sets=("all_trec",),
                citation="Yilmaz & Aslam: Estimating average precision with incomplete and "
                "imperfect judgments, CIKM 2006"),
    TrecMeasure("gm_bpref", 15, bpref, geometric=True, sets=("all_trec",),
                citation=BUCKLEY_2004),
    TrecMeasure("map_cut", 27, average_precision_at, Parameters("cutoffs", LONG_CUTS),
                ir_measures=("AP@k",), sets=("all_trec",), definition="AP of ranks 1..k"),
    TrecMeasure("map_avgjg", 50, None, over_groups="map", sets=("qrels_jg",)),
    TrecMeasure("yaap", 53, yaap, citation="Robertson: On smoothing average precision, "
                "ECIR 2012"),
)  # fmt: skip
