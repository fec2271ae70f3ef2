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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

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


def gain_of(table: list[Gain], grades: Ints) -> npt.NDArray[np.float64]:
    """Each retrieved grade's gain (the first level with that grade; 0 for none)."""
    lookup: dict[int, float] = {}
    for level in table:
        lookup.setdefault(level.grade, level.gain)
    return np.array([lookup.get(g, 0.0) for g in grades.tolist()], dtype=np.float64)


class IdealWalk:
    """The ideal ranking walked rank by rank, as trec_eval walks it: `gain` is the ideal gain
    at the rank `step` reached (0 once the positive gains are used up)."""

    def __init__(self, table: list[Gain]) -> None:
        self.table = table
        self.level = len(table) - 1
        self.gain = table[self.level].gain if self.level >= 0 else 0.0
        self.count = 0

    def step(self) -> float:
        self.count += 1
        while self.level >= 0 and self.count > self.table[self.level].count:
            self.count, self.level = 1, self.level - 1
            self.gain = self.table[self.level].gain if self.level >= 0 else 0.0
        return self.gain


@dataclass(frozen=True)
class TopicGains:
    """One topic as its gain-based families read it: the gain table, the gain of each
    retrieved document in rank order, and the topic's relevant count."""

    table: list[Gain]
    gained: list[float]
    num_rel: int

    def walk(self) -> IdealWalk:
        """A new walk down the ideal ranking."""
        return IdealWalk(self.table)

    def ideal(self) -> list[float]:
        """The ideal ranking's gains, rank by rank, up to the first that is not positive."""
        walk, out = self.walk(), []
        while walk.gain > 0.0 and walk.step() > 0.0:
            out.append(walk.gain)
        return out


def tables(context: Context, family: str) -> list[list[Gain]]:
    """Each topic's gain table with the gains given to `family` (`ndcg.1=3,2=9`), built once a
    call for every family given the same gains."""
    pairs = context.pairs(family)
    return context.shared(("gains", pairs), lambda: [
        gains(pairs, levels) for levels in context.ranked.levels])  # fmt: skip


def per_topic(context: Context, family: str, measure: Callable[[TopicGains], float]) -> Floats:
    """`measure` of every topic's gains, as an array over the topics."""
    num_rel = context.num_rel.tolist()
    values = [
        measure(TopicGains(table, gain_of(table, grades).tolist(), num_rel[t]))
        for t, (table, grades) in enumerate(zip(tables(context, family), context.topic_grades,
                                                strict=True))
    ]  # fmt: skip
    return np.array(values, dtype=np.float64)
