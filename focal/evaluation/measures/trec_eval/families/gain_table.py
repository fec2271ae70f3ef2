"""trec_eval 10.0's gain table and ideal ranking, which its gain-based measures share, and
each topic's gains for the families computed topic by topic.

Gains (`gain_init.c`): each grade of the topic's judgements (0 up to its largest judged grade)
gains its own value unless `-m measure.grade=gain,...` gives another; a grade absent from the
qrels (a document outside the pool, -1, or unjudged, -2) gains 0. The ideal ranking takes the
judged documents by gain, highest first, and stops at the first gain that is not positive.

Every such measure (ndcg with gains given and its kin, G, rbp) starts from the same table,
and walks the ideal ranking rank by rank in lockstep with the run, exactly as trec_eval walks
it, so that the values come out to the last bit. A call builds each topic's table once for
all the families given the same gains (`tables`); `per_topic` hands each topic's `TopicGains`
to a family's own loop.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from focal.evaluation.measures.trec_eval.families.measure import Context, Floats, Ints

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


def gains(pairs: Pairs, levels: Ints) -> list[Gain]:
    """The topic's gain levels, lowest gain first: given grades first, then every grade up to
    the largest judged one at its own value (`setup_gains`). trec_eval compares gains as the
    integer part of their difference; the same comparison is kept, with a stable sort."""
    table = [Gain(int(name), value, 0) for name, value in pairs if _is_int(name)]
    for grade, count in enumerate(levels.tolist()):
        at = next((i for i, g in enumerate(table) if g.grade == grade), None)
        if at is None:
            table.append(Gain(grade, float(grade), int(count)))
        else:
            table[at] = Gain(grade, table[at].gain, int(count))

    def compare(a: Gain, b: Gain) -> int:
        return int(a.gain - b.gain)

    return sorted(table, key=functools.cmp_to_key(compare))


def gained_flat(context: Context, topic_tables: list[list[Gain]]) -> Floats:
    """The gain of every retrieved position of every topic: the first level of its topic's table
    with its grade, 0 for a grade no level has. The topics whose tables give the same
    grade -> gain look-up (all of them but for their largest judged grade, without gains
    given) are looked up together, on the run's grade array."""
    groups: dict[tuple[tuple[int, float], ...], list[int]] = {}
    for t, table in enumerate(topic_tables):
        lookup: dict[int, float] = {}
        for level in table:
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


@dataclass(frozen=True)
class TopicGains:
    """One topic as its gain-based families read it: the gain table, the gain of each
    retrieved document in rank order, the topic's relevant count, and the ideal ranking's
    steps (`walk_steps`: `first`, the gain before the first step, and `steps`)."""

    table: list[Gain]
    gained: list[float]
    num_rel: int
    first: float
    steps: list[float]

    def ideal(self) -> list[float]:
        """The ideal ranking's gains, rank by rank, up to the first that is not positive."""
        return self.steps[:-1]


def tables(context: Context, family: str) -> list[list[Gain]]:
    """Each topic's gain table with the gains given to `family` (`ndcg.1=3,2=9`), built once a
    call for every family given the same gains."""
    pairs = context.pairs(family)
    return context.shared(("gains", pairs), lambda: [
        gains(pairs, levels) for levels in context.ranked.levels])  # fmt: skip


def topic_gains(context: Context, family: str) -> Iterator[TopicGains]:
    """Every topic's `TopicGains` with the gains given to `family`. The gains of the positions
    and the ideal rankings are computed once a call for every family given the same gains
    (ndcg_rel, Rndcg and G of `all_trec` share them); each topic's list of gains is made as
    the family reaches the topic, so that no more than one topic's is held at a time."""
    pairs = context.pairs(family)

    def build() -> tuple[Floats, list[tuple[float, list[float]]]]:
        topic_tables = tables(context, family)
        return gained_flat(context, topic_tables), [walk_steps(t) for t in topic_tables]

    gained, walks = context.shared(("topic gains", pairs), build)
    num_rel = context.num_rel.tolist()
    starts = context.ranked.starts.tolist()
    ends = [*starts[1:], len(gained)]
    for t, table in enumerate(tables(context, family)):
        first, steps = walks[t]
        yield TopicGains(table, gained[starts[t] : ends[t]].tolist(), num_rel[t], first, steps)


def per_topic(context: Context, family: str, measure: Callable[[TopicGains], float]) -> Floats:
    """`measure` of every topic's gains, as an array over the topics."""
    values = [measure(topic) for topic in topic_gains(context, family)]
    return np.array(values, dtype=np.float64)
