"""XCG: normalised extended cumulated gain nxCG@k and MAep (Kazai & Lalmas; seed 001 §2.5).

- Ideal recall base: the best element of each path (highest x, the deeper one on a tie): the
  elements with x > 0 taken by decreasing x (deeper first on ties, then file order), each unless
  an ancestor or a descendant was taken before. The ideal gain vector is their values, decreasing.
- Gain of a result, the relevance-value function rv of seed 001 eq. 14, three cases: *unseen*
  (neither it nor an ancestor, nor a descendant, returned earlier) x; *seen* (it or an ancestor
  returned earlier) (1 - alpha) * x; *seen in part* (a descendant returned earlier, nothing
  above it) alpha * sum over its children c of rv(c) * |c| / |e| + (1 - alpha) * x, rv(c)
  worked out by the same three cases (the seed prints the divisor as |c_j|; the size of the
  element itself, |e|, is what makes it a size-weighted share). The children are the assessed
  elements (and the ancestors of assessed elements) one step below; their sizes are the qrels'
  `size` column; without sizes each of m children weighs 1/m (`part_weights`).
- Normalisation (Kazai & Lalmas): the results that fall under one ideal element may together
  gain no more than that ideal element's value. Each result is charged to one ideal element:
  its ideal ancestor-or-self, or, for an ancestor of ideal elements, the one of them with the
  most value left (the first in ideal order on ties); its gain is cut to what is left there.
  A result on no path of an ideal element gains 0. Since every result draws on one ideal element
  and no ideal element pays out more than its value, the first k results gain at most the k
  best ideal values: nxCG@k <= 1.
- nxCG@k = xCG[k] / xCI[k], xCG[k] the sum of the run's gains at ranks 1..k, xCI[k] the same
  for the ideal vector (both stop adding past their ends); 0 when xCI[k] = 0.
- MAep: effort-precision ep[i] = i_ideal / i at each rank i where the run gains, i_ideal the
  first ideal rank whose xCI reaches xCG[i]; MAep averages ep over gain recall, each rank
  weighted by its gain: sum of ep[i] * g[i] / xCI[|ideal|]. With 0/1 gains it is the sum of ep
  at the relevant ranks over |ideal|, as average precision; never-reached gain counts 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from focal.evaluation.measures.elements.cutoffs import ElementKey, ancestors_or_self

PartWeights = Literal["size", "equal"]
XCG_CUTOFFS = (5, 10, 25, 50)
REFERENCE = (
    "G. Kazai, M. Lalmas: eXtended cumulated gain measures for the evaluation of content-oriented "
    "XML retrieval, TOIS 24(4), 2006; seed 001 §2.5 (eq. 12-14)."
)
_TOLERANCE = 1e-12


def ideal_elements(values: Mapping[ElementKey, float]) -> list[ElementKey]:
    """The ideal recall base of a topic (module docstring), in decreasing order of value.

    Worked: /x[1] 0.5 with children /x[1]/y[1] 0.5 and /x[1]/z[1] 0.25: y is taken first (same
    value as x, deeper), then x is refused (y is under it), then z (no ancestor or descendant
    taken).

    >>> ideal_elements({("a", "/x[1]"): 0.5, ("a", "/x[1]/y[1]"): 0.5, ("a", "/x[1]/z[1]"): 0.25})
    [('a', '/x[1]/y[1]'), ('a', '/x[1]/z[1]')]
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
        ideal.append(key)
    return ideal


def ideal_vector(values: Mapping[ElementKey, float]) -> list[float]:
    """The ideal gain vector: the values of `ideal_elements`, decreasing.

    >>> ideal_vector({("a", "/x[1]"): 0.5, ("a", "/x[1]/y[1]"): 0.5, ("a", "/x[1]/z[1]"): 0.25})
    [0.5, 0.25]
    """
    return [values[key] for key in ideal_elements(values)]


@dataclass
class RecallBase:
    """What XCG needs of one topic under one quantisation, worked out once for every run:
    values, the ideal elements, the element tree of the assessed elements and its sizes."""

    values: Mapping[ElementKey, float]
    sizes: Mapping[ElementKey, int] = field(default_factory=dict)
    part_weights: PartWeights = "size"
    ideal: list[ElementKey] = field(init=False)
    ideal_values: list[float] = field(init=False)
    owner: dict[ElementKey, int] = field(init=False)  # node -> its ideal ancestor-or-self
    under: dict[ElementKey, list[int]] = field(init=False)  # node -> ideal elements below it
    children: dict[ElementKey, list[ElementKey]] = field(init=False)
    nodes: list[ElementKey] = field(init=False)  # the assessed elements and their ancestors

    def __post_init__(self) -> None:
        self.ideal = ideal_elements(self.values)
        self.ideal_values = [self.values[key] for key in self.ideal]
        self.owner, self.under, self.children = {}, {}, {}
        for index, (article, path) in enumerate(self.ideal):
            *above, _ = ancestors_or_self(path)
            self.owner[article, path] = index
            for ancestor in above:
                self.under.setdefault((article, ancestor), []).append(index)
        nodes: set[ElementKey] = set()
        for article, path in self.values:
            for step in reversed(ancestors_or_self(path)):
                if (article, step) in nodes:
                    break  # and so are the ancestors above it
                nodes.add((article, step))
        self.nodes = sorted(nodes)  # a parent's path is a prefix of its child's: it comes first
        for node in self.nodes:
            up = node[1].rpartition("/")[0]
            if up:
                parent = (node[0], up)
                self.children.setdefault(parent, []).append(node)
                if node not in self.owner and parent in self.owner:
                    self.owner[node] = self.owner[parent]

    def weight(self, parent: ElementKey, child: ElementKey) -> float:
        """|child| / |parent| when both sizes are known and `part_weights` is "size", else
        1 / (number of children)."""
        whole, part = self.sizes.get(parent), self.sizes.get(child)
        if self.part_weights == "size" and whole and part is not None:
            return part / whole
        return 1.0 / len(self.children[parent])


def run_gains(keys: Sequence[ElementKey], base: RecallBase, alpha: float = 1.0) -> list[float]:
    """The normalised gain of each result in rank order (module docstring).

    Worked (alpha = 1): /x[1] holds /x[1]/y[1] (0.5, ideal) and /x[1]/z[1] (0.25, ideal), /x[1]
    itself 0.5. Returning y, then x: y gains 0.5; x is seen in part, its children weigh 1/2
    each (no sizes): y seen (0), z unseen (0.25), rv = 0.125; charged to z (0.25 left): 0.125.

    >>> values = {("a", "/x[1]"): 0.5, ("a", "/x[1]/y[1]"): 0.5, ("a", "/x[1]/z[1]"): 0.25}
    >>> run_gains([("a", "/x[1]/y[1]"), ("a", "/x[1]")], RecallBase(values))
    [0.5, 0.125]
    """
    values = base.values
    left = list(base.ideal_values)
    returned: set[ElementKey] = set()
    partly: set[ElementKey] = set()  # strict ancestors of the returned elements
    kept = 1.0 - alpha

    def relevance(key: ElementKey) -> float:
        # rv of an element none of whose ancestors has been returned
        x = values.get(key, 0.0)
        if key in returned:
            return kept * x
        if key in partly:
            parts = sum(base.weight(key, c) * relevance(c) for c in base.children.get(key, ()))
            return alpha * parts + kept * x
        return x

    gains = []
    for key in keys:
        article, path = key
        chain = ancestors_or_self(path)
        if any((article, p) in returned for p in chain):
            gain = kept * values.get(key, 0.0)
        else:
            gain = relevance(key)
        index = base.owner.get(key)
        if index is None:
            below = base.under.get(key)
            index = max(below, key=lambda i: (left[i], -i)) if below else None
        if index is None:
            gain = 0.0
        else:
            gain = min(gain, left[index])
            left[index] -= gain
        gains.append(gain)
        returned.add(key)
        partly.update((article, p) for p in chain[:-1])
    return gains


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
        out[k] = min(1.0, reached / possible) if possible > 0 else 0.0
    return out


def maep(gains: Sequence[float], ideal: Sequence[float]) -> float:
    """Mean average effort-precision, averaged over gain recall (module docstring).

    Reference: Kazai & Lalmas, TOIS 2006 (effort-precision).

    Worked: gains 0, 1, 0.5 against ideal [1, 0.5] (total 1.5). Rank 2: xCG = 1, the ideal
    reaches 1 at rank 1, ep = 1/2, weight 1. Rank 3: xCG = 1.5, ideal rank 2, ep = 2/3,
    weight 0.5. MAep = (1/2 * 1 + 2/3 * 0.5) / 1.5 = 5/9.

    >>> round(maep([0.0, 1.0, 0.5], [1.0, 0.5]), 12) == round(5 / 9, 12)
    True
    """
    if not ideal:
        return 0.0
    best = np.cumsum(np.asarray(ideal, dtype=np.float64))
    run = np.asarray(gains, dtype=np.float64)
    ranks = np.flatnonzero(run > 0)
    if ranks.size == 0:
        return 0.0
    reached = np.cumsum(run)[ranks]
    tolerance = _TOLERANCE * max(1.0, float(best[-1]))
    ideal_rank = np.searchsorted(best, reached - tolerance, side="left") + 1
    effort = np.minimum(np.minimum(ideal_rank, len(ideal)) / (ranks + 1), 1.0)
    return min(1.0, float(np.dot(effort, run[ranks])) / float(best[-1]))
