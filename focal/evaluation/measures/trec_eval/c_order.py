"""The order C's `qsort` gives, under glibc: a stable merge sort (`msort_with_tmp`).

trec_eval sorts with `qsort` where its comparison is not a total order on the values at hand (a
NaN score among the ranked documents, gain levels whose differences C truncates to `int`), and
there C leaves the outcome undefined; the program people run, built on glibc, merges halves,
taking the left item while the comparison says it does not come after the right one. Focal
gives that outcome, in the ranking (`engine/order.py`) and in the gain table
(`families/gain_table.py`): docs/trec_eval.md, "Where 10.0's behaviour is not defined".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Item = TypeVar("Item")


def merge_sorted(items: Sequence[Item], before: Callable[[Item, Item], bool]) -> list[Item]:
    """`items` in glibc's `qsort` order: `before(a, b)` is the comparison's `cmp(a, b) <= 0`
    (a left item a stays before a right item b when it holds)."""
    if len(items) <= 1:
        return list(items)
    half = len(items) // 2
    left, right = merge_sorted(items[:half], before), merge_sorted(items[half:], before)
    merged: list[Item] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if before(left[i], right[j]):
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]
