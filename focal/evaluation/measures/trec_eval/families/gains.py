"""trec_eval 10.0's gain-based and unjudged-document measures, topic by topic.

Gains come from the topic's gain table (`gain_table`, trec_eval's `gain_init.c`): by
default each judged grade gains its own value, a document outside the pool or unjudged 0; the
ideal ranking takes the judged documents by gain, highest first. With r the rank, g(r) the gain
at r and I(r) the ideal gain at r:

- ndcg: Σ g(r)/log2(r+1) ÷ Σ I(r)/log2(r+1) (Järvelin & Kekäläinen, TOIS 2002); dcg and
  ideal_dcg are the two sums.
- ndcg_rel: the mean, over relevant ranks (and the relevant documents not retrieved, at the
  final value), of ndcg so far; Rndcg: the mean of ndcg taken where the ideal gain changes
  (so at R for binary judgements: R-normalised ndcg).
- G: Σ g(r)/log2(2 + cost(r) − Σ_{s≤r} g(s)) ÷ Σ I(r), cost(r) the ideal gains so far with
  each below 1 counted as 1 (Sakai's Q-measure family as trec_eval states it).
- binG: Σ over relevant r of 1/log2(2 + r − c(r)), ÷ R.
- rbp: (1 − p)·Σ g(r)·p^(r−1), gains rescaled to [0, 1] when any lies outside, p = 0.9
  unless `rbp.p=0.8` (Moffat & Zobel, TOIS 2008); rbp_resid: p^n + (1 − p)·Σ over
  unjudged r of p^(r−1), 0 when every retrieved document is judged.
- unj_k: documents outside the pool or unjudged in the first k, ÷ k.
- relstring: the grades of the first 10 (or `relstring.20`) documents as a string: a digit per
  grade 0-9, `>` above 9, `-` outside the pool, `.` unjudged.

The loops follow trec_eval's per-topic order of operations so that its values come out to the
last bit; they run only for the families asked for.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import numpy.typing as npt

from focal.evaluation.measures.trec_eval.families.gain_table import (
    Gain,
    IdealWalk,
    Ints,
    Pairs,
    gain_of,
    gains,
    ideal,
)

NONPOOL = -1
UNJUDGED = -2
RBP_PERSISTENCE = 0.9


def dcg_values(family: str, pairs: Pairs, grades: Ints, levels: Ints, num_rel: int) -> float:
    """ndcg, dcg, ideal_dcg, ndcg_rel, Rndcg or G for one topic (`m_ndcg.c` and kin)."""
    table = gains(pairs, levels)
    gained = gain_of(table, grades).tolist()
    if family == "G":
        return _g(gained, table)
    if family == "Rndcg":
        return _rndcg(gained, table) if num_rel else 0.0
    if family == "ndcg_rel":
        return _ndcg_rel(gained, table)
    found = 0.0
    for i, g in enumerate(gained):
        if g != 0:
            found += g / math.log2(i + 2)
    best = 0.0
    for i, g in enumerate(ideal(table)):
        best += g / math.log2(i + 2)
    if family == "dcg":
        return found
    if family == "ideal_dcg":
        return best
    return found / best if best > 0.0 else 0.0


def _ndcg_rel(gained: list[float], table: list[Gain]) -> float:
    """`m_ndcg_rel.c`, step for step (a relevant document past the ideal's end divides by the
    ideal DCG so far; a topic without positive gains scores 0)."""
    walk = IdealWalk(table)
    results = best = total = 0.0
    relevant = found = i = 0
    while i < len(gained) and walk.gain > 0.0:
        if gained[i] != 0:
            results += gained[i] / math.log2(i + 2)
        if walk.step() > 0.0:
            relevant += 1
            best += walk.gain / math.log2(i + 2)
        if gained[i] > 0:
            total += _ratio(results, best)
            found += 1
        i += 1
    while i < len(gained):
        if gained[i] != 0:
            results += gained[i] / math.log2(i + 2)
        if gained[i] > 0:
            total += _ratio(results, best)
            found += 1
        i += 1
    while walk.gain > 0.0:
        if walk.step() > 0.0:
            relevant += 1
            best += walk.gain / math.log2(i + 2)
        i += 1
    if best > 0.0:
        total += (relevant - found) * results / best
    return total / relevant if total > 0.0 else 0.0


def _ratio(numerator: float, denominator: float) -> float:
    """A C double division: x/0 is ±inf, 0/0 NaN."""
    if denominator:
        return numerator / denominator
    return math.nan if numerator == 0 else math.copysign(math.inf, numerator)


def _rndcg(gained: list[float], table: list[Gain]) -> float:
    """`m_Rndcg.c`, step for step: ndcg is sampled wherever the ideal gain changes."""
    walk = IdealWalk(table)
    results = best = total = 0.0
    changes = i = 0
    previous = walk.gain

    def sample() -> None:
        nonlocal total, changes
        if best > 0.0:
            total += results / best
            changes += 1

    while i < len(gained) and walk.gain > 0.0:
        if walk.step() != previous:
            sample()
            previous = walk.gain
        if gained[i] != 0:
            results += gained[i] / math.log2(i + 2)
        if walk.gain > 0.0:
            best += walk.gain / math.log2(i + 2)
        i += 1
    if i < len(gained):
        for j in range(i, len(gained)):
            if gained[j] != 0:
                results += gained[j] / math.log2(j + 2)
        i = len(gained)
        sample()
    while walk.gain > 0.0:
        if walk.step() != previous:
            sample()
            previous = walk.gain
        if walk.gain > 0.0:
            best += walk.gain / math.log2(i + 2)
        i += 1
    return total / changes if changes else math.nan


def _g(gained: list[float], table: list[Gain]) -> float:
    """`m_G.c`: the cost of a rank is its ideal gain, at least 1."""
    walk = IdealWalk(table)
    value = so_far = cost = 0.0
    i = 0
    while i < len(gained) and walk.gain > 0.0:
        so_far += gained[i]
        step = walk.step()
        cost += step if step >= 1.0 else 1.0
        if gained[i] != 0:
            value += gained[i] / math.log2(2 + cost - so_far)
        i += 1
    while i < len(gained):
        so_far += gained[i]
        cost += 1.0
        if gained[i] != 0:
            value += gained[i] / math.log2(2 + cost - so_far)
        i += 1
    total = sum(ideal(table))
    return value / total if total > 0.0 else 0.0


def rbp(pairs: Pairs, grades: Ints, levels: Ints, residual: bool) -> float:
    """rbp or rbp_resid for one topic (`m_rbp.c`, `m_rbp_resid.c`)."""
    p = RBP_PERSISTENCE
    for name, value in pairs:
        if name == "p":
            p = value
    # p^r as trec_eval forms it, one multiplication per rank (pow differs in the last bits)
    steps = np.full(len(grades) + 1, p, dtype=np.float64)
    steps[0] = 1.0
    powers = np.cumprod(steps).astype(np.float64)
    weights, after = powers[:-1], float(powers[-1])
    if residual:
        unjudged = grades < 0
        if not unjudged.any():
            return 0.0
        return float(after + (1 - p) * _ordered_sum(weights[unjudged]))
    table = gains(pairs, levels)
    low = min(g.gain for g in table) if table else 0.0
    high = max(g.gain for g in table) if table else 0.0
    if low < 0 or high > 1:
        table = [Gain(g.grade, (g.gain - low) / (high - low), g.count) for g in table]
    gained = gain_of(table, grades)
    return float((1.0 - p) * _ordered_sum(np.where(gained != 0, gained * weights, 0.0)))


def _ordered_sum(values: npt.NDArray[np.float64]) -> float:
    total = 0.0
    for value in values.tolist():
        total += value
    return total


def unjudged(grades: Ints, cut: int) -> float:
    """unj_k: the share of the first k ranks holding documents without a judgement."""
    return float(np.count_nonzero(grades[:cut] < 0)) / cut


def relstring(grades: Ints, length: float) -> str:
    """The first `length` grades as characters (`m_relstring.c`)."""
    out = []
    for grade in grades[: max(int(length), 0)].tolist():
        if grade > 9:
            out.append(">")
        elif grade >= 0:
            out.append(str(grade))
        else:
            out.append({NONPOOL: "-", UNJUDGED: "."}.get(grade, "<"))
    return "".join(out)


class Topics(Protocol):
    """The ranked topics (`families.computed.Ranked`): grades in ranked order, topic starts, each
    topic's relevant count and judged documents per grade."""

    @property
    def grades(self) -> Ints: ...
    @property
    def starts(self) -> Ints: ...
    @property
    def num_rel(self) -> Ints: ...
    @property
    def levels(self) -> list[Ints]: ...


BY_TOPIC = frozenset({"G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg", "rbp", "rbp_resid", "unj",
                      "relstring"})  # fmt: skip


def by_topic(
    family: str, parameter: float | None, ranked: Topics, pairs: Pairs
) -> npt.NDArray[np.float64] | list[str]:
    """One family (one cut-off of unj) over every topic of `ranked`."""
    ends = np.append(ranked.starts[1:], len(ranked.grades)).tolist()
    topics = [ranked.grades[s:e] for s, e in zip(ranked.starts.tolist(), ends, strict=True)]
    if family == "relstring":
        return [relstring(grades, parameter or 10.0) for grades in topics]
    values = []
    for t, grades in enumerate(topics):
        if family == "unj":
            values.append(unjudged(grades, int(parameter or 1)))
        elif family in ("rbp", "rbp_resid"):
            values.append(rbp(pairs, grades, ranked.levels[t], family == "rbp_resid"))
        else:
            values.append(dcg_values(family, pairs, grades, ranked.levels[t],
                                     int(ranked.num_rel[t])))  # fmt: skip
    return np.array(values, dtype=np.float64)
