"""The INEX top-n rounds of one topic on integer article ids, without a Python object per result.

When every run's list for a topic is an `ArticleColumn` of plain numeric ids (the INEX Wikipedia
ids, as `focal.evaluation.formats.fol.arrow_table` reads them), the rounds are the rows of a matrix:
row k-1
holds the k-th result of every run in run order (-1 where a run has no k-th result), so reading
the matrix row by row visits the results in the order the rounds of `focal.pooling.topn` do. Then,
as there, everything follows from where each article is first met:

- pool order: the articles sorted by the position of their first result;
- first round (and best rank, equal to it within top-n rounds): that position's row, plus one;
- stopping rule: after round k the pool holds the articles first met before position k x runs,
  so the rounds read are the first k at which that count reaches the pool size (or all rounds);
- contributors: the distinct (article, run) pairs within the rounds read, runs in run order.

Only the first few dozen rounds are put into the matrix, doubled until the stopping rule is met:
a top-500 pool of 333 runs reads about 30 of each run's 1500 results. Strings are made only for
the pooled articles. The pool is equal to `focal.pooling.topn.top_n_topic_pool`'s (tests compare
them).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from focal.pooling.article_column import ArticleColumn
from focal.pooling.records import RunLists, TopicPool, pooled_articles

_FIRST_ROUNDS = 32  # rounds put in the matrix at first (doubled while the pool is not full)


def numeric_columns(lists: RunLists) -> list[ArticleColumn] | None:
    """The topic's lists as `ArticleColumn`s of numeric ids, or None if any list is not one."""
    columns = [articles for _, articles in lists]
    if all(isinstance(c, ArticleColumn) and c.names is None for c in columns):
        return columns  # type: ignore[return-value]  # checked just above
    return None


def top_n_numeric_pool(
    topic: str, lists: RunLists, columns: Sequence[ArticleColumn], run_ids: Sequence[str], size: int
) -> TopicPool:
    """One topic's top-n pool of `size` (at least 1) from `numeric_columns(lists)`."""
    runs = len(columns)
    lengths = [column.values.shape[0] for column in columns]
    longest = max(lengths)
    depth = min(longest, _FIRST_ROUNDS)
    while True:
        matrix = _rounds(columns, depth)
        values, entered = _first_met(matrix.ravel())
        met = np.sort(entered)
        counts = np.searchsorted(met, np.arange(1, depth + 1) * runs)  # after each round
        full = np.flatnonzero(counts >= size)
        if len(full):
            read = int(full[0]) + 1
            break
        if depth == longest:
            read = longest
            break
        depth = min(longest, 2 * depth)
    order = np.argsort(entered, kind="stable")
    pooled = int(np.searchsorted(met, read * runs))
    order = order[:pooled]  # indices into `values` of the pooled articles, in pool order
    first_rounds = (entered[order] // runs + 1).tolist()
    names = [run_ids[index] for index, _ in lists]
    contributors = _contributors(matrix[:read], values, names)
    rows = pooled_articles(
        topic,
        list(map(str, values[order].tolist())),
        first_rounds,
        first_rounds,
        map(contributors.__getitem__, order.tolist()),
    )
    depths = {
        run_ids[index]: min(read, length) for (index, _), length in zip(lists, lengths, strict=True)
    }
    return TopicPool(topic, tuple(rows), depths, read)


def _rounds(columns: Sequence[ArticleColumn], depth: int) -> npt.NDArray[np.int64]:
    """Row k: the (k+1)-th article of every run, -1 where the run has fewer results."""
    matrix = np.full((depth, len(columns)), -1, dtype=np.int64)
    for run, column in enumerate(columns):
        head = column.values[:depth]
        matrix[: len(head), run] = head
    return matrix


def _first_met(flat: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """The distinct articles (ascending) and the position where each is first met."""
    present = np.flatnonzero(flat >= 0)
    values, firsts = np.unique(flat[present], return_index=True)
    return values, present[firsts]


def _contributors(
    read: npt.NDArray[np.int64], values: npt.NDArray[np.int64], names: Sequence[str]
) -> list[tuple[str, ...]]:
    """For each of `values`, the runs (in run order) that returned it in the rounds `read`."""
    runs = read.shape[1]
    rows, columns = np.nonzero(read >= 0)
    pairs = np.sort(np.searchsorted(values, read[rows, columns]) * runs + columns)
    pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]]  # distinct (article, run) pairs
    article, run = np.divmod(pairs, runs)
    bounds = np.searchsorted(article, np.arange(len(values) + 1)).tolist()
    run_names = list(map(names.__getitem__, run.tolist()))
    return [tuple(run_names[b:e]) for b, e in pairwise(bounds)]
