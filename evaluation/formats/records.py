"""Typed records that every INEX file becomes at the edge (spec section 2).

Offsets are Unicode code points into the document text (spec section 1); passages are
half-open `(start, end)` pairs. Topic and article ids are kept as the strings of the file.
"""

from __future__ import annotations

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


def merge_passages(passages: Iterable[Span]) -> list[Span]:
    """Sort passages and merge the overlapping or touching ones (H-Rule ATOM, spec section 4).

    Empty passages are dropped. This is the one implementation of the rule in Python: element
    relevance (`evaluation.relevance.derivation`), assessor agreement
    (`evaluation.statistics.agreement`), the assessor's passage arithmetic
    (`assessor.judging.spans`) and the qrels import call it. It lives beside `Span`, in the
    lowest layer that every caller may import. The
    assessment screen keeps a copy (`static/assess/passages.js`, which shows a highlight before
    the server answers); tests/static/test_passages_js.py runs that copy under node on a table
    of cases and checks that it answers as this function does.

    >>> merge_passages([(10, 12), (0, 3), (3, 5), (11, 20), (30, 30)])
    [(0, 5), (10, 20)]
    """
    merged: list[Span] = []
    for start, end in sorted(p for p in passages if p[1] > p[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
