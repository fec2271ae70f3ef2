"""Each topic's ideal DCG at every rank, for nDCG's normaliser (Järvelin & Kekäläinen, TOIS 2002).

trec_eval (`m_ndcg.c`, `m_ndcg_cut.c`) sums a topic's ideal gains one rank after the other, on
their own: the ideal DCG at rank k is that running sum at k (at the topic's last judged relevant
document when k is beyond it). `IdealDCG` keeps those running sums for every topic in one array,
so that a run's normalisers at a cut-off are one gather instead of a loop over its topics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np


Floats: TypeAlias = "npt.NDArray[np.float64]"
Ints: TypeAlias = "npt.NDArray[np.int64]"


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
        inside = np.arange(width) < sizes[:, None]  # row-major: the terms' own order
        padded = np.zeros((len(sizes), width), dtype=np.float64)
        padded[inside] = terms
        np.cumsum(padded, axis=1, out=padded)
        sums = padded[inside]
    else:
        parts = [np.cumsum(terms[s : s + n]) for s, n in zip(starts.tolist(), sizes.tolist(),
                                                                strict=True)]  # fmt: skip
        sums = np.concatenate(parts) if parts else np.zeros(0)
    return IdealDCG(sums.astype(np.float64, copy=False), starts, sizes)
