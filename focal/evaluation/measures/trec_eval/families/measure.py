"""What a trec_eval measure family is (`TrecMeasure`: one declaration with the function that
computes it) and what that function reads (`Context`: a whole run's arrays, each computed once).

A run arrives as `Ranked`: the grades of its retrieved documents in trec_eval's order (score
descending, then document id descending), topic after topic, cut to `-M` documents per topic.
A grade is the qrels grade, `NONPOOL` (-1) for a document absent from the qrels and `UNJUDGED`
(-2) for one the qrels list with a negative grade (trec_eval `form_res_rels.c`). A document is
relevant when its grade is at least the relevance level `level` (`-l`, default 1); judged
non-relevant when its grade is in [0, level). Every measure is a sum over positions, taken per
topic with `np.bincount`, so a run costs a few array passes whatever its number of topics.

Notation of the families' formulas: R = relevant documents of the topic, r = rank, rel(r) = 1
if relevant, c(r) = relevant documents in ranks 1..r. Reference: trec_eval 10.0 `measures.c`
(each family's `m_*.c`), `trec_eval.c`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar

from focal.evaluation.measures.trec_eval.families.ideal import IdealDCG

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np

NONPOOL = -1
UNJUDGED = -2
MIN_GEO_MEAN = 1e-5
LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
# trec_eval's sets (`-m official`), in the order Focal names them
SET_NAMES = ("official", "all_trec", "qrels_jg", "all_prefs", "prefs", "set")

Floats: TypeAlias = "npt.NDArray[np.float64]"
Ints: TypeAlias = "npt.NDArray[np.int64]"
# a family's value per topic (relstring's are strings)
Column: TypeAlias = "Floats | Ints | list[str]"
Kind = Literal["cutoffs", "levels", "list", "pairs"]
Printed = Literal["one", "cutoffs", "levels", "typed", "pairs"]
Built = TypeVar("Built")


@dataclass(frozen=True)
class Parameters:
    """A family's parameters, as `-m name.params` gives them and its rows print them
    (`meas_init.c`): `cutoffs` are read with C's `atol`, sorted, positive and distinct, a row
    each (`P_10`); `levels` with `atof`, sorted and distinct, a row each
    (`iprec_at_recall_0.10`); a `list` with `atof` as typed (`length` of them when fixed), one
    row named as typed (`set_F_0.5`); `pairs` `name=value,...` (`ndcg.1=3,2=9`, `rbp.p=0.8`),
    one row named as typed."""

    kind: Kind
    defaults: tuple[float, ...] = ()
    length: int | None = None


@dataclass(frozen=True)
class Row:
    """One printed measure: its name (`P_10`), family (`P`) and parameter (10), if any."""

    name: str
    family: str
    parameter: float | None = None


@dataclass(frozen=True)
class TrecMeasure:
    """A trec_eval measure family: how `-m` names it, how its rows print, and its computation.

    `position`: its index in trec_eval 10.0's `te_trec_measures[]` (`measures.c`), which orders
    the printed rows. `compute(context, row)`: the row's value for every topic of the run; None
    when other judgements give it (the `prefs_*` families: `preference_measures`; `over_groups`:
    the mean over judgement groups of that family, `-R qrels_jg`) or the engine counts it
    (num_q). `focal`, `ir_measures`: the other vocabularies' spellings, `X@k` standing for a
    parameter after `@` (`nDCG@10` is `ndcg_cut.10`); `rel`: the spellings that take
    ir_measures' `(rel=g)`, trec_eval's `-l g`. `sets`: the `-m` sets naming it.
    """

    name: str
    position: int
    compute: Compute | None
    parameters: Parameters | None = None
    count: bool = False  # printed as an integer, summed over topics
    geometric: bool = False  # per topic ln max(x, 1e-5); `all`: exp of the mean
    text: bool = False  # a string per topic (relstring), no `all` row
    summary_only: bool = False  # printed in the `all` block only (and the geometric ones)
    reset_when_missing: bool = False  # 10.0 -c: reset on a missing topic (`trec_eval.c`)
    over_groups: str | None = None
    focal: tuple[str, ...] = ()
    ir_measures: tuple[str, ...] = ()
    rel: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    definition: str = ""  # one line, for `focal measures`
    citation: str = ""  # the paper that defines it, when there is one (docs/references.md)

    @property
    def aliases(self) -> tuple[str, ...]:
        """Every other spelling, Focal's first (`MAP`, `AP`)."""
        return tuple(dict.fromkeys((*self.focal, *self.ir_measures)))

    @property
    def defaults(self) -> tuple[float, ...] | None:
        """The parameters when none are given (None: it takes none)."""
        return None if self.parameters is None else self.parameters.defaults

    @property
    def printed(self) -> Printed:
        """One row (`map`), a row per cut-off (`P_10`) or level (`iprec_at_recall_0.10`), or
        one row named with the parameters as typed (`set_F_0.5`, `ndcg_1=3`)."""
        if self.parameters is None:
            return "one"
        kind = self.parameters.kind
        return "typed" if kind == "list" else kind


class Asked(Protocol):
    """What the selection says of each family's parameters (`declarations.Selection`)."""

    def parameters(self, family: str) -> tuple[float, ...]: ...
    @property
    def pairs(self) -> dict[str, tuple[tuple[str, float], ...]]: ...


@dataclass(frozen=True)
class Ranked:
    """Retrieved grades of several topics, concatenated in ranked order."""

    grades: Ints  # per position
    starts: Ints  # per topic: index of its first position
    num_rel: Ints  # per topic: judged documents with grade >= level
    num_nonrel: Ints  # per topic: judged documents with 0 <= grade < level
    ideal: IdealDCG  # per topic: cumulative ideal DCG at ranks 1, 2, ...
    levels: list[Ints] = field(default_factory=list)  # per topic: judged documents per grade


class Context:
    """One call's run as every family reads it: arrays over its positions and topics, each
    computed on first use and kept for the call (c(r) and the first relevant rank serve several
    families; `shared` keeps what a family module computes for several rows or families)."""

    def __init__(self, ranked: Ranked, asked: Asked, level: int, version: int,
                 num_docs: int = 0) -> None:  # fmt: skip
        self.ranked, self.asked = ranked, asked
        self.level, self.version, self.num_docs = level, version, num_docs
        self.topics = len(ranked.starts)
        self.grades, self.num_rel = ranked.grades, ranked.num_rel
        self._shared: dict[Hashable, Any] = {}

    def shared(self, key: Hashable, build: Callable[[], Built]) -> Built:
        """What `build` gives, built on the first call with `key` and kept for the call."""
        if key not in self._shared:
            self._shared[key] = build()
        found: Built = self._shared[key]
        return found

    def parameters(self, family: str) -> tuple[float, ...]:
        return self.asked.parameters(family)

    def pairs(self, family: str) -> tuple[tuple[str, float], ...]:
        return self.asked.pairs.get(family, ())

    @cached_property
    def num_ret(self) -> Ints:
        """Documents retrieved, per topic."""
        sizes: Ints = np.diff(np.append(self.ranked.starts, len(self.grades)))
        return sizes

    @cached_property
    def seg(self) -> Ints:
        """Each position's topic."""
        return np.repeat(np.arange(self.topics), self.num_ret)

    @cached_property
    def rank(self) -> Ints:
        """1, 2, ... along each topic's positions: steps of 1 that fall back at each topic's
        start, summed (one array, where `arange - starts[seg]` made three)."""
        sizes, starts = self.num_ret, self.ranked.starts
        steps = np.ones(len(self.grades), dtype=np.int64)
        filled = sizes > 0
        at, size = starts[filled], sizes[filled]
        steps[at[1:]] = 1 - size[:-1]
        return np.cumsum(steps, out=steps)

    @cached_property
    def relevant(self) -> npt.NDArray[np.bool_]:
        return self.grades >= self.level

    @cached_property
    def found_at(self) -> Ints:
        """The relevant positions, in order (so their topics never fall)."""
        return np.flatnonzero(self.relevant)

    @cached_property
    def found_seg(self) -> Ints:
        return self.seg[self.found_at]

    @cached_property
    def found_rank(self) -> Ints:
        return self.rank[self.found_at]

    @cached_property
    def num_rel_ret(self) -> Ints:
        found: Ints = np.bincount(self.found_seg, minlength=self.topics).astype(np.int64)
        return found

    @cached_property
    def precision_found(self) -> Floats:
        """c(r)/r at each relevant position, c(r) being its place among its topic's."""
        cum_found = np.arange(1, len(self.found_at) + 1, dtype=np.int64)
        cum_found -= (np.cumsum(self.num_rel_ret) - self.num_rel_ret)[self.found_seg]
        precision: Floats = cum_found / self.found_rank
        return precision

    @cached_property
    def first(self) -> Floats:
        """The rank of each topic's first relevant document (inf: none)."""
        found_seg, found_rank = self.found_seg, self.found_rank
        opens = np.concatenate(([True], found_seg[1:] != found_seg[:-1]))[: len(found_seg)]
        first = np.full(self.topics, np.inf)
        first[found_seg[opens]] = found_rank[opens]
        return first

    @cached_property
    def cumulative(self) -> Ints:
        """c(r) at every position."""
        return self.within(np.cumsum(self.relevant))

    @cached_property
    def topic_grades(self) -> list[Ints]:
        """Each topic's grades, for the families computed topic by topic."""
        starts = self.ranked.starts.tolist()
        ends = [*starts[1:], len(self.grades)]
        return [self.grades[s:e] for s, e in zip(starts, ends, strict=True)]

    def within(self, running: Ints) -> Ints:
        """A running count over every position, restarted at every topic's first position."""
        before = np.concatenate(([0], running))[self.ranked.starts]
        restarted: Ints = running - before[self.seg]
        return restarted

    def total(self, weights: npt.ArrayLike) -> Floats:
        """Per topic, the sum of `weights` over its positions."""
        sums = np.bincount(self.seg, np.asarray(weights, np.float64), minlength=self.topics)
        return sums.astype(np.float64)

    def total_at(self, segments: Ints, terms: Floats) -> Floats:
        """Per topic, the sum of `terms` at some positions only (`segments`: their topics).
        The others would add 0.0, which changes no sum of terms of one sign: the same additions
        in the same order as `total` over every position."""
        return np.bincount(segments, terms, minlength=self.topics).astype(np.float64)

    def found_within(self, k: float) -> Floats:
        """c(k): relevant documents at rank k or better, per topic."""
        within = np.full(self.topics, k)
        return self.shared(("found_within", k), lambda: self.found_upto(within).astype(np.float64))

    @cached_property
    def _found_keys(self) -> tuple[Ints, Ints, Ints]:
        """Each relevant position as topic · (longest list + 1) + rank, ascending as the
        relevant positions are (topics in order, ranks rising in each); each topic's key of
        rank 0 and its first relevant position."""
        step = int(self.num_ret.max(initial=0)) + 1
        firsts: Ints = np.cumsum(self.num_rel_ret) - self.num_rel_ret
        return self.found_seg * step + self.found_rank, np.arange(self.topics) * step, firsts

    def found_upto(self, ranks: Floats | Ints) -> Ints:
        """Per topic t, its relevant documents at rank `ranks[t]` or better: a binary search a
        topic among the relevant positions, where a pass over them took a comparison each."""
        keys, base, firsts = self._found_keys
        cut = np.clip(ranks, 0, int(self.num_ret.max(initial=0))).astype(np.int64)
        found: Ints = np.searchsorted(keys, base + cut, side="right") - firsts
        return found

    def per_rel(self, sums: Floats) -> Floats:
        """`sums` ÷ R per topic (0 without relevant documents)."""
        num_rel = self.num_rel
        ratio: Floats = np.divide(sums, num_rel, out=np.zeros(self.topics), where=num_rel > 0)
        return ratio


Compute: TypeAlias = "Callable[[Context, Row], Column]"


def parameter(row: Row) -> float:
    """The cut-off or level of a row of a family that prints one row per parameter."""
    if row.parameter is None:
        raise ValueError(f"row {row.name} has no parameter")
    return row.parameter
