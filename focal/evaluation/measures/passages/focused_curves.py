"""The iP curves and character counts of a run's topics, from the few results with relevant text.

Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862), section 3: after rank r of a topic,
`relret[r]` relevant and `ret[r]` retrieved characters, precision `P[r] = relret/ret`, recall
bin `floor(100·relret/T)`, and `iP[i]` the highest precision at any rank of bin ≥ i (0 above the
final recall). `focal.evaluation.measures.passages.focused` takes every rank; a whole run has some
hundred thousand ranks, of which only the few that retrieve relevant text (a *gain*: `rel > 0`)
decide iP:

- Between two gains of a topic `relret` is constant and `ret` does not fall (sizes are ≥ 0), so
  a rank r without gain has the recall bin of the last gain g before it (the bin depends on
  `relret` and T only) and a precision `relret/ret[r]` at most `relret/ret[g]` (IEEE division
  does not rise as the divisor grows): r changes no maximum that g does not already reach.
- Before a topic's first gain `relret = 0`: precision 0 in bin 0, the curve's value before any
  maximum, whatever `ret` is (while `ret` is 0, after results of length 0 only, precision is 0
  without a division).
- A gain has `ret ≥ size > 0` (a result holds no more relevant characters than characters).
  The bin does not fall as `relret` grows (`floor(100·(relret/T))`, each step correctly
  rounded, or the integer quotient of `strict`), so a topic's highest bin is that of its last
  rank: that of its last gain, or 0.

So precision, recall bins, the recall-above-1 check and `np.maximum.at` are evaluated at the
gains only, element by element with the same operations as the topic-by-topic path (the same
float64 divisions and floors, or the integer bins of `strict`): the same bits. `ret` at a gain
is a prefix sum of sizes, taken as integer sums of the stretches between gains
(`np.add.reduceat`): exact, and no running sum of every result.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from focal.evaluation.measures.passages.focused import RECALL_POINTS

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def gain_curves(
    lines: Ints, gains: Ints, firsts: Ints, sizes: Ints, rel_sizes: Ints, strict: bool
) -> tuple[Floats, Ints, Ints] | None:
    """Each topic's 101-point iP curve (one row per topic), retrieved and relevant retrieved
    characters; None when recall passes 1 (the topic-by-topic path warns).

    `lines[i]` (distinct, any order) retrieves `gains[i] > 0` relevant characters; topic b holds
    the results `firsts[b]` up to `firsts[b + 1]` (or the end) of `sizes`, and `rel_sizes[b]`
    relevant characters.
    """
    count = len(firsts)
    by_rank = np.argsort(lines)
    lines, gains = lines[by_rank], gains[by_rank]
    topics = np.searchsorted(firsts, lines, side="right") - 1
    # the gains of topic b are lines[runs[b]:runs[b + 1]]
    runs = np.searchsorted(topics, np.arange(count + 1))
    relret, rel_ret_size = _running_sums(gains, runs)
    bounds = np.append(firsts, len(sizes))
    before = _sums_before(sizes, np.concatenate((bounds, lines + 1)))
    ret = before[count + 1 :] - before[:count][topics]
    ret_size = before[1 : count + 1] - before[:count]
    precision = np.divide(relret, ret, out=np.zeros(len(ret)), where=ret > 0)
    rel_size = rel_sizes[topics]
    bins = np.zeros(len(lines), np.int64)
    judged = rel_size > 0  # `focused.recall_bins`, gain by gain
    levels = RECALL_POINTS - 1
    if strict:
        bins[judged] = (levels * relret[judged]) // rel_size[judged]
    else:
        bins[judged] = np.floor(levels * (relret[judged] / rel_size[judged])).astype(np.int64)
    if len(bins) and bins.max() >= RECALL_POINTS:
        return None
    curves = np.zeros(count * RECALL_POINTS)
    np.maximum.at(curves, topics * RECALL_POINTS + bins, precision)
    matrix = np.maximum.accumulate(curves.reshape(count, RECALL_POINTS)[:, ::-1], axis=1)
    return matrix[:, ::-1], ret_size, rel_ret_size


def _running_sums(values: Ints, runs: Ints) -> tuple[Ints, Ints]:
    """The sums of `values` restarted at each run (`values[runs[b]:runs[b + 1]]`), up to and
    including each value, and the total of each run (exact: integers)."""
    sums = np.zeros(len(values) + 1, np.int64)
    np.cumsum(values, out=sums[1:])
    starts = sums[runs]
    lengths = np.diff(runs)
    running: Ints = sums[1:] - np.repeat(starts[:-1], lengths)
    return running, np.diff(starts)


def _sums_before(values: Ints, points: Ints) -> Ints:
    """`values[:x].sum()` for each x of `points` (0 ≤ x ≤ len(values)): the integer sums of the
    stretches between the points, added up (exact: integers)."""
    if len(values) == 0:
        return np.zeros(len(points), np.int64)
    cuts = np.sort(np.append(0, points[points < len(values)]))
    cuts = cuts[np.append(True, cuts[1:] != cuts[:-1])]  # as np.unique, without its overhead
    sums = np.zeros(len(cuts) + 1, np.int64)  # sums[j]: the values before cuts[j] (or the end)
    np.cumsum(np.add.reduceat(values, cuts), out=sums[1:])
    result: Ints = sums[np.searchsorted(cuts, points)]
    return result
