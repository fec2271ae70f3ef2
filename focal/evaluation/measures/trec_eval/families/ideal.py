"""Each topic's ideal DCG at every rank, for nDCG's normaliser (Järvelin & Kekäläinen, TOIS 2002).

trec_eval (`m_ndcg.c`, `m_ndcg_cut.c`) sums a topic's ideal gains one rank after the other, on
their own: the ideal DCG at rank k is that running sum at k (at the topic's last judged relevant
document when k is beyond it). `IdealDCG` keeps those running sums for every topic in one array,
so that a run's normalisers at a cut-off are one gather instead of a loop over its topics.

With gains given (`ndcg.1=3,2=9`) the families walk the ideal ranking step by step instead
(`gain_table`); `walk_rows` gives those steps for many topics at once, `log2_ranks` the
discounts trec_eval divides by, and `padded` lays topics of several lengths out as the rows of
one matrix, which numpy accumulates row by row in sequence, as a topic's own loop would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


Floats: TypeAlias = "npt.NDArray[np.float64]"
Ints: TypeAlias = "npt.NDArray[np.int64]"
Bools: TypeAlias = "npt.NDArray[np.bool_]"


@dataclass(frozen=True)
class IdealDCG:
    """Running sums of ideal gains, topic after topic: topic i's are `sums[starts[i]:
    starts[i] + sizes[i]]` (its rank 1, 2, ...; none when it has no relevant document)."""

    sums: Floats
    starts: Ints
    sizes: Ints

    def of(self, topics: Ints) -> IdealDCG:
        """The same sums for the topics `topics` (indexes), in that order."""
        return IdealDCG(self.sums, self.starts[topics], self.sizes[topics])

    def at(self, cut: int | None) -> Floats:
        """Per topic: the ideal DCG at rank `cut` (or at its last rank when the cut is beyond
        it, or None), 0.0 for a topic without relevant documents."""
        ranks = self.sizes if cut is None else np.minimum(self.sizes, cut)
        best = np.zeros(len(ranks), dtype=np.float64)
        some = ranks > 0
        best[some] = self.sums[self.starts[some] + ranks[some] - 1]
        return best

    def topic(self, index: int) -> Floats:
        """One topic's running sums."""
        start = int(self.starts[index])
        return self.sums[start : start + int(self.sizes[index])]


_LOG2: list[float] = []


def log2_ranks(count: int) -> list[float]:
    """`math.log2(i + 2)` for i = 0..count-1 and beyond (the discount of rank i + 1), computed
    once a process: the families' loops read it where trec_eval calls log2."""
    if len(_LOG2) < count:  # (the same calls, without a loop of the interpreter's own)
        _LOG2.extend(map(math.log2, range(len(_LOG2) + 2, count + 2)))
    return _LOG2


def flat_rows(starts: Ints, sizes: Ints) -> Ints:
    """The positions `starts[t] .. starts[t] + sizes[t] - 1` of every t, one after the other."""
    ends = np.cumsum(sizes)
    return np.repeat(starts - ends + sizes, sizes) + np.arange(int(ends[-1]) if len(ends) else 0)


def padded(values: Floats, sizes: Ints, width: int, fill: float = 0.0) -> tuple[Floats, Bools]:
    """Rows of `sizes` values taken one after the other from `values`, padded with `fill` to
    `width`, and where the values lie (row-major: the values' own order)."""
    inside = np.arange(width) < sizes[:, None]
    matrix = np.full((len(sizes), width), fill, dtype=np.float64)
    matrix[inside] = values
    return matrix, inside


def running_sums(terms: Floats, sizes: Ints) -> IdealDCG:
    """`IdealDCG` from each topic's terms (gain ÷ discount at ranks 1, 2, ...), concatenated topic
    after topic, `sizes` of them each. Each topic is summed on its own, from its rank 1: in one
    zero-padded matrix, whose rows numpy accumulates in sequence exactly as a topic's own cumsum
    would (the same additions in the same order); one topic at a time when padding would cost
    more than four times the terms."""
    sizes = np.asarray(sizes, dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    width = int(sizes.max(initial=0))
    if len(sizes) * width <= 4 * len(terms) + 4096:
        matrix, inside = padded(terms, sizes, width)
        np.cumsum(matrix, axis=1, out=matrix)
        sums = matrix[inside]
    else:
        parts = [np.cumsum(terms[s : s + n]) for s, n in zip(starts.tolist(), sizes.tolist(),
                                                                strict=True)]  # fmt: skip
        sums = np.concatenate(parts) if parts else np.zeros(0)
    return IdealDCG(sums.astype(np.float64, copy=False), starts, sizes)


def walk_rows(gains: Floats, counts: Ints) -> tuple[float, Floats, Ints]:
    """The ideal ranking's steps (`gain_table.walk_steps`) of the topics that share one gain
    table (`gain_table.LevelTables`: `gains` its levels' gains, lowest first; `counts` their
    judged documents, a row a topic), in arrays: the gain before the first step, every
    topic's steps one topic after the other, and how many each has. A level's gain comes its
    count of times, down to the first level with documents whose gain is not positive, which
    comes once; without one, a 0 closes the walk."""
    first = float(gains[-1]) if len(gains) else 0.0
    if not first > 0.0:
        return first, np.zeros(0, dtype=np.float64), np.zeros(len(counts), dtype=np.int64)
    down, held = gains[::-1], counts[:, ::-1]
    stops = (held > 0) & ~(down > 0.0)
    stop = np.where(stops.any(axis=1), np.argmax(stops, axis=1), len(down))[:, None]
    column = np.arange(len(down))
    taken = np.where(column < stop, held, column == stop)
    taken = np.hstack([taken, stop == len(down)]).astype(np.int64)
    steps = np.repeat(np.tile(np.append(down, 0.0), len(counts)), taken.ravel())
    return first, steps, taken.sum(axis=1)
