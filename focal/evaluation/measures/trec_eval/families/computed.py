"""trec_eval's article measures on numpy arrays: every topic of a run at once.

A run arrives as `Ranked`: the grades of its retrieved documents in trec_eval's order (score
descending, then document id descending), topic after topic, cut to `-M` documents per topic.
A grade is the qrels grade, `NONPOOL` (-1) for a document absent from the qrels and `UNJUDGED`
(-2) for one the qrels list with a negative grade (trec_eval `form_res_rels.c`). A document is
relevant when its grade is at least the relevance level `level` (`-l`, default 1); judged
non-relevant when its grade is in [0, level). Every measure is a sum over positions, taken per
topic with `np.bincount`, so a run costs a few array passes whatever its number of topics.

Formulas (R = relevant documents of the topic, r = rank, rel(r) = 1 if relevant, c(r) =
relevant documents in ranks 1..r):
- map: Σ rel(r)·c(r)/r ÷ R; gm_map: log(max(AP, 1e-5)) per topic, exp of the mean overall.
- Rprec: c(R)/R; recip_rank: 1/first relevant rank; P_k: c(k)/k; recall_k: c(k)/R;
  success_k: 1 if c(k) > 0; map_cut_k: the map sum over r ≤ k ÷ R.
- bpref: Σ over relevant r of 1 − min(n_r, R)/min(N, R) (1 when n_r = 0) ÷ R, n_r the judged
  non-relevant documents above r, N all judged non-relevant (Buckley & Voorhees, SIGIR 2004).
- infAP (Yilmaz & Aslam, CIKM 2006), as trec_eval `m_infap.c`: at a relevant document with
  index j (0-based) after c−1 relevant, n judged non-relevant and u pooled-unjudged documents:
  1/(j+1) + j/(j+1) · (c−1+n+u)/j · (c−1+ε)/(c−1+n+2ε), ε = 1e-5 (1 at j = 0); ÷ R.
- ndcg, ndcg_cut_k: gain = grade (> 0), discount log2(r+1), normalised by the ideal ordering of
  the topic's judged grades (Järvelin & Kekäläinen, TOIS 2002); the level plays no part.
- iprec_at_recall_p: the highest precision at or below the rank where the cut-off's
  relevant document was found; cut-off = (long)(p·R + 0.9) in trec_eval 9,
  lround(p·R) in trec_eval 10 (see `interpolated.recall_cutoff`). 11pt_avg: their mean.
- Rprec_mult_m: precision at rank (long)(m·R + 0.9); utility: p1·c(n) + p2·(n − c(n)) +
  p3·(R − c(n)) + p4·(−n − R + c(n)) with (1, −1, 0, 0) by default (no collection size: trec_eval's
  -N is 0 unless given, and Focal does not take it).
- yaap: ln((1 + S) / (1 + R − S)), S = Σ rel(r)·c(r)/r (Robertson, ECIR 2012).
- gm_bpref: ln max(bpref, 1e-5) per topic, like gm_map; relative_P_k: c(k)/min(k, R);
  set_relative_P: c(n)/min(n, R); set_map: set_P · set_recall; num_nonrel_judged_ret: judged
  non-relevant documents retrieved.
- set_P = c(n)/n, set_recall = c(n)/R, set_F = (1+x)·P·R ÷ (x·P + R), x = 1 unless given
  (`set_F.0.5`; trec_eval's x is the weight itself, not a squared β); 0 when nothing is found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from focal.evaluation.measures.trec_eval.families import gains as trec_gains
from focal.evaluation.measures.trec_eval.families.ideal import IdealDCG
from focal.evaluation.measures.trec_eval.families.interpolated import interpolated, mean_reversed

NONPOOL = -1
UNJUDGED = -2
MIN_GEO_MEAN = 1e-5
INFAP_EPSILON = 1e-5

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class Row(Protocol):
    """A printed row: its name (`P_10`), family (`P`) and parameter (10), if any."""

    @property
    def name(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def parameter(self) -> float | None: ...


class Selection(Protocol):
    """The rows asked for, in printed order, and each family's parameters (the registry's
    `focal.evaluation.measures.trec_eval.families.declarations.Selection`)."""

    def rows(self) -> Sequence[Row]: ...
    def parameters(self, family: str) -> tuple[float, ...]: ...
    @property
    def pairs(self) -> dict[str, tuple[tuple[str, float], ...]]: ...


@dataclass(frozen=True)
class Ranked:
    """Retrieved grades of several topics, concatenated in ranked order."""

    grades: Ints  # per position
    starts: Ints  # per topic: index of its first position
    num_rel: Ints  # per topic: judged documents with grade >= level
    num_nonrel: Ints  # per topic: judged documents with 0 <= grade < level
    ideal: IdealDCG  # per topic: cumulative ideal DCG at ranks 1, 2, ...
    levels: list[Ints] = field(default_factory=list)  # per topic: judged documents per grade


def topic_values(
    ranked: Ranked, selection: Selection, level: int, version: int, num_docs: int = 0
) -> dict[str, npt.NDArray[np.float64] | Ints | list[str]]:
    """Every selected measure except num_q, one array over the topics of `ranked` (relstring:
    a list of strings); `num_docs` is the collection size (-N) utility's fourth term uses."""
    topics = len(ranked.starts)
    if topics == 0:
        return {row.name: np.zeros(0) for row in selection.rows() if row.family != "num_q"}
    grades = ranked.grades
    num_ret = np.diff(np.append(ranked.starts, len(grades)))
    seg = np.repeat(np.arange(topics), num_ret)
    rank = _ranks(ranked.starts, num_ret, len(grades))
    relevant = grades >= level
    num_rel = ranked.num_rel
    found_at = np.flatnonzero(relevant)  # positions in order, so their topics never fall
    found_seg, found_rank = seg[found_at], rank[found_at]  # the relevant positions' topic, rank
    num_rel_ret = np.bincount(found_seg, minlength=topics).astype(np.int64)
    opens = np.concatenate(([True], found_seg[1:] != found_seg[:-1]))[: len(found_at)]
    # c(r) at each relevant position: its place among its topic's relevant positions
    cum_found = np.arange(1, len(found_at) + 1, dtype=np.int64)
    cum_found -= (np.cumsum(num_rel_ret) - num_rel_ret)[found_seg]
    every_cum: list[Ints] = []

    def cumulative() -> Ints:  # c(r) at every position (the measures that read it between)
        if not every_cum:
            every_cum.append(_within(np.cumsum(relevant), ranked.starts, seg))
        return every_cum[0]

    def total(weights: npt.ArrayLike) -> Floats:
        sums = np.bincount(seg, np.asarray(weights, np.float64), minlength=topics)
        return sums.astype(np.float64)

    # Sums over some positions only (the others would add 0.0, which changes no sum of terms
    # of one sign): the same additions in the same order as `total` over every position.
    def total_at(segments: Ints, terms: Floats) -> Floats:  # the positions' topics, their terms
        return np.bincount(segments, terms, minlength=topics).astype(np.float64)

    def found_within(k: float) -> Floats:  # relevant documents at rank k or better
        return np.bincount(found_seg[found_rank <= k], minlength=topics).astype(np.float64)

    def per_rel(sums: Floats) -> Floats:
        ratio: Floats = np.divide(sums, num_rel, out=np.zeros(topics), where=num_rel > 0)
        return ratio

    out: dict[str, Floats | Ints | list[str]] = {}
    curves: dict[str, list[Floats]] = {}
    precision_found = cum_found / found_rank  # precision at each relevant document
    first = np.full(topics, np.inf)  # the rank of each topic's first relevant document
    first[found_seg[opens]] = found_rank[opens]
    for row in selection.rows():
        name, family, k = row.name, row.family, row.parameter
        if family == "num_ret":
            out[name] = num_ret
        elif family == "num_rel":
            out[name] = num_rel
        elif family == "num_rel_ret":
            out[name] = num_rel_ret
        elif family == "yaap":  # Robertson, ECIR 2012: ln((1 + S) / (1 + R − S)), S the map sum
            found = total_at(found_seg, precision_found)
            out[name] = np.log((1.0 + found) / (1.0 + num_rel - found))
        elif family in ("map", "gm_map"):
            ap = per_rel(total_at(found_seg, precision_found))
            out[name] = ap if family == "map" else np.log(np.maximum(ap, MIN_GEO_MEAN))
        elif family == "Rprec":
            out[name] = per_rel(total(relevant & (rank <= num_rel[seg])))
        elif family in ("bpref", "gm_bpref"):
            value = per_rel(total(_bpref_terms(grades, relevant, ranked, seg, level)))
            out[name] = value if family == "bpref" else np.log(np.maximum(value, MIN_GEO_MEAN))
        elif family == "recip_rank":
            out[name] = 1.0 / first
        elif family == "P" and k is not None:
            out[name] = found_within(k) / k
        elif family == "recall" and k is not None:
            out[name] = per_rel(found_within(k))
        elif family == "success" and k is not None:
            out[name] = (first <= k).astype(np.float64)
        elif family == "relative_P" and k is not None:
            found = found_within(k)
            out[name] = np.divide(found, np.minimum(num_rel, k), out=np.zeros(topics),
                                  where=num_rel > 0)  # fmt: skip
        elif family == "Rprec_mult" and k is not None:
            out[name] = _precision_at_multiple(relevant, rank, seg, num_rel, k)
        elif family == "utility":
            p = selection.parameters("utility")
            out[name] = (p[0] * num_rel_ret + p[1] * (num_ret - num_rel_ret)
                         + p[2] * (num_rel - num_rel_ret)
                         + p[3] * (num_docs + num_rel_ret - num_ret - num_rel)
                         ).astype(np.float64)  # fmt: skip
        elif family == "num_nonrel_judged_ret":
            out[name] = np.bincount(seg, (grades >= 0) & ~relevant, minlength=topics).astype(
                np.int64
            )
        elif family == "map_cut" and k is not None:
            within = found_rank <= k
            out[name] = per_rel(total_at(found_seg[within], precision_found[within]))
        elif family == "infAP":
            terms = _infap_terms(grades, relevant, cumulative(), rank, ranked, seg)
            out[name] = per_rel(total(terms))
        elif family in trec_gains.BY_TOPIC or (family == "ndcg" and family in selection.pairs):
            param = selection.parameters(family)[0] if family == "relstring" else k
            out[name] = trec_gains.by_topic(family, param, ranked, selection.pairs.get(family, ()))
        elif family == "binG":
            terms = np.where(relevant, 1.0 / np.log2(2.0 + rank - cumulative()), 0.0)
            out[name] = per_rel(total(terms))
        elif family in ("ndcg", "ndcg_cut"):
            cut = None if k is None else int(k)
            kept = np.arange(len(grades)) if cut is None else np.flatnonzero(rank <= cut)
            gains = np.where(grades[kept] > 0, grades[kept], 0) / np.log2(rank[kept] + 1.0)
            dcg = total_at(seg[kept], gains)
            out[name] = _normalise(dcg, ranked.ideal, cut)
        elif family in ("iprec_at_recall", "11pt_avg"):
            levels = selection.parameters(family)
            if family not in curves:
                curves[family] = interpolated(
                    ranked, cumulative(), rank, relevant, num_rel_ret, levels, version
                )
            curve = curves[family]
            out[name] = curve[levels.index(k)] if k is not None else mean_reversed(curve)
        elif family in ("set_P", "set_recall", "set_F", "set_relative_P", "set_map"):
            out[name] = _set_measure(family, num_ret, num_rel, num_rel_ret, selection)
    return out


def _precision_at_multiple(
    relevant: npt.NDArray[np.bool_], rank: Ints, seg: Ints, num_rel: Ints, multiple: float
) -> Floats:
    """Precision at rank (long)(m·R + 0.9) (`m_Rprec_mult.c`), past the run's end too (the
    relevant documents found ÷ that rank); 0 when the rank is 0."""
    cut = (multiple * num_rel + 0.9).astype(np.int64)
    found = np.bincount(seg, relevant & (rank <= cut[seg]), minlength=len(num_rel))
    return np.divide(found, cut, out=np.zeros(len(num_rel)), where=cut > 0)


def _ranks(starts: Ints, sizes: Ints, count: int) -> Ints:
    """1, 2, ... along each topic's positions: steps of 1 that fall back at each topic's start,
    summed (one array, where `arange - starts[seg]` made three)."""
    steps = np.ones(count, dtype=np.int64)
    filled = sizes > 0
    at, size = starts[filled], sizes[filled]
    steps[at[1:]] = 1 - size[:-1]
    return np.cumsum(steps, out=steps)


def _within(cumulative: Ints, starts: Ints, seg: Ints) -> Ints:
    """A running count restarted at every topic's first position."""
    before = np.concatenate(([0], cumulative))[starts]
    return cumulative - before[seg]


def _bpref_terms(grades: Ints, relevant: npt.NDArray[np.bool_], ranked: Ranked, seg: Ints,
                 level: int) -> Floats:  # fmt: skip
    nonrel = (grades >= 0) & (grades < level)
    above = _within(np.cumsum(nonrel), ranked.starts, seg)  # at a relevant doc: those above it
    r = ranked.num_rel[seg]
    denominator = np.maximum(np.minimum(ranked.num_nonrel[seg], r), 1)
    terms = np.where(above > 0, 1.0 - np.minimum(above, r) / denominator, 1.0)
    return np.where(relevant, terms, 0.0)


def _infap_terms(grades: Ints, relevant: npt.NDArray[np.bool_], cum: Ints, rank: Ints,
                 ranked: Ranked, seg: Ints) -> Floats:  # fmt: skip
    nonrel = _within(np.cumsum((grades >= 0) & ~relevant), ranked.starts, seg)
    unjudged = _within(np.cumsum(grades == UNJUDGED), ranked.starts, seg)
    j = (rank - 1).astype(np.float64)
    before = (cum - 1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((before + nonrel + unjudged) / j) * (
            (before + INFAP_EPSILON) / (before + nonrel + 2 * INFAP_EPSILON)
        )
    terms = np.where(j == 0, 1.0, terms)
    return np.where(relevant, terms, 0.0)


def _normalise(dcg: Floats, ideal: IdealDCG, cut: int | None) -> Floats:
    best = ideal.at(cut)
    ratio: Floats = np.divide(dcg, best, out=np.zeros(len(dcg)), where=best > 0)
    return ratio


def _set_measure(family: str, num_ret: Ints, num_rel: Ints, num_rel_ret: Ints,
                 selection: Selection) -> Floats:  # fmt: skip
    hits = num_rel_ret.astype(np.float64)
    precision = np.divide(hits, num_ret, out=np.zeros(len(hits)), where=num_ret > 0)
    recall = np.divide(hits, num_rel, out=np.zeros(len(hits)), where=num_rel > 0)
    if family == "set_P":
        return precision
    if family == "set_recall":
        return recall
    if family == "set_map":
        return precision * recall
    if family == "set_relative_P":
        limit = np.minimum(num_ret, num_rel)
        relative: Floats = np.divide(hits, limit, out=np.zeros(len(hits)), where=limit > 0)
        return relative
    weight = selection.parameters("set_F")[0]  # trec_eval's x: recall weighs x times precision
    denominator = weight * precision + recall
    f_measure: Floats = np.divide(
        (weight + 1.0) * precision * recall, denominator, out=np.zeros(len(hits)),
        where=denominator > 0,
    )  # fmt: skip
    return f_measure
