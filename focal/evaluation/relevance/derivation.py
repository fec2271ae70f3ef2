"""Element relevance derived from highlighted passages (spec section 4).

For every element of an assessed article, with the highlighted passages merged first
(H-Rule ATOM: overlapping or touching passages become one):

- ``rsize``: highlighted characters inside the element's span;
- ``size``: the length of the span (code points);
- specificity ``s = rsize / size`` (0 for an element without text);
- exhaustivity on the 2006 implicit scale: ``e = 2`` if ``rsize > 0`` else ``0``.

Seeds: INEX 2006 assessment (highlighting only; exhaustivity implied by the highlight) and
Piwowarski, Trotman & Lalmas, "Sound and complete relevance assessment for XML retrieval",
ACM TOIS 27(1), 2008, section 4.

The computation is vectorised: with the merged passages sorted, ``covered(x)`` (highlighted
characters before offset ``x``) is a prefix sum plus one partial passage, found by binary search;
``rsize = covered(end) - covered(start)`` for every element at once.

>>> from focal.evaluation.relevance.derivation import SpanElement, derive
>>> table = [SpanElement("/a[1]", 0, 10, -1), SpanElement("/a[1]/b[1]", 0, 4, 0),
...          SpanElement("/a[1]/c[1]", 4, 10, 0)]
>>> d = derive(table, [(2, 6)])
>>> [int(x) for x in d.rsize], [float(x) for x in d.specificity]
([4, 2, 2], [0.4, 0.5, 0.3333333333333333])
>>> [int(x) for x in d.exhaustivity]
[2, 2, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.records import Span, merge_passages

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class ElementLike(Protocol):
    """What derivation needs of an element: `focal.evaluation.text.document.Element`
    satisfies it."""

    @property
    def path(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def parent(self) -> int: ...


@dataclass(frozen=True, slots=True)
class SpanElement:
    """A minimal element (path, span, parent index) for callers without a parsed document."""

    path: str
    start: int
    end: int
    parent: int


@dataclass(frozen=True, slots=True)
class ElementRelevance:
    """The derived relevance of one element."""

    path: str
    rsize: int
    size: int
    specificity: float
    exhaustivity: int


def highlighted_in(starts: IntArray, ends: IntArray, passages: Sequence[Span]) -> IntArray:
    """Highlighted characters in each span ``[starts[i], ends[i])`` (passages merged first)."""
    merged = merge_passages(passages)
    if not merged:
        return np.zeros(len(starts), dtype=np.int64)
    p_start = np.fromiter((p[0] for p in merged), dtype=np.int64, count=len(merged))
    p_end = np.fromiter((p[1] for p in merged), dtype=np.int64, count=len(merged))
    # before[j] = highlighted characters in passages 0..j-1 (all of them lie before passage j)
    before = np.concatenate(([0], np.cumsum(p_end - p_start)))

    def covered(offsets: IntArray) -> IntArray:
        # index of the last passage starting before the offset (-1 when none)
        last = np.searchsorted(p_start, offsets, side="left") - 1
        safe = np.maximum(last, 0)
        partial = np.minimum(p_end[safe], offsets) - p_start[safe]
        return np.where(last >= 0, before[safe] + partial, 0)

    return covered(ends) - covered(starts)


@dataclass(frozen=True)
class Derivation:
    """Derived relevance of every element of one article, as parallel arrays in table order."""

    paths: tuple[str, ...]
    rsize: IntArray
    size: IntArray

    @property
    def specificity(self) -> FloatArray:
        """``rsize / size``, 0 where the element has no text."""
        sizes = self.size.astype(np.float64)
        out = np.zeros(len(sizes), dtype=np.float64)
        np.divide(self.rsize, sizes, out=out, where=sizes > 0)
        return out

    @property
    def exhaustivity(self) -> IntArray:
        """The 2006 implicit scale: 2 where anything is highlighted, else 0."""
        return np.where(self.rsize > 0, 2, 0).astype(np.int64)

    def rows(self, *, relevant_only: bool = False) -> Iterator[ElementRelevance]:
        """One record per element in table order (only ``rsize > 0`` with `relevant_only`)."""
        specificity = self.specificity
        for i, path in enumerate(self.paths):
            rsize = int(self.rsize[i])
            if relevant_only and rsize == 0:
                continue
            yield ElementRelevance(
                path=path,
                rsize=rsize,
                size=int(self.size[i]),
                specificity=float(specificity[i]),
                exhaustivity=2 if rsize > 0 else 0,
            )

    def by_path(self) -> dict[str, ElementRelevance]:
        """Records keyed by path."""
        return {row.path: row for row in self.rows()}


def derive(elements: Sequence[ElementLike], passages: Iterable[Span]) -> Derivation:
    """Derive rsize, size, specificity and 2006 exhaustivity for every element.

    `elements` is a document's element table (e.g. ``Document.elements``); `passages` are the
    highlighted ``[start, end)`` spans in code points, in any order, possibly overlapping.
    """
    count = len(elements)
    starts = np.fromiter((e.start for e in elements), dtype=np.int64, count=count)
    ends = np.fromiter((e.end for e in elements), dtype=np.int64, count=count)
    rsize = highlighted_in(starts, ends, list(passages))
    return Derivation(paths=tuple(e.path for e in elements), rsize=rsize, size=ends - starts)
