"""trec_eval 10.0's gain table and ideal ranking, which its gain-based measures share, and
the topics' gains as matrices for the families that walk them rank by rank.

Gains (`gain_init.c`): each grade of the topic's judgements (0 up to its largest judged grade)
gains its own value unless `-m measure.grade=gain,...` gives another; a grade absent from the
qrels (a document outside the pool, -1, or unjudged, -2) gains 0. The ideal ranking takes the
judged documents by gain, highest first, and stops at the first gain that is not positive.

Every such measure (ndcg with gains given and its kin, G, rbp) starts from the same table,
and walks the ideal ranking rank by rank in lockstep with the run, exactly as trec_eval walks
it (`walk_steps`), so that the values come out to the last bit. A call builds the tables once
for all the families given the same gains, one a largest judged grade (`level_tables`), and
the topics' gains and ideal steps once, in arrays (`ideal.walk_rows`); a family reads them as
`GainBlock`s, matrices of many topics at once, with array operations (`per_topic`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from focal.evaluation.measures.trec_eval.c_order import merge_sorted
from focal.evaluation.measures.trec_eval.families.ideal import (
    flat_rows,
    log2_ranks,
    padded,
    walk_rows,
)
from focal.evaluation.measures.trec_eval.families.measure import Context, Floats, Ints

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

Pairs = Sequence[tuple[str, float]]
Built = TypeVar("Built")


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
_DENSE = 1 << 12  # grades within this of one another are looked up by their difference


@dataclass(frozen=True)
class LevelTables:
    """Every topic's gain table (`gains`), one a kind of topic: but for its counts, a table
    depends only on the gains given and the topic's largest judged grade. Kind k: its topics
    (`members[k]`), its levels in `gains`' order (`grades[k]`, `gains[k]`), each topic's
    judged documents of each level (`counts[k]`, a row a topic); `kind[t]`: topic t's kind."""

    kind: Ints
    members: list[Ints]
    grades: list[list[int]]
    gains: list[Floats]
    counts: list[Ints]


def level_tables(context: Context, family: str) -> LevelTables:
    """`LevelTables` with the gains given to `family` (`ndcg.1=3,2=9`), built once a call for
    every family given the same gains. A kind's table is `gains` of counts that name their
    grade (grade + 1), so that each level says which of a topic's counts it takes."""
    pairs = context.pairs(family)

    def build() -> LevelTables:
        levels = context.ranked.levels
        sizes = np.fromiter(map(len, levels), np.int64, len(levels))
        flat = np.concatenate(levels).astype(np.int64) if len(levels) else np.zeros(0, np.int64)
        offsets = np.cumsum(sizes) - sizes
        shapes, kind = np.unique(sizes, return_inverse=True)
        out = LevelTables(kind.reshape(-1).astype(np.int64), [], [], [], [])
        for number, size in enumerate(shapes.tolist()):
            chosen = np.flatnonzero(out.kind == number)
            table = gains(pairs, np.arange(1, size + 1))
            source = np.array([level.count - 1 for level in table], dtype=np.int64)
            counts = np.zeros((len(chosen), len(table)), dtype=np.int64)
            if (source >= 0).any():
                counts = flat[offsets[chosen][:, None] + np.maximum(source, 0)]
                counts[:, source < 0] = 0
            out.members.append(chosen)
            out.grades.append([level.grade for level in table])
            out.gains.append(np.array([level.gain for level in table], dtype=np.float64))
            out.counts.append(counts)
        return out

    return context.shared(("gain tables", pairs), build)


def gained_flat(context: Context, tables: LevelTables, gain_of: list[Floats]) -> Floats:
    """The gain of every retrieved position of every topic: the first level of its topic's
    table with its grade, 0 for a grade no level has (`gain_of[k]`: kind k's gains, `tables`'
    or rescaled ones). One look-up for all: a kind's row, a grade's column among the grades
    any table has (a grade named beyond int64 matches no document)."""
    lookups: list[dict[int, float]] = []
    for levels, values in zip(tables.grades, gain_of, strict=True):
        lookups.append({})
        for grade, gain in zip(levels, values.tolist(), strict=True):
            if _INT64[0] <= grade <= _INT64[1]:
                lookups[-1].setdefault(grade, gain)
    keys = sorted({grade for lookup in lookups for grade in lookup})
    grades = context.grades
    if not keys:
        return np.zeros(len(grades), dtype=np.float64)
    low, high = keys[0], keys[-1]
    if high - low < _DENSE:  # a column for each grade from the least to the greatest
        keys = list(range(low, high + 1))
        at = np.clip(grades, low, high) - low
        known = (grades >= low) & (grades <= high)
    else:
        named = np.array(keys, dtype=np.int64)
        at = np.minimum(np.searchsorted(named, grades), len(keys) - 1)
        known = named[at] == grades
    column = {grade: number for number, grade in enumerate(keys)}
    table = np.zeros((len(lookups), len(keys)), dtype=np.float64)
    for row, lookup in enumerate(lookups):
        for grade, gain in lookup.items():
            table[row, column[grade]] = gain
    if len(lookups) > 1:
        at = at + tables.kind[context.seg] * len(keys)
    gained: Floats = np.where(known, table.ravel()[at], 0.0)
    return gained


def walk_steps(table: list[Gain]) -> tuple[float, list[float]]:
    """The ideal ranking as trec_eval walks it rank by rank (highest gain level first, each
    level's gain once per judged document of its grade, levels without documents skipped, 0
    past the last): the gain before the first step (the top level's, even without documents),
    and the gains the steps reach while the gain before each step is positive (none when the
    top gain is not; the last one is the first that is not positive): one topic's walk as
    trec_eval states it, which `ideal.walk_rows` gives for many topics at once (tested)."""
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
    kept: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def keep(self, key: str, build: Callable[[], Built]) -> Built:
        """What `build` gives, built once for the block (a figure several families read)."""
        if key not in self.kept:
            self.kept[key] = build()
        found: Built = self.kept[key]
        return found


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
    cells: int  # the blocks' matrices' values, all told


_CELLS = 1 << 20  # a block's matrices hold at most this many values each (8 MiB), or one topic


def _walks(context: Context, family: str) -> _Walks:
    """`_Walks` with the gains given to `family`, built once a call for every family given the
    same gains (ndcg_rel, Rndcg and G of `all_trec` share them). Topics go to blocks by the
    bit length of their longer list (so that padding costs at most as much again as the
    values), at most `_CELLS` values a block (so that memory does not grow with the topics)."""
    pairs = context.pairs(family)

    def build() -> _Walks:
        tables = level_tables(context, family)
        gained = gained_flat(context, tables, tables.gains)
        first = np.zeros(context.topics, dtype=np.float64)
        walked, step_starts = np.zeros((2, context.topics), dtype=np.int64)
        parts, done = [], 0
        for chosen, gains, counts in zip(tables.members, tables.gains, tables.counts,
                                         strict=True):  # fmt: skip
            first[chosen], steps, walked[chosen] = walk_rows(gains, counts)
            step_starts[chosen] = done + np.cumsum(walked[chosen]) - walked[chosen]
            parts.append(steps)
            done += len(steps)
        steps = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float64)
        starts = np.asarray(context.ranked.starts, dtype=np.int64)
        retrieved = np.diff(np.append(starts, len(gained)))
        widths = np.maximum(retrieved, walked)
        bins = np.frexp(widths.astype(np.float64))[1]  # (each width's bit length)
        blocks, cells = [], 0
        # (the bit lengths present, rising: np.unique would import numpy.ma, 10 ms a process)
        for number in np.flatnonzero(np.bincount(bins)).tolist():
            chosen = np.flatnonzero(bins == number)
            width = max(1, int(widths[chosen].max(initial=0)))
            size = max(1, _CELLS // width)
            blocks += [chosen[at : at + size] for at in range(0, len(chosen), size)]
            cells += len(chosen) * width
        return _Walks(gained, starts, retrieved, steps, step_starts, walked, first, blocks,
                      cells)  # fmt: skip

    return context.shared(("gain walks", pairs), build)


def gain_blocks(context: Context, family: str) -> Iterator[GainBlock]:
    """Every topic in a `GainBlock` with the gains given to `family`, block after block: kept
    for the call when all of them hold at most `_CELLS` values (ndcg_rel, Rndcg and G share
    them), else each made as the family reaches it (one block's matrices held at a time)."""
    walks = _walks(context, family)
    if walks.cells > _CELLS:
        return _blocks(context, walks)
    return iter(context.shared(("gain blocks", context.pairs(family)),
                               lambda: list(_blocks(context, walks))))  # fmt: skip


def _blocks(context: Context, walks: _Walks) -> Iterator[GainBlock]:
    num_rel = np.asarray(context.num_rel)
    for chosen in walks.blocks:
        n, m = walks.retrieved[chosen], walks.walked[chosen]
        width = int(np.maximum(n, m).max(initial=0))
        yield GainBlock(
            chosen, padded(walks.gained[flat_rows(walks.starts[chosen], n)], n, width)[0],
            padded(walks.steps[flat_rows(walks.step_starts[chosen], m)], m, width)[0], n, m,
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
