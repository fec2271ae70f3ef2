"""trec_eval's preference measures for one topic (`form_prefs_counts.c`, `m_prefs_*.c`).

Judgements are preferences: within a judgement sub-group (JSG) of a judgement group (JG, a
user), every document at a higher level is preferred to every document at a lower one. A JG
with one JSG is a set of equivalence classes (ECs) by level; a JG with several JSGs is a
preference matrix closed under transitivity (A > B in one JSG and B > C in another give
A > C; a preference both ways is inconsistent and refused).

Documents are numbered as trec_eval numbers them: the judged documents the run retrieved get
0, 1, ... in ranked order (NJR of them), the other judged documents NJR, NJR+1, ... in id order.
A preference A > B is *fulfilled* when A's number is below B's, and counted as *retrieved*
(both retrieved), *implied* (exactly one retrieved) or *not occurring* (neither). A document
with a level above 0 is relevant. The measures (Buckley & Voorhees' preference counts):

- prefs_num_prefs_poss, _ful, _ful_ret: preferences possible, fulfilled (retrieved or
  implied), fulfilled among retrieved; summed over JGs (and over topics in `all`).
- prefs_simp (_ret, _imp): fulfilled ÷ possible, all JGs pooled; prefs_avgjg (_ret, _imp):
  the same ratio per JG, averaged over JGs.
- prefs_pair (_ret, _imp): over document pairs with a preference in any JG, the share of the
  JGs' votes for the fulfilled order, averaged over pairs (pairs of unretrieved documents count
  in prefs_pair's denominator only).
- prefs_avgjg_Rnonrel (_ret): prefs_avgjg with as many non-relevant documents as relevant ones
  (R), the first R, or R − N relevant successes added when there are fewer (N) non-relevant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


Matrix: TypeAlias = "npt.NDArray[np.int64]"


class PreferenceError(ValueError):
    """Inconsistent preferences (trec_eval stops), in `topic` when known (trec_eval has printed
    the `-q` rows of the topics before it)."""

    def __init__(self, message: str, topic: str | None = None) -> None:
        super().__init__(message)
        self.topic = topic


@dataclass(frozen=True)
class Preference:
    """One judgement line: judgement group, sub-group, level and document."""

    group: bytes
    sub_group: bytes
    level: float
    doc: bytes


@dataclass
class Group:
    """One JG's counts (trec_eval's `JG`), and what `recalculate` needs of it."""

    fulfilled_ret: int = 0
    possible_ret: int = 0
    fulfilled_imp: int = 0
    possible_imp: int = 0
    not_occurring: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    classes: list[npt.NDArray[np.int64]] = field(default_factory=list)  # EC ranks, best first
    matrix: npt.NDArray[np.bool_] | None = None  # preference matrix (several JSGs)
    levels: npt.NDArray[np.float64] | None = None  # per document number, -1 unknown


@dataclass
class Counts:
    """A topic's preference counts: its JGs, the vote matrix, NJR and the judged count."""

    groups: list[Group]
    votes: Matrix
    judged_ret: int
    judged: int


def numbering(
    prefs: Sequence[Preference], retrieved: Sequence[bytes]
) -> tuple[dict[bytes, int], int]:
    """Each judged document's number (`form_prefs_and_ranks`), and NJR."""
    judged = {p.doc for p in prefs}
    number: dict[bytes, int] = {}
    for doc in retrieved:
        if doc in judged and doc not in number:
            number[doc] = len(number)
    judged_ret = len(number)
    for doc in sorted(judged - number.keys()):
        number[doc] = len(number)
    return number, judged_ret


def count(prefs: Sequence[Preference], retrieved: Sequence[bytes]) -> Counts:
    """Every JG of a topic counted against the ranked documents `retrieved`."""
    number, judged_ret = numbering(prefs, retrieved)
    n = len(number)
    rows = sorted(((p.group, p.sub_group, -p.level, number[p.doc], p) for p in prefs),
                  key=lambda r: r[:4])  # fmt: skip
    votes = np.zeros((n, n), dtype=np.int64)
    groups: list[Group] = []
    start = 0
    while start < len(rows):
        end = start
        while end < len(rows) and rows[end][0] == rows[start][0]:
            end += 1
        members = rows[start:end]
        if len({r[1] for r in members}) > 1:
            groups.append(_matrix_group(members, n, judged_ret, votes))
        else:
            groups.append(_class_group(members, judged_ret, votes))
        start = end
    return Counts(groups, votes, judged_ret, n)


def _class_group(rows: list[tuple[bytes, bytes, float, int, Preference]], judged_ret: int,
                 votes: Matrix) -> Group:  # fmt: skip
    group = Group()
    levels: list[float] = []
    for _, _, negative, rank, _ in rows:
        if not levels or levels[-1] != -negative:
            levels.append(-negative)
            group.classes.append(np.zeros(0, dtype=np.int64))
        group.classes[-1] = np.append(group.classes[-1], rank)
    for i, ranks in enumerate(group.classes):
        retrieved = int(np.count_nonzero(ranks < judged_ret))
        if levels[i] > 0.0:
            group.num_rel_ret += retrieved
            group.num_rel += len(ranks)
        else:
            group.num_nonrel_ret += retrieved
            group.num_nonrel += len(ranks)
        for lower in group.classes[i + 1 :]:
            first, second = ranks[:, None], lower[None, :]
            if np.any(first == second):
                raise PreferenceError("a document has two levels in one judgement sub-group")
            np.add.at(votes, (np.repeat(ranks, len(lower)), np.tile(lower, len(ranks))), 1)
            ahead = first < second
            first_ret, second_ret = first < judged_ret, second < judged_ret
            group.fulfilled_ret += int(np.count_nonzero(ahead & second_ret))
            group.fulfilled_imp += int(np.count_nonzero(ahead & ~second_ret & first_ret))
            group.not_occurring += int(np.count_nonzero(ahead & ~second_ret & ~first_ret))
            group.possible_ret += int(np.count_nonzero(~ahead & first_ret))
            group.possible_imp += int(np.count_nonzero(~ahead & ~first_ret & second_ret))
            group.not_occurring += int(np.count_nonzero(~ahead & ~first_ret & ~second_ret))
    group.possible_ret += group.fulfilled_ret
    group.possible_imp += group.fulfilled_imp
    return group


def _matrix_group(rows: list[tuple[bytes, bytes, float, int, Preference]], n: int,
                  judged_ret: int, votes: Matrix) -> Group:  # fmt: skip
    group = Group()
    levels = np.full(n, -1.0)
    matrix = np.zeros((n, n), dtype=bool)
    for i, (_, sub_group, negative, rank, pref) in enumerate(rows):
        level = -negative
        if (levels[rank] > 0.0 and level == 0.0) or (levels[rank] == 0.0 and level > 0.0):
            raise PreferenceError(f"document {pref.doc.decode(errors='replace')!r} has both "
                                  "0 and a level above 0")  # fmt: skip
        levels[rank] = level
        j = i + 1
        while j < len(rows) and rows[j][1] == sub_group and rows[j][2] == negative:
            j += 1
        while j < len(rows) and rows[j][1] == sub_group:
            matrix[rank, rows[j][3]] = True
            j += 1
    np.fill_diagonal(matrix, True)
    for k in range(n):  # transitive closure (Warshall)
        matrix |= matrix[:, k : k + 1] & matrix[k : k + 1, :]
    np.fill_diagonal(matrix, False)
    if np.any(matrix & matrix.T):
        raise PreferenceError("inconsistent preferences (a document preferred both ways)")
    votes += matrix
    r = judged_ret
    group.fulfilled_ret = int(np.count_nonzero(np.triu(matrix[:r, :r], 1)))
    group.possible_ret = int(np.count_nonzero(np.tril(matrix[:r, :r], -1)))
    group.fulfilled_imp = int(np.count_nonzero(matrix[:r, r:]))
    group.possible_imp = int(np.count_nonzero(matrix[r:, :r]))
    group.not_occurring = int(np.count_nonzero(matrix[r:, r:]))
    group.possible_ret += group.fulfilled_ret
    group.possible_imp += group.fulfilled_imp
    group.num_rel_ret = int(np.count_nonzero(levels[:r] > 0.0))
    group.num_nonrel_ret = int(np.count_nonzero(levels[:r] == 0.0))
    group.num_rel = int(np.count_nonzero(levels > 0.0))
    group.num_nonrel = int(np.count_nonzero(levels == 0.0))
    group.matrix, group.levels = matrix, levels
    return group
