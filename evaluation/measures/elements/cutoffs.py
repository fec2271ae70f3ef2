"""P@k and set-based overlap@k of a ranked element list (seed 001 §3, spec section 5).

Results are (article, path) keys in rank order, paths in canonical form (every step with
`[n]`). Two results are *nested* when they are in the same article and one path equals the other
or is an ancestor of it; a result repeated in the list is nested with its copy. Past the end of a
short run the missing results count as neither relevant nor overlapping: the denominator stays k.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

ElementKey = tuple[str, str]
"""(article, canonical path)."""

CUTOFFS = (5, 10, 20, 30, 100, 200, 1500)
REFERENCE = (
    "D. Hiemstra, V. Mihajlović: The simplest evaluation measures for XML information retrieval "
    "that could possibly work, §3 (P@k, set-based overlap eq. 17); INEX 2004 set overlap."
)


@lru_cache(maxsize=1 << 16)
def ancestors_or_self(path: str) -> tuple[str, ...]:
    """`path` and every ancestor path, root first (cached: runs repeat their paths).

    >>> ancestors_or_self("/article[1]/bdy[1]/sec[2]")
    ('/article[1]', '/article[1]/bdy[1]', '/article[1]/bdy[1]/sec[2]')
    """
    steps = path.split("/")
    return tuple("/".join(steps[: i + 1]) for i in range(1, len(steps)))


def nested(a: ElementKey, b: ElementKey) -> bool:
    """Same article, and one path equals or is an ancestor of the other.

    >>> b, b10 = ("1", "/a[1]/b[1]"), ("1", "/a[1]/b[10]")
    >>> nested(b, ("1", "/a[1]")), nested(b, b10)
    (True, False)
    """
    if a[0] != b[0]:
        return False
    x, y = a[1], b[1]
    return x == y or y.startswith(x + "/") or x.startswith(y + "/")


def precision_at(gains: Sequence[float], cutoffs: Sequence[int] = CUTOFFS) -> dict[int, float]:
    """P@k = (1/k) * sum of the quantised gains of the first k results (missing ones are 0).

    Reference: seed 001 §3 (Hiemstra & Mihajlović).

    >>> precision_at([1.0, 0.0, 0.5], (2, 5))
    {2: 0.5, 5: 0.3}
    """
    total = np.concatenate(([0.0], np.cumsum(np.asarray(gains, dtype=np.float64))))
    last = len(gains)
    return {k: float(total[min(k, last)]) / k for k in cutoffs}


def first_partners(keys: Sequence[ElementKey]) -> list[int]:
    """For each result, the smallest rank index of another result nested with it (len(keys)
    when there is none).

    One pass in rank order: a result's partners among earlier results are the occurrences of
    its ancestors-or-self and the earlier results under it; an earlier result without a partner
    yet gets the current index, which is its smallest. Every list is emptied when scanned, so
    the pass costs O(n * depth).

    >>> first_partners([("1", "/a[1]/b[1]"), ("2", "/a[1]"), ("1", "/a[1]"), ("1", "/a[1]/c[1]")])
    [2, 4, 0, 2]
    """
    count = len(keys)
    partner = [count] * count
    first_at: dict[ElementKey, int] = {}  # first index of each exact key
    waiting_at: dict[ElementKey, list[int]] = {}  # indexes of a key still without a partner
    under: dict[ElementKey, list[int]] = {}  # earlier indexes at or below a key, first unscanned
    first_under: dict[ElementKey, int] = {}
    for index, (article, path) in enumerate(keys):
        lineage = ancestors_or_self(path)
        best = count
        for ancestor in lineage[:-1]:
            key = (article, ancestor)
            found = first_at.get(key)
            if found is not None:
                best = min(best, found)
                for earlier in waiting_at.pop(key, ()):
                    if partner[earlier] == count:
                        partner[earlier] = index
        own = (article, path)
        found = first_under.get(own)
        if found is not None:
            best = min(best, found)
            for earlier in under.pop(own, ()):
                if partner[earlier] == count:
                    partner[earlier] = index
        partner[index] = best
        if best == count:
            waiting_at.setdefault(own, []).append(index)
        first_at.setdefault(own, index)
        for ancestor in lineage:
            key = (article, ancestor)
            first_under.setdefault(key, index)
            if best == count:
                under.setdefault(key, []).append(index)
    return partner


def overlap_at(keys: Sequence[ElementKey], cutoffs: Sequence[int] = CUTOFFS) -> dict[int, float]:
    """overlap@k = |{r in R_k : some other r' in R_k is nested with r}| / k (seed 001 eq. 17
    applied to the first k results, spec section 5).

    Reference: seed 001 §3; result i (0-based) overlaps at cut-off k iff i < k and its first
    partner is < k.

    >>> overlap_at([("1", "/a[1]"), ("1", "/a[1]/b[1]"), ("2", "/a[1]")], (1, 2, 3, 5))
    {1: 0.0, 2: 1.0, 3: 0.6666666666666666, 5: 0.4}
    """
    partners = first_partners(keys)
    # result i counts from cut-off max(i, partner[i]) + 1 on
    starts = np.fromiter((max(i, p) + 1 for i, p in enumerate(partners) if p < len(keys)), np.int64)
    starts.sort()
    return {k: int(np.searchsorted(starts, k, side="right")) / k for k in cutoffs}
