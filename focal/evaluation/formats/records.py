"""Typed records that every INEX file becomes at the edge (spec section 2).

Offsets are Unicode code points into the document text (spec section 1); passages are
half-open `(start, end)` pairs. Topic and article ids are kept as the strings of the file.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from typing import Literal

Span = tuple[int, int]
"""A passage `[start, end)` in code points."""

RunKind = Literal["fol", "element", "article"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """One qrels line: an assessed article of a topic."""

    topic: str
    article: str
    rel_chars: int
    article_chars: int
    bep: int | None
    passages: tuple[Span, ...]  # sorted by start, non-overlapping; empty when not relevant
    line: int  # 1-based line of the source file (0 when built in memory)

    @property
    def relevant(self) -> bool:
        return self.rel_chars > 0


Qrels = dict[str, dict[str, Judgement]]
"""topic -> article -> judgement, both in the order of the file."""


@dataclass(frozen=True, slots=True)
class Result:
    """One retrieved result of a run.

    FOL results have `start`/`length`; `missing` is true for an `X` or `-1` offset (a result that
    does not exist in the article). Element results have `path`; article results have neither.
    """

    topic: str
    article: str
    rank: int
    score: float
    line: int
    start: int | None = None
    length: int | None = None
    path: str | None = None
    missing: bool = False

    @property
    def end(self) -> int | None:
        if self.start is None or self.length is None:
            return None
        return self.start + self.length


@dataclass(slots=True)
class Run:
    """A parsed run: results grouped per topic, each topic's results in file order."""

    run_id: str
    file: str
    kind: RunKind
    topics: dict[str, list[Result]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Topic:
    """An INEX 2009/2010 topic."""

    id: str
    ct_no: str | None
    title: str
    castitle: str
    phrasetitle: str
    description: str
    narrative: str


_topic_of = attrgetter("topic")


def group_results(run: Run, results: Sequence[Result]) -> None:
    """Put `results` into `run.topics` per topic in first-seen order, warning on split topics."""
    grouped = run.topics
    begin = 0
    for topic, block in groupby(map(_topic_of, results)):
        end = begin + len(list(block))
        existing = grouped.get(topic)
        if existing is None:
            grouped[topic] = list(results[begin:end])
        else:
            existing.extend(results[begin:end])
            run.warnings.append(
                f"{run.file}:{results[begin].line}: topic {topic} resumes after other topics; "
                "its results were grouped together in file order (the official INEX program "
                "would miscount them)"
            )
        begin = end


def merge_passages(
    passages: Iterable[Span], text: str | None = None, *, across_punctuation: bool = True
) -> list[Span]:
    """Sort passages and merge the overlapping or touching ones (H-Rule ATOM, spec section 4).

    Empty passages are dropped. This is the one implementation of the rule in Python: element
    relevance (`focal.evaluation.relevance.derivation`), assessor agreement
    (`focal.evaluation.statistics.agreement`), the assessor's passage arithmetic
    (`focal.assessor.judging.spans`) and the qrels import call it. It lives beside `Span`, in the
    lowest layer that every caller may import. The
    assessment screen keeps a copy (`static/assess/passages.js`, which shows a highlight before
    the server answers); tests/static/test_passages_js.py runs that copy under node on a table
    of cases and checks that it answers as this function does.

    Given the document's `text`, the rule reads "adjacent" as a person sees it: each passage
    first loses the whitespace at its two ends (a passage of whitespace only is dropped), and,
    with `across_punctuation` (a campaign setting, on by default), passages separated only by
    whitespace and punctuation (Unicode categories Z* and P*) merge as well. Seed 003 §4.2.2
    gives the reason: assessors highlight relevant material rather than identify passages, so
    isolating adjacent passages is "neither necessary nor desirable"; a comma left out between
    two drags is such an isolation.

    >>> merge_passages([(10, 12), (0, 3), (3, 5), (11, 20), (30, 30)])
    [(0, 5), (10, 20)]
    >>> text = "the lamp, which would glow"
    >>> merge_passages([(0, 8), (9, 15)], text)
    [(0, 15)]
    >>> merge_passages([(0, 8), (9, 15)], text, across_punctuation=False)
    [(0, 8), (10, 15)]
    """
    if text is not None:
        passages = [_trimmed(text, start, end) for start, end in passages]
    merged: list[Span] = []
    for start, end in sorted(p for p in passages if p[1] > p[0]):
        if merged and (
            start <= merged[-1][1]
            or (
                across_punctuation
                and text is not None
                and _separates_nothing(text[merged[-1][1] : start])
            )
        ):
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _trimmed(text: str, start: int, end: int) -> Span:
    """`[start, end)` without the whitespace at its two ends (empty if it is all whitespace)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _separates_nothing(gap: str) -> bool:
    """Whether `gap` holds only whitespace and punctuation (what no assessor means to leave out)."""
    return all(char.isspace() or unicodedata.category(char)[0] in "PZ" for char in gap)
