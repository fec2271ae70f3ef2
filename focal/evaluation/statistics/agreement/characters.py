"""The characters two assessors' highlights of one article cover, alone and together (spec
section 7: the text columns of the agreement table, J1, J2 and their intersection)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from focal.evaluation.formats.records import Span, merge_passages


def _merged(spans: Iterable[Span]) -> Sequence[Span]:
    """`merge_passages(spans)`, taken as it is when it is a tuple of one passage (most relevant
    articles' lines): the same spans without the sort and the loop.

    >>> _merged(((3, 9),)), _merged(((3, 3),)), _merged([(5, 9), (0, 6)])
    (((3, 9),), (), [(0, 9)])
    """
    if isinstance(spans, tuple) and len(spans) == 1:
        start, end = spans[0]
        return spans if end > start else ()
    return merge_passages(spans)


def covered(spans: Iterable[Span]) -> int:
    """How many characters the spans cover (each counted once)."""
    return sum(end - start for start, end in _merged(spans))


def overlap(spans_a: Iterable[Span], spans_b: Iterable[Span]) -> int:
    """The characters covered by both sets of spans of one article.

    Touching spans share no character: [0, 5) and [5, 9) overlap by 0.

    >>> overlap([(0, 10), (20, 30)], [(5, 25)])
    10
    >>> overlap([(0, 5)], [(5, 9)])
    0
    """
    a, b = _merged(spans_a), _merged(spans_b)
    i = j = total = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        total += max(0, end - start)
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total
