"""Passage sets as sorted lists of disjoint, non-touching half-open spans (pure functions).

Highlighting merges overlapping or touching spans into one passage (the ATOM rule of the INEX
assessment tool); removing a span splits the passages it cuts. Given the article's text, passages
lose the whitespace at their ends and, with `across_punctuation` (the campaign's setting),
passages separated only by whitespace and punctuation merge (`merge_passages` says why).

>>> add_span([(0, 5), (10, 15)], 5, 10)
[(0, 15)]
>>> remove_span([(0, 15)], 5, 10)
[(0, 5), (10, 15)]
"""

from __future__ import annotations

from collections.abc import Iterable

from focal.evaluation.formats.records import merge_passages

Span = tuple[int, int]


def normalise(
    spans: Iterable[Span], text: str | None = None, *, across_punctuation: bool = True
) -> list[Span]:
    """Sort `spans`, drop empty ones and merge any that overlap or touch (H-Rule ATOM).

    The one implementation of the rule is `focal.evaluation.formats.records.merge_passages`:
    what the screen stores and what exports derive from must merge the same way (the browser's
    copy, `static/assess/passages.js`, is checked against it by tests/static).
    """
    return merge_passages(spans, text, across_punctuation=across_punctuation)


def add_span(
    passages: Iterable[Span],
    start: int,
    end: int,
    text: str | None = None,
    *,
    across_punctuation: bool = True,
) -> list[Span]:
    """The passages with `[start, end)` highlighted as well."""
    return normalise([*passages, (start, end)], text, across_punctuation=across_punctuation)


def remove_span(
    passages: Iterable[Span],
    start: int,
    end: int,
    text: str | None = None,
    *,
    across_punctuation: bool = True,
) -> list[Span]:
    """The passages with `[start, end)` no longer highlighted (cut passages are split)."""
    remaining: list[Span] = []
    for passage_start, passage_end in passages:
        if passage_end <= start or passage_start >= end:
            remaining.append((passage_start, passage_end))
            continue
        if passage_start < start:
            remaining.append((passage_start, start))
        if passage_end > end:
            remaining.append((end, passage_end))
    return normalise(remaining, text, across_punctuation=across_punctuation)
