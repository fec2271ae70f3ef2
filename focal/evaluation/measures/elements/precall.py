"""inex_eval: precall with the expected search length over tie blocks (INEX 2002).

Precision at a recall level x is taken as the probability that a result is relevant when the
user stops after n = x * N relevance has been seen (Raghavan, Bollmann & Jung, "A critical
investigation of recall and precision", TOIS 7(3), 1989), with the quantised gain f of a result
counted as f relevant and 1 - f not relevant (Gövert & Kazai, INEX 2002 metrics; seed 001 §2.2):

    precall(x) = n / (n + ESL(n)),   ESL(n) = j + s * i / (r + 1)

where the results are cut into blocks of equal rank (a weak ordering), l is the block in which
the cumulated gain reaches n, j is the non-relevance before block l, r and i are the relevance
and non-relevance inside block l and s = n minus the relevance before block l. N is the sum of
the quantised gains of every assessed element of the topic (the full recall base, overlap
included). A level the run never reaches scores 0.

Blocks (`ties`): "score" (default) puts consecutive results of equal score in one block, "rank"
makes every result its own block (file order is strict).

Non-relevance of a result (`nonrel`): "indicator" (default) counts a result as non-relevant when
its quantised value is 0, as seed 000 §2.6 describes inex_eval (nonrel(i) = Σ I(f = 0) over the
block); "complement" counts 1 - f for every result, so that a half-relevant element is also half
non-relevant. The two agree on binary quantisations.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Literal

import numpy as np
from numpy.typing import NDArray

Ties = Literal["score", "rank"]
TIES: tuple[Ties, ...] = ("score", "rank")
NonRelevance = Literal["indicator", "complement"]
NONREL: tuple[NonRelevance, ...] = ("indicator", "complement")
LEVELS = tuple((i + 1) / 100 for i in range(100))
_LEVELS = np.array(LEVELS)
REFERENCE = (
    "V. Raghavan, P. Bollmann, G. Jung: A critical investigation of recall and precision as "
    "measures of retrieval system performance, TOIS 7(3), 1989 (precall, ESL over weak "
    "orderings); N. Gövert, G. Kazai: Overview of INEX 2002 (inex_eval); seed 001 §2.2."
)


def tie_blocks(
    gains: Sequence[float],
    scores: Sequence[float],
    ties: Ties,
    nonrel: NonRelevance = "indicator",
) -> list[tuple[float, float]]:
    """(relevance, non-relevance) of each block in rank order.

    >>> tie_blocks([1.0, 0.5, 0.0], [3.0, 2.0, 2.0], "score")
    [(1.0, 0.0), (0.5, 1.0)]
    >>> tie_blocks([1.0, 0.5, 0.0], [3.0, 2.0, 2.0], "score", "complement")
    [(1.0, 0.0), (0.5, 1.5)]
    """

    def unrelevant(g: float) -> float:
        return 1.0 - g if nonrel == "complement" else float(g == 0)

    if ties == "rank":
        return [(g, unrelevant(g)) for g in gains]
    blocks = []
    position = 0
    for _, group in groupby(scores):
        size = len(list(group))
        block = gains[position : position + size]
        blocks.append((float(sum(block)), float(sum(map(unrelevant, block)))))
        position += size
    return blocks


def precall_curve(
    gains: Sequence[float],
    scores: Sequence[float],
    total: float,
    ties: Ties = "score",
    nonrel: NonRelevance = "indicator",
) -> list[float]:
    """Precall at the 100 recall levels 0.01 ... 1.00 (module docstring).

    Reference: Raghavan, Bollmann & Jung 1989; INEX 2002 inex_eval.

    Worked: gains 1, 0, 1 with distinct scores, N = 2. At x = 0.5, n = 1 is reached in block 1
    (j = 0, s = 1, r = 1, i = 0): ESL = 0, precall 1. At x = 1, n = 2 in block 3: j = 1,
    s = 1, r = 1, i = 0: ESL = 1, precall 2/3.

    >>> curve = precall_curve([1.0, 0.0, 1.0], [3.0, 2.0, 1.0], 2.0)
    >>> curve[49], curve[99]
    (1.0, 0.6666666666666666)
    """
    if total <= 0 or not len(gains):
        return [0.0] * len(LEVELS)
    relevance, nonrelevance = block_sums(gains, scores, ties, nonrel)
    seen = np.cumsum(relevance)
    unseen_before = np.concatenate(([0.0], np.cumsum(nonrelevance)[:-1]))
    seen_before = seen - relevance
    tolerance = 1e-9 * max(1.0, total)
    wanted = _LEVELS * total
    block = np.searchsorted(seen, wanted - tolerance, side="left")
    reached = block < len(seen)
    block = np.minimum(block, len(seen) - 1)
    still = np.maximum(0.0, wanted - seen_before[block])
    esl = unseen_before[block] + still * nonrelevance[block] / (relevance[block] + 1.0)
    curve: list[float] = np.where(reached, wanted / (wanted + esl), 0.0).tolist()
    return curve


def block_sums(
    gains: Sequence[float] | NDArray[np.float64],
    scores: Sequence[float] | NDArray[np.float64],
    ties: Ties,
    nonrel: NonRelevance = "indicator",
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """`tie_blocks` as two arrays (relevance, non-relevance), computed with numpy.

    >>> [a.tolist() for a in block_sums([1.0, 0.5, 0.0], [3.0, 2.0, 2.0], "score")]
    [[1.0, 0.5], [0.0, 1.0]]
    """
    g = np.asarray(gains, dtype=np.float64)
    unrelevant = 1.0 - g if nonrel == "complement" else (g == 0).astype(np.float64)
    if ties == "rank":
        return g, unrelevant
    s = np.asarray(scores, dtype=np.float64)
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    return np.add.reduceat(g, starts), np.add.reduceat(unrelevant, starts)
