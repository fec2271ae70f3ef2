"""trec_eval's `prefs_*` measures from one topic's preference counts (`m_prefs_*.c`; the
counting and the definitions are in `preferences`). They are computed on preference judgements
(`-R prefs`, `-R qrels_prefs`) by `engine.prefs`, which calls `preference_value`, not on a
ranked run's grades: their declarations have no `compute`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from focal.evaluation.measures.trec_eval.families.measure import TrecMeasure
from focal.evaluation.measures.trec_eval.families.preferences import Counts, Group

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

Ranks: TypeAlias = "npt.NDArray[np.int64]"


def _fulfilled(group: Group, kind: str) -> tuple[int, int]:
    """(fulfilled, possible) of a JG: all, retrieved only, or retrieved and implied."""
    if kind == "ret":
        return group.fulfilled_ret, group.possible_ret
    fulfilled = group.fulfilled_ret + group.fulfilled_imp
    possible = group.possible_ret + group.possible_imp
    return fulfilled, possible + (group.not_occurring if kind == "all" else 0)


def preference_value(family: str, counts: Counts) -> float:
    """One `prefs_*` measure of the topic."""
    groups = counts.groups
    kind = "ret" if family.endswith("_ret") else "imp" if family.endswith("_imp") else "all"
    if family.startswith("prefs_num_prefs"):
        if family == "prefs_num_prefs_poss":
            return float(sum(_fulfilled(g, "all")[1] for g in groups))
        return float(sum(_fulfilled(g, kind)[0] for g in groups))
    if family.startswith("prefs_simp"):
        fulfilled = possible = 0
        for group in groups:
            f, p = _fulfilled(group, kind)
            fulfilled, possible = fulfilled + f, possible + p
        return fulfilled / possible if possible else 0.0
    if family.startswith("prefs_pair"):
        return _pairs(counts, kind)
    total = 0.0
    for group in groups:
        if family.startswith("prefs_avgjg_Rnonrel"):
            total += _r_nonrel(group, counts.judged_ret, kind == "ret")
        else:
            f, p = _fulfilled(group, kind)
            if p:
                total += f / p
    return total / len(groups) if total > 0.0 else 0.0


def _pairs(counts: Counts, kind: str) -> float:
    """Over pairs with a preference: the fulfilled order's share of the votes (`m_prefs_pair.c`)."""
    votes, r, n = counts.votes, counts.judged_ret, counts.judged
    total, pairs = 0.0, 0
    blocks = [(slice(0, r), slice(0, r), True)]
    if kind != "ret":
        blocks.append((slice(0, r), slice(r, n), False))
    for rows, columns, upper in blocks:
        ahead, behind = votes[rows, columns], votes.T[rows, columns]
        some = (ahead > 0) | (behind > 0)
        if upper:
            some = np.triu(some, 1)
        for i, j in zip(*np.nonzero(some), strict=True):
            pairs += 1
            total += int(ahead[i, j]) / int(ahead[i, j] + behind[i, j])
    if kind == "all":
        tail = votes[r:n, r:n]
        pairs += int(np.count_nonzero(np.triu((tail > 0) | (tail.T > 0), 1)))
    return total / pairs if pairs else 0.0


def _r_nonrel(group: Group, judged_ret: int, retrieved_only: bool) -> float:
    """prefs_avgjg_Rnonrel(_ret) of one JG: its ratio with R non-relevant documents."""
    rel = group.num_rel_ret if retrieved_only else group.num_rel
    nonrel = group.num_nonrel_ret if retrieved_only else group.num_nonrel
    if rel >= nonrel:
        f, p = _fulfilled(group, "ret" if retrieved_only else "all")
        f += group.num_rel_ret * (rel - nonrel)
        p += group.num_rel * (rel - nonrel)
        return f / p if p else float("nan")
    f, p = _recalculate(group, judged_ret, retrieved_only)
    return f / p if p else float("nan")


def _recalculate(group: Group, judged_ret: int, retrieved_only: bool) -> tuple[int, int]:
    """Counts with only the first R non-relevant documents (`recalculate` in
    `m_prefs_avgjg_Rnonrel*.c`, whose quirks are kept: every EC but the last is compared with
    the others but the last, then every EC with the last EC's first R documents)."""
    fulfilled = possible = 0
    r = judged_ret
    if group.matrix is None:
        classes = group.classes
        keep = group.num_rel_ret if retrieved_only else group.num_rel
        last = classes[-1][:keep]

        def cut(ranks: Ranks) -> Ranks:
            return ranks[: int(np.count_nonzero(ranks < r))] if retrieved_only else ranks

        def tally(first: Ranks, second: Ranks) -> None:
            nonlocal fulfilled, possible
            ahead = first[:, None] < second[None, :]
            if not retrieved_only:
                ahead &= (first < r)[:, None]
            fulfilled += int(np.count_nonzero(ahead))
            possible += int(ahead.size - np.count_nonzero(ahead))

        for i, ranks in enumerate(classes):
            for other in classes[i + 1 : len(classes) - 1]:
                tally(cut(ranks), cut(other))
        for ranks in classes:
            tally(cut(ranks), cut(last))
        return fulfilled, possible + fulfilled
    matrix, levels = group.matrix, group.levels
    assert levels is not None
    n = len(levels)
    seen, first_dropped = 0, (r if retrieved_only else n)
    for i in range(r if retrieved_only else n):
        if levels[i] == 0.0:
            seen += 1
            if seen == group.num_rel + 1:
                first_dropped = i
                break
    kept = ~((np.arange(n) >= first_dropped) & (levels == 0.0))
    m = matrix & kept[:, None] & kept[None, :]
    fulfilled = int(np.count_nonzero(np.triu(m[:r, :r], 1)))
    possible = int(np.count_nonzero(np.tril(m[:r, :r], -1)))
    if not retrieved_only:
        fulfilled += int(np.count_nonzero(m[:r, r:]))
        possible += int(np.count_nonzero(m[r:, :r])) + int(np.count_nonzero(m[r:, r:]))
    return fulfilled, possible + fulfilled


ALL_PREFS = ("all_prefs",)
PREFS = ("all_prefs", "prefs")
DECLARED = (
    TrecMeasure("prefs_num_prefs_poss", 36, None, count=True, sets=PREFS),
    TrecMeasure("prefs_num_prefs_ful", 37, None, count=True, sets=PREFS),
    TrecMeasure("prefs_num_prefs_ful_ret", 38, None, count=True, sets=PREFS),
    TrecMeasure("prefs_simp", 39, None, sets=PREFS),
    TrecMeasure("prefs_pair", 40, None, sets=PREFS),
    TrecMeasure("prefs_avgjg", 41, None, sets=PREFS),
    TrecMeasure("prefs_avgjg_Rnonrel", 42, None, sets=ALL_PREFS),
    TrecMeasure("prefs_simp_ret", 43, None, sets=ALL_PREFS),
    TrecMeasure("prefs_pair_ret", 44, None, sets=ALL_PREFS),
    TrecMeasure("prefs_avgjg_ret", 45, None, sets=ALL_PREFS),
    TrecMeasure("prefs_avgjg_Rnonrel_ret", 46, None, sets=ALL_PREFS),
    TrecMeasure("prefs_simp_imp", 47, None, sets=ALL_PREFS),
    TrecMeasure("prefs_pair_imp", 48, None, sets=ALL_PREFS),
    TrecMeasure("prefs_avgjg_imp", 49, None, sets=ALL_PREFS),
)
