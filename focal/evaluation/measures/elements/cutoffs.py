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

    Nesting depends only on the (article, path) key, so the work is per distinct key: the first
    two occurrences of each key, the earliest occurrence among its ancestors' keys and among its
    descendants' keys (each key's first occurrence pushed up to its ancestors). A result's first
    partner is the smallest of those, its own key's other first occurrence included. O(distinct
    keys * depth + n).

    >>> first_partners([("1", "/a[1]/b[1]"), ("2", "/a[1]"), ("1", "/a[1]"), ("1", "/a[1]/c[1]")])
    [2, 4, 0, 2]
    """
    count = len(keys)
    first: dict[ElementKey, int] = {}
    second: dict[ElementKey, int] = {}
    for index, key in enumerate(keys):
        if key not in first:
            first[key] = index
        elif key not in second:
            second[key] = index
    below: dict[ElementKey, int] = {}  # earliest occurrence of a strict descendant
    for (article, path), at in first.items():
        for ancestor in ancestors_or_self(path)[:-1]:
            up = (article, ancestor)
            if at < below.get(up, count):
                below[up] = at
    best: dict[ElementKey, int] = {}
    for key in first:
        article, path = key
        nearest = below.get(key, count)
        for ancestor in ancestors_or_self(path)[:-1]:
            at = first.get((article, ancestor), count)
            if at < nearest:
                nearest = at
        best[key] = nearest
    partners = []
    for index, key in enumerate(keys):
        own = first[key]
        copy = second.get(key, count) if own == index else own
        nearest = best[key]
        partners.append(copy if copy < nearest else nearest)
    return partners


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
