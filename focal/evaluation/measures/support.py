"""Support of RAG answers: how much of what an answer cites supports it (docs/collections.md,
"Support of RAG answers").

The TREC 2024 RAG track judged whether each cited segment supports a sentence; done the INEX
way, assessors highlight the supporting characters of the cited documents (FOL qrels, spec
section 2), and an answer's citations are measured in characters, as the focused task measures
passages (spec section 3):

- a sentence's *precision* is the share of the characters it cites that are supporting, its
  *recall* the share of the supporting characters of the documents it cites that it cites;
- an answer's precision is the share of all the characters its sentences cite that are
  supporting, its recall the share of the topic's supporting characters (in every judged
  document) that it cites;
- a run's values are the means over the topics it answers of its answers' values.

A ratio with nothing to divide by (a sentence without citations, a topic without supporting
characters) is undefined (None) and left out of the means.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from focal.evaluation.formats.collections.answers import Answer, Cited, Resolver
from focal.evaluation.formats.records import Judgement, Span, merge_passages

Ranges = dict[str, list[Span]]
"""Disjoint sorted spans per document."""


@dataclass(frozen=True, slots=True)
class Support:
    """Characters cited, supporting among them, supporting in all; the two ratios."""

    cited: int
    supported: int
    supporting: int

    @property
    def precision(self) -> float | None:
        return self.supported / self.cited if self.cited else None

    @property
    def recall(self) -> float | None:
        return self.supported / self.supporting if self.supporting else None


@dataclass(frozen=True, slots=True)
class AnswerSupport:
    """The support of one answer: per sentence, and of the whole answer."""

    run_id: str
    topic: str
    sentences: tuple[Support, ...]
    answer: Support


@dataclass(frozen=True, slots=True)
class RunSupport:
    """A run's mean precision and recall over the topics it answers."""

    run_id: str
    topics: int
    precision: float | None
    recall: float | None


def _ranges(cited: Iterable[Cited]) -> Ranges:
    spans: dict[str, list[Span]] = {}
    for document, start, end in cited:
        spans.setdefault(document, []).append((start, end))
    return {
        document: merge_passages(found, across_punctuation=False)
        for document, found in spans.items()
    }


def _length(ranges: Ranges) -> int:
    return sum(end - start for spans in ranges.values() for start, end in spans)


def _overlap(a: Sequence[Span], b: Sequence[Span]) -> int:
    """Characters in both of two sorted lists of disjoint spans."""
    total, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        total += max(0, min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]))
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _support(cited: Ranges, judged: Mapping[str, Judgement], documents: Iterable[str]) -> Support:
    supported = sum(
        _overlap(spans, judged[document].passages)
        for document, spans in cited.items()
        if document in judged
    )
    supporting = sum(judged[d].rel_chars for d in documents if d in judged)
    return Support(_length(cited), supported, supporting)


def answer_support(
    answer: Answer, resolve: Resolver, judged: Mapping[str, Judgement]
) -> AnswerSupport:
    """The support of `answer` against the judgements of its topic (article -> judgement)."""
    sentences: list[Support] = []
    every: list[Cited] = []
    for sentence in answer.sentences:
        cited = [resolve(c, answer.file, answer.line) for c in sentence.citations]
        every.extend(cited)
        ranges = _ranges(cited)
        sentences.append(_support(ranges, judged, ranges))
    whole = _support(_ranges(every), judged, judged)
    return AnswerSupport(answer.run_id, answer.topic, tuple(sentences), whole)


def _mean(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else None


def run_support(answers: Sequence[AnswerSupport]) -> list[RunSupport]:
    """Each run's mean precision and recall over its answers, runs in first-seen order."""
    by_run: dict[str, list[AnswerSupport]] = {}
    for answer in answers:
        by_run.setdefault(answer.run_id, []).append(answer)
    return [
        RunSupport(
            run_id,
            len(found),
            _mean(a.answer.precision for a in found),
            _mean(a.answer.recall for a in found),
        )
        for run_id, found in by_run.items()
    ]
