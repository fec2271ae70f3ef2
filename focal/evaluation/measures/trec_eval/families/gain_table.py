"""trec_eval 10.0's gain table and ideal ranking, which its gain-based measures share, and
the topics' gains as matrices for the families that walk them rank by rank.

Gains (`gain_init.c`): each grade of the topic's judgements (0 up to its largest judged grade)
gains its own value unless `-m measure.grade=gain,...` gives another; a grade absent from the
qrels (a document outside the pool, -1, or unjudged, -2) gains 0. The ideal ranking takes the
judged documents by gain, highest first, and stops at the first gain that is not positive.

Every such measure (ndcg with gains given and its kin, G, rbp) starts from the same table,
and walks the ideal ranking rank by rank in lockstep with the run, exactly as trec_eval walks
it, so that the values come out to the last bit. A call builds each topic's table once for
all the families given the same gains (`tables`), and the topics' gains and ideal steps once;
a family reads them as `GainBlock`s, matrices of many topics at once, with array operations
(`per_topic`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.c_order import merge_sorted
from focal.evaluation.measures.trec_eval.families.measure import Context, Floats, Ints

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

Pairs = Sequence[tuple[str, float]]


@dataclass(frozen=True)
class Gain:
    """One gain level: the grade, its gain, and how many judged documents have the grade."""

    grade: int
    gain: float
    count: int


def _is_int(text: str) -> bool:
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isdigit() and digits.isascii()


def _below(a: Gain, b: Gain) -> bool:
    """trec_eval's comparison of two levels (`comp_rel_gain`: `(int)(a - b) < 0`, a negative
    integer part of the gains' difference), without C's cast, undefined for a NaN or a
    difference beyond int: at most -1 (an infinite difference orders, a NaN does not)."""
    return a.gain - b.gain <= -1.0


def sort_levels(table: list[Gain]) -> list[Gain]:
    """`table` in trec_eval's order of gains (`setup_gains` sorts them with `qsort`, which
    glibc does by merging: halves of n // 2 and the rest, each sorted so, then merged taking
    the first half's level unless the second's is below it), one order on every Python version
    and in the C pass (`kernel/_kernel_gain_table.c`). Under a consistent order (integral gains,
    or gains all within 1 of one another) that is every stable sort's order; a gain within 1 of
    two gains 1 or more apart makes no order, where C leaves `qsort`'s outcome undefined
    (docs/trec_eval.md, "Where 10.0's behaviour is not defined")."""
    return merge_sorted(table, lambda left, right: not _below(right, left))


def gains(pairs: Pairs, levels: Ints) -> list[Gain]:
    """The topic's gain levels, lowest gain first (`sort_levels`): given grades first, then
    every grade up to the largest judged one at its own value (`setup_gains`)."""
    table = [Gain(int(name), value, 0) for name, value in pairs if _is_int(name)]
    for grade, count in enumerate(levels.tolist()):
        at = next((i for i, g in enumerate(table) if g.grade == grade), None)
        if at is None:
            table.append(Gain(grade, float(grade), int(count)))
        else:
            table[at] = Gain(grade, table[at].gain, int(count))
    return sort_levels(table)


_INT64 = (-(2**63), 2**63 - 1)  # the grades a document's can be compared with


def gained_flat(context: Context, topic_tables: list[list[Gain]]) -> Floats:
    """The gain of every retrieved position of every topic: the first level of its topic's table
    with its grade, 0 for a grade no level has. The topics whose tables give the same
    grade -> gain look-up (all of them but for their largest judged grade, without gains
    given) are looked up together, on the run's grade array."""
    groups: dict[tuple[tuple[int, float], ...], list[int]] = {}
    for t, table in enumerate(topic_tables):
        lookup: dict[int, float] = {}
        for level in table:  # (a grade named beyond int64 matches no document: `_INT64`)
            if _INT64[0] <= level.grade <= _INT64[1]:
                lookup.setdefault(level.grade, level.gain)
        groups.setdefault(tuple(sorted(lookup.items())), []).append(t)
    grades = context.grades
    out = np.zeros(len(grades), dtype=np.float64)
    many = len(groups) > 1
    group_of = np.zeros(context.topics, dtype=np.int64)
    for number, members in enumerate(groups.values()):
        group_of[members] = number
    at_group = group_of[context.seg] if many else None
    for number, pairs in enumerate(groups):
        if not pairs:
            continue
        where = np.flatnonzero(at_group == number) if at_group is not None else None
        chosen = grades if where is None else grades[where]
        keys = np.array([grade for grade, _ in pairs], dtype=np.int64)
        values = np.array([gain for _, gain in pairs], dtype=np.float64)
        found = np.minimum(np.searchsorted(keys, chosen), len(keys) - 1)
        looked = np.where(keys[found] == chosen, values[found], 0.0)
        if where is None:
            out[:] = looked
        else:
            out[where] = looked
    return out


def walk_steps(table: list[Gain]) -> tuple[float, list[float]]:
    """The ideal ranking as trec_eval walks it rank by rank (highest gain level first, each
    level's gain once per judged document of its grade, levels without documents skipped, 0
    past the last): the gain before the first step (the top level's, even without documents),
    and the gains the steps reach while the gain before each step is positive (none when the
    top gain is not; the last one is the first that is not positive). The families index this
    list where trec_eval steps, the same values in the same order."""
    first = table[-1].gain if table else 0.0
    out: list[float] = []
    if not first > 0.0:
        return first, out
    for level in reversed(table):  # a level gives its gain once per judged document
        if level.count > 0:
            if not level.gain > 0.0:  # (the walk stops at a gain that is not positive)
                out.append(level.gain)
                return first, out
            out.extend([level.gain] * level.count)
    out.append(0.0)  # past the last level the walk's gain is 0
    return first, out


_LOG2: list[float] = []


def log2_ranks(count: int) -> list[float]:
    """`math.log2(i + 2)` for i = 0..count-1 and beyond (the discount of rank i + 1), computed
    once a process: the families' loops read it where trec_eval calls log2."""
    while len(_LOG2) < count:
        _LOG2.append(math.log2(len(_LOG2) + 2))
    return _LOG2


def tables(context: Context, family: str) -> list[list[Gain]]:
    """Each topic's gain table with the gains given to `family` (`ndcg.1=3,2=9`), built once a
    call for every family given the same gains."""
    pairs = context.pairs(family)
    return context.shared(("gains", pairs), lambda: [
        gains(pairs, levels) for levels in context.ranked.levels])  # fmt: skip


@dataclass(frozen=True)
class GainBlock:
    """Topics of like length as matrices, a row a topic (`topics`), a column a rank: `gained`
    the gain of each retrieved document in rank order (0 past the topic's `retrieved`),
    `steps` the ideal ranking's steps (`walk_steps`: 0 past the topic's `walked`; `first` the
    gain before the first step), `log2` the discount of each rank (`log2_ranks`), `num_rel`
    the topic's relevant count. A family reads a block with array operations that add along a
    row in rank order (`np.cumsum`), the same additions in the same order as trec_eval's loops."""

    topics: Ints
    gained: Floats
    steps: Floats
    retrieved: Ints
    walked: Ints
    first: Floats
    num_rel: Ints
    log2: Floats


def _flat_rows(starts: Ints, sizes: Ints) -> Ints:
    """The positions `starts[t] .. starts[t] + sizes[t] - 1` of every t, one after the other."""
    ends = np.cumsum(sizes)
    return np.repeat(starts - ends + sizes, sizes) + np.arange(int(ends[-1]) if len(ends) else 0)


def _matrix(values: Floats, sizes: Ints, width: int) -> Floats:
    """Rows of `sizes` values taken one after the other from `values`, zero-padded to `width`."""
    inside = np.arange(width) < sizes[:, None]  # row-major: the values' own order
    matrix = np.zeros((len(sizes), width), dtype=np.float64)
    matrix[inside] = values
    return matrix


@dataclass(frozen=True)
class _Walks:
    """Every topic's gains and ideal steps, flat (topic after topic), and the topics' blocks."""

    gained: Floats
    starts: Ints
    retrieved: Ints
    steps: Floats
    step_starts: Ints
    walked: Ints
    first: Floats
    blocks: list[Ints]


_CELLS = 1 << 20  # a block's matrices hold at most this many values each (8 MiB), or one topic


def _walks(context: Context, family: str) -> _Walks:
    """`_Walks` with the gains given to `family`, built once a call for every family given the
    same gains (ndcg_rel, Rndcg and G of `all_trec` share them). Topics go to blocks by the
    bit length of their longer list (so that padding costs at most as much again as the
    values), at most `_CELLS` values a block (so that memory does not grow with the topics)."""
    pairs = context.pairs(family)

    def build() -> _Walks:
        topic_tables = tables(context, family)
        gained = gained_flat(context, topic_tables)
        walks = [walk_steps(table) for table in topic_tables]
        first = np.array([f for f, _ in walks], dtype=np.float64)
        walked = np.array([len(steps) for _, steps in walks], dtype=np.int64)
        steps = np.fromiter((x for _, w in walks for x in w), np.float64, int(walked.sum()))
        starts = np.asarray(context.ranked.starts, dtype=np.int64)
        retrieved = np.diff(np.append(starts, len(gained)))
        widths = np.maximum(retrieved, walked)
        bins = np.array([int(w).bit_length() for w in widths.tolist()], dtype=np.int64)
        blocks = []
        for number in np.unique(bins).tolist():
            chosen = np.flatnonzero(bins == number)
            size = max(1, _CELLS // max(1, int(widths[chosen].max(initial=0))))
            blocks += [chosen[at : at + size] for at in range(0, len(chosen), size)]
        return _Walks(gained, starts, retrieved, steps, np.cumsum(walked) - walked, walked,
                      first, blocks)  # fmt: skip

    return context.shared(("gain walks", pairs), build)


def gain_blocks(context: Context, family: str) -> Iterator[GainBlock]:
    """Every topic in a `GainBlock` with the gains given to `family`, block after block (each
    made as the family reaches it: one block's matrices are held at a time)."""
    walks = _walks(context, family)
    num_rel = np.asarray(context.num_rel)
    for chosen in walks.blocks:
        width = int(np.maximum(walks.retrieved[chosen], walks.walked[chosen]).max(initial=0))
        n, m = walks.retrieved[chosen], walks.walked[chosen]
        yield GainBlock(
            chosen, _matrix(walks.gained[_flat_rows(walks.starts[chosen], n)], n, width),
            _matrix(walks.steps[_flat_rows(walks.step_starts[chosen], m)], m, width), n, m,
            walks.first[chosen], num_rel[chosen],
            np.array(log2_ranks(width)[:width], dtype=np.float64))  # fmt: skip


def per_topic(context: Context, family: str, measure: Callable[[GainBlock], Floats]) -> Floats:
    """`measure` of every block of topics (`gain_blocks`), as an array over the topics; in C's
    arithmetic, where x/0 is ±inf and ∞ − ∞ NaN without a word."""
    values = np.zeros(context.topics, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for block in gain_blocks(context, family):
            values[block.topics] = measure(block)
    return values
