"""Integer codes of element results (spec section 5): one int64 per (topic, article, path), so
that whole runs are compared with numpy (`run_columns`).

Bit fields, high to low: topic (12 bits), article (28 bits), path (23 bits). Articles and paths
are numbered as they are first seen, by one `Codes` shared by the qrels and every run evaluated
against them; a path's ancestors are numbered with it, and `Codes.table` gives each path's
ancestors-or-self by depth. A run reaches the measures as `RankedColumns` of these ids, from
records (`ranked_columns`) or from the columnar reader's table (`table_columns`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.formats.elements.run_table import ElementTable
from focal.evaluation.measures.elements.cutoffs import ancestors_or_self

_PATH_BITS, _ARTICLE_BITS, _TOPIC_BITS = 23, 28, 12
MAX_TOPICS = 1 << _TOPIC_BITS
"""Qrels with more topics than this are evaluated topic by topic."""


class Codes:
    """Integer ids of articles and paths, shared by the qrels and every run read against them;
    a path's ancestors are interned with it."""

    def __init__(self) -> None:
        self.articles: dict[str, int] = {}
        self.paths: dict[str, int] = {}
        self._chains: list[tuple[int, ...]] = []  # root ... self, as path ids
        self._table: NDArray[np.int64] | None = None

    def article(self, name: str) -> int:
        code = self.articles.get(name)
        if code is None:
            code = self.articles[name] = len(self.articles)
            if code >> _ARTICLE_BITS:
                raise ValueError("more articles than element columns can number")
        return code

    def path(self, path: str) -> int:
        code = self.paths.get(path)
        if code is None:
            chain = tuple(self.path(p) for p in ancestors_or_self(path)[:-1])
            code = self.paths[path] = len(self._chains)
            self._chains.append((*chain, code))
            self._table = None
            if code >> _PATH_BITS:
                raise ValueError("more distinct paths than element columns can number")
        return code

    def many(self, names: list[str], paths: bool) -> NDArray[np.int64]:
        """The ids of `names` (articles, or paths when `paths`), interning the new ones."""
        known = self.paths if paths else self.articles
        ids = list(map(known.get, names))
        if None in ids:
            intern = self.path if paths else self.article
            ids = [intern(name) if i is None else i for name, i in zip(names, ids, strict=True)]
        return np.array(ids, dtype=np.int64)

    def table(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(ancestors, depths): row p holds path p's ancestors-or-self by depth, -1 past its
        own depth; depths[p] is the column of p itself."""
        if self._table is None:
            width = max((len(c) for c in self._chains), default=1)
            table = np.full((len(self._chains), width), -1, dtype=np.int64)
            for row, chain in enumerate(self._chains):
                table[row, : len(chain)] = chain
            self._table = table
        depths = (self._table >= 0).sum(axis=1) - 1
        return self._table, depths


def pack(topic: Any, article: Any, path: Any) -> Any:
    """One int64 per (topic, article, path)."""
    return (topic << (_ARTICLE_BITS + _PATH_BITS)) | (article << _PATH_BITS) | path


Ranked = tuple[str, tuple[Sequence[str], Sequence[str], Sequence[float]]]
"""A topic and its results in rank order: articles, paths, scores."""


@dataclass(frozen=True)
class RankedColumns:
    """A run's results on the qrels topics it answers, as integer columns in rank order: the
    results of topic `topics[t]` (its index in the qrels) are `starts[t]` up to `starts[t + 1]`;
    articles and paths are `Codes` ids."""

    topics: list[int]
    starts: NDArray[np.int64]
    articles: NDArray[np.int64]
    paths: NDArray[np.int64]
    scores: NDArray[np.float64]


def ranked_columns(topics: dict[str, int], codes: Codes, ranked: Sequence[Ranked]) -> RankedColumns:
    """The columns of results given topic by topic as lists (topics of the qrels, numbered by
    `topics`, in run order)."""
    lengths = [len(results[0]) for _, results in ranked]
    return RankedColumns(
        [topics[t] for t, _ in ranked],
        np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int64),
        codes.many([a for _, rs in ranked for a in rs[0]], paths=False),
        codes.many([p for _, rs in ranked for p in rs[1]], paths=True),
        np.array([x for _, rs in ranked for x in rs[2]], dtype=np.float64),
    )


def table_columns(topics: dict[str, int], codes: Codes, table: ElementTable) -> RankedColumns:
    """The columns of a run read as a table, without the topics that `topics` (the qrels'
    topics, numbered) lacks."""
    known = np.array([t in topics for t in table.topics], dtype=bool)
    sizes = np.diff(np.append(table.firsts, len(table))).astype(np.int64)
    articles = codes.many(table.article_names, paths=False)[table.articles]
    paths = codes.many(table.path_names, paths=True)[table.paths]
    scores = table.scores
    if not known.all():
        keep = np.repeat(known, sizes)
        articles, paths, scores = articles[keep], paths[keep], scores[keep]
    return RankedColumns(
        [topics[t] for t in table.topics if t in topics],
        np.concatenate(([0], np.cumsum(sizes[known]))).astype(np.int64),
        articles, paths, np.asarray(scores, dtype=np.float64),
    )  # fmt: skip
