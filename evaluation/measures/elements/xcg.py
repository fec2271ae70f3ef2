"""XCG: normalised extended cumulated gain nxCG@k and MAep (Kazai & Lalmas; seed 001 §2.5).

- Gain of a result: its quantised value x; a result one of whose ancestors-or-self was returned
  at an earlier rank has been seen, and gains (1 - alpha) * x (seed 001 eq. 14, the "seen"
  case). Default alpha = 1: a seen element gains nothing. The seed's "seen in part" case (a
  descendant returned earlier) needs the relevance of the seen parts weighted by size; Focal
  gives such an element its full x (documented in docs/measures.md).
- Ideal recall base: among the assessed elements with x > 0, the highest value on each path is
  chosen, the deeper one on a tie; in practice, elements are taken by decreasing x (deeper first
  on ties, then file order) when no ancestor or descendant was taken before. The ideal gain
  vector lists their values in decreasing order.
- nxCG@k = xCG[k] / xCI[k], xCG[k] = sum of the run's gains in ranks 1..k, xCI[k] the same for
  the ideal vector (a run or ideal vector shorter than k stops adding); 0 when xCI[k] = 0.
- MAep = sum over ranks i with gain > 0 of ep[i] / |ideal|, ep[i] = i_ideal / i where i_ideal
  is the first ideal rank with xCI >= xCG[i] (|ideal| when the run's gain exceeds the ideal
  total): the effort the ideal ranking needs for the gain the run reached at rank i, as a share
  of the run's effort; ranks of the ideal never reached count 0, as in average precision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from evaluation.measures.elements.cutoffs import ElementKey, ancestors_or_self

XCG_CUTOFFS = (5, 10, 25, 50)
REFERENCE = (
    "G. Kazai, M. Lalmas: eXtended cumulated gain measures for the evaluation of content-oriented "
    "XML retrieval, TOIS 24(4), 2006; seed 001 §2.5 (eq. 12-14)."
)


def run_gains(
    keys: Sequence[ElementKey], values: Sequence[float], alpha: float = 1.0
) -> list[float]:
    """The gain of each result: x, or (1 - alpha) * x when an ancestor-or-self came before.

    >>> run_gains([("a", "/x[1]"), ("a", "/x[1]/y[1]"), ("a", "/x[1]")], [0.5, 1.0, 0.5], 1.0)
    [0.5, 0.0, 0.0]
    """
    first: dict[ElementKey, int] = {}
    for index, key in enumerate(keys):
        first.setdefault(key, index)
    # the earliest rank of each distinct key's ancestors-or-self (per key, not per result)
    earliest = {
        key: min(first.get((key[0], p), index) for p in ancestors_or_self(key[1]))
        for key, index in first.items()
    }
    kept = 1.0 - alpha
    return [
        kept * value if earliest[key] < index else value
        for index, (key, value) in enumerate(zip(keys, values, strict=True))
    ]


def ideal_vector(values: Mapping[ElementKey, float]) -> list[float]:
    """The ideal gain vector of a topic (module docstring), in decreasing order.

    Worked: /x[1] 0.5 with children /x[1]/y[1] 0.5 and /x[1]/z[1] 0.25: y is taken first (same
    value as x, deeper), then x is refused (y is under it), then z (no ancestor or descendant
    taken): [0.5, 0.25].

    >>> ideal_vector({("a", "/x[1]"): 0.5, ("a", "/x[1]/y[1]"): 0.5, ("a", "/x[1]/z[1]"): 0.25})
    [0.5, 0.25]
    """
    order = sorted(
        (key for key, value in values.items() if value > 0),
        key=lambda key: (-values[key], -key[1].count("/")),
    )
    taken: set[ElementKey] = set()
    below: set[ElementKey] = set()  # ancestors-or-self of every taken element
    ideal = []
    for key in order:
        article, path = key
        if key in below or any((article, p) in taken for p in ancestors_or_self(path)):
            continue
        taken.add(key)
        below.update((article, p) for p in ancestors_or_self(path))
        ideal.append(values[key])
    return ideal


def nxcg_at(
    gains: Sequence[float], ideal: Sequence[float], cutoffs: Sequence[int] = XCG_CUTOFFS
) -> dict[int, float]:
    """nxCG@k = xCG[k] / xCI[k] (module docstring).

    Reference: Kazai & Lalmas, TOIS 2006.

    >>> nxcg_at([0.0, 1.0], [1.0, 0.5], (1, 2, 5))
    {1: 0.0, 2: 0.6666666666666666, 5: 0.6666666666666666}
    """
    run = np.concatenate(([0.0], np.cumsum(np.asarray(gains, dtype=np.float64))))
    best = np.concatenate(([0.0], np.cumsum(np.asarray(ideal, dtype=np.float64))))
    out = {}
    for k in cutoffs:
        reached = float(run[min(k, len(gains))])
        possible = float(best[min(k, len(ideal))])
        out[k] = reached / possible if possible > 0 else 0.0
    return out


def maep(gains: Sequence[float], ideal: Sequence[float]) -> float:
    """Mean average effort-precision (module docstring).

    Reference: Kazai & Lalmas, TOIS 2006 (effort-precision).

    Worked: gains 0, 1, 0.5 against ideal [1, 0.5]. Rank 2: xCG = 1, the ideal reaches 1 at
    rank 1, ep = 1/2. Rank 3: xCG = 1.5, ideal rank 2, ep = 2/3. MAep = (1/2 + 2/3) / 2.

    >>> round(maep([0.0, 1.0, 0.5], [1.0, 0.5]), 12) == round((1/2 + 2/3) / 2, 12)
    True
    """
    if not ideal:
        return 0.0
    best = np.cumsum(np.asarray(ideal, dtype=np.float64))
    tolerance = 1e-9 * max(1.0, float(best[-1]))
    total = 0.0
    reached = 0.0
    for rank, gain in enumerate(gains, start=1):
        reached += gain
        if gain <= 0:
            continue
        ideal_rank = int(np.searchsorted(best, reached - tolerance, side="left")) + 1
        total += min(ideal_rank, len(ideal)) / rank
    return total / len(ideal)
