"""A run's results grouped by article with one sort, for the focused task of a whole run at once
(`focal.evaluation.measures.engines.focused_run`).

Each result is one integer (qrels topic, article, start) and, below it, its line, or when that
does not fit in 63 bits its rank in its topic's block (INEX Wikipedia ids take 25 bits): a sort
of values (SIMD, less than half the time of `np.argsort`) then gives the groups and the line of
each result, ties in the order of the lines as `np.lexsort` in `focused.check_no_overlap`; only
wider integers are sorted by `np.argsort`. When the topics of the run ascend, as usual, each
topic's block is sorted on its own (within the caches): the same array. The sort is also the
overlap check (Kamps et al., INEX 2007 Evaluation Measures: the results of a focused run may
not overlap).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]

_ID_BITS = 32
_SORT_BITS = 63  # the widest (qrels topic, article, start, line or rank) sorted as values
_MERGE_SHARE = 2  # binary searches when needles are fewer than half the haystack
_BLOCK_SORT = 256  # results per topic block, on average, worth a sort of each block
_BY_LINE = True  # the line in the low bits when it fits (else the rank in its topic)


@dataclass(frozen=True, slots=True)
class Groups:
    """A run's results by (qrels topic, article, start): `ordered[i]` is that integer of the
    i-th, and the results of the j-th distinct article are from `firsts[j]` up to the next."""

    ordered: Ints
    firsts: Ints
    packed: Ints  # the line of each, or its rank in its topic block, in the bits of `mask`
    mask: int
    block_starts: Ints  # where each topic's results begin in the order above, ascending
    block_lines: Ints  # the line of the first result of that topic

    def lines(self, positions: Ints) -> Ints:
        """The line (in the topics' results) of the results at `positions`."""
        lines: Ints = self.packed[positions] & self.mask
        if len(self.block_starts) > 1:  # ranks in topic blocks
            blocks = np.searchsorted(self.block_starts, positions, side="right") - 1
            lines += self.block_lines[blocks]
        return lines


def group_results(
    qrels_topics: Ints,
    counts: Ints,
    articles: npt.NDArray[np.int64] | npt.NDArray[np.int32],
    starts: Ints,
    sizes: Ints,
    bits: tuple[int, int, int],
) -> Groups | None:
    """The results of `counts[b]` lines of topic `qrels_topics[b]`, block after block, sorted
    as integers (qrels topic, article, start) of `bits` (topic, article and start bits). None
    for two results of one article at one start (the file order of ties decides) or
    overlapping results (the topic-by-topic path names the lines), as
    `focused.check_no_overlap`."""
    groups = _sorted(qrels_topics, counts, articles, starts, bits)
    ordered = groups.ordered
    steps = ordered[1:] - ordered[:-1]  # within an article: from one start to the next
    article_of = ordered >> bits[2]
    changes = article_of[1:] != article_of[:-1]
    # only these might overlap, and a step 0 (the same start) is among them
    close = np.flatnonzero(steps < max(int(sizes.max()), 1))
    if ((steps[close] < sizes[groups.lines(close)]) & ~changes[close] | (steps[close] == 0)).any():
        return None
    firsts = np.flatnonzero(np.append(True, changes))
    return replace(groups, firsts=firsts)


def _sorted(
    qrels_topics: Ints,
    counts: Ints,
    articles: npt.NDArray[np.int64] | npt.NDArray[np.int32],
    starts: Ints,
    bits: tuple[int, int, int],
) -> Groups:
    """The results sorted (`firsts` left empty): with the line of each in the low bits when it
    fits, else its rank in its topic block, which rank ties as the lines; else by
    `np.argsort` (ties in any order)."""
    _, article_bits, start_bits = bits
    packed = np.repeat(qrels_topics << article_bits, counts)
    packed |= articles
    packed <<= start_bits
    packed |= starts
    one = np.zeros(1, np.int64)
    low_bits = (len(packed) - 1).bit_length()
    by_line = _BY_LINE and sum(bits) + low_bits <= _SORT_BITS
    if not by_line:
        low_bits = int(counts.max() - 1).bit_length()
    if sum(bits) + low_bits > _SORT_BITS:
        order = np.argsort(packed)
        return Groups(packed[order], one[:0], order, -1, one, one)
    packed <<= low_bits  # a sort of values, no np.argsort
    packed += np.arange(len(packed))
    block_lines = np.cumsum(counts) - counts
    if not by_line:
        packed -= np.repeat(block_lines, counts)  # the rank in the topic block
    _sort(packed, counts, ascending=bool((qrels_topics[1:] > qrels_topics[:-1]).all()))
    ordered, mask = packed >> low_bits, (1 << low_bits) - 1
    if by_line:
        return Groups(ordered, one[:0], packed, mask, one, one)
    by_topic = np.argsort(qrels_topics)  # the topics' blocks in the sorted order
    block_starts = np.cumsum(counts[by_topic]) - counts[by_topic]
    return Groups(ordered, one[:0], packed, mask, block_starts, block_lines[by_topic])


def _sort(packed: Ints, counts: Ints, ascending: bool) -> None:
    """Sort `packed` in place: topic block by topic block (each within the caches) when the
    blocks are long and their topics ascend, so that the result is the same."""
    if ascending and len(packed) >= _BLOCK_SORT * len(counts):
        bounds = np.cumsum(counts).tolist()
        for first, end in zip([0, *bounds[:-1]], bounds, strict=True):
            packed[first:end].sort()
    else:
        packed.sort()


def matches(needles: Ints, haystack: Ints) -> tuple[Ints, Ints]:
    """The positions of the values found in both sorted arrays of distinct values, in
    `needles` and in `haystack`: a binary search for each of few needles, else one merge (a
    stable sort of two runs, linear)."""
    if len(needles) * _MERGE_SHARE < len(haystack):
        where = np.minimum(np.searchsorted(haystack, needles), max(len(haystack) - 1, 0))
        found = np.flatnonzero(haystack[where] == needles) if len(haystack) else where[:0]
        return found, where[found]
    both = np.concatenate((haystack, needles))
    order = np.argsort(both, kind="stable")
    merged = both[order]
    same = np.flatnonzero(merged[1:] == merged[:-1])  # a haystack value, then its needle
    return order[same + 1] - len(haystack), order[same]


def spread(firsts: Ints, ends: Ints) -> Ints:
    """Every position from `firsts[i]` up to `ends[i]`, for each i in turn."""
    lengths = ends - firsts
    offsets = np.cumsum(lengths) - lengths
    spread: Ints = np.arange(int(lengths.sum())) + np.repeat(firsts - offsets, lengths)
    return spread


def bits_of(values: npt.NDArray[np.int64] | npt.NDArray[np.int32]) -> int:
    """Bits of the largest of `values` (none negative)."""
    return int(values.max()).bit_length() if len(values) else 0
