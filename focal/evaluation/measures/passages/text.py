"""Relevant characters of results: one topic's qrels passages as arrays, looked up in bulk.

A result's relevant characters are its overlap with its article's qrels passages; results in
unjudged or non-relevant articles have none. An `X`/`-1` result (one that does not exist in its
article) is, as in the official program, 18 irrelevant characters starting at -10000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from operator import attrgetter

import numpy as np
import numpy.typing as npt

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.columns import TopicColumns
from focal.evaluation.formats.records import Judgement, Result, Span

Ints = npt.NDArray[np.int64]

MISSING_START = -10000  # where the official program places an `X`/`-1` result
MISSING_LENGTH = 18  # and how long it takes it to be
_SPAN = 1 << 40  # offsets are packed as key * _SPAN + offset for one sorted search


def result_span(result: Result, file: str = "") -> Span:
    """The `[start, end)` the official program uses for a FOL result.

    >>> result_span(Result("1", "a", 1, 0.0, 1, start=5, length=10))
    (5, 15)
    >>> result_span(Result("1", "a", 1, 0.0, 1, missing=True))
    (-10000, -9982)
    """
    if result.missing:
        return (MISSING_START, MISSING_START + MISSING_LENGTH)
    if result.start is None or result.length is None:
        raise FormatError(file, result.line, "a passage task needs FOL results (offset length)")
    return (result.start, result.start + result.length)


def overlap_length(span: Span, passages: Sequence[Span]) -> int:
    """Characters of `span` inside sorted, disjoint `passages` (the slow, obvious way).

    >>> overlap_length((5, 15), [(0, 8), (12, 20)])
    6
    """
    start, end = span
    return sum(max(0, min(end, p_end) - max(start, p_start)) for p_start, p_end in passages)


_ARTICLE, _START, _LENGTH = attrgetter("article"), attrgetter("start"), attrgetter("length")
_LINE, _MISSING = attrgetter("line"), attrgetter("missing")


@dataclass(frozen=True)
class TopicLines:
    """One topic's results in file order, as arrays; `codes` index `unique` (first-seen order).

    `starts`/`ends` are the official spans (an `X` result is 18 characters at -10000). Line
    numbers come from `numbers` when known, else from `results` when first needed.
    """

    unique: list[str]
    codes: Ints
    starts: Ints
    ends: Ints
    missing: npt.NDArray[np.bool_]
    numbers: Ints | None = None
    results: Sequence[Result] = ()

    @cached_property
    def lines(self) -> Ints:
        """Source line numbers (needed only to name lines in errors and warnings)."""
        if self.numbers is not None:
            return self.numbers
        return np.fromiter(map(_LINE, self.results), np.int64, len(self.results))

    def article(self, index: int) -> str:
        """The article of line `index`."""
        return self.unique[int(self.codes[index])]

    @cached_property
    def articles(self) -> list[str]:
        """The article of every line."""
        unique = self.unique
        return [unique[code] for code in self.codes.tolist()]

    @classmethod
    def from_columns(cls, columns: TopicColumns) -> TopicLines:
        """From a columnar run's topic (no per-line work)."""
        missing = columns.missing
        starts, ends = columns.starts, columns.starts + columns.lengths
        if missing.any():
            starts = np.where(missing, MISSING_START, starts)
            ends = np.where(missing, MISSING_START + MISSING_LENGTH, ends)
        return cls(columns.unique, columns.codes, starts, ends, missing, numbers=columns.lines)

    @classmethod
    def from_results(cls, results: Sequence[Result], file: str = "") -> TopicLines:
        """Columns pulled out with `map` (C speed); per-result work only for `X` results."""
        n = len(results)
        articles = list(map(_ARTICLE, results))
        unique = list(dict.fromkeys(articles))
        position = {article: i for i, article in enumerate(unique)}
        if any(map(_MISSING, results)):
            missing = np.fromiter(map(_MISSING, results), np.bool_, n)
        else:
            missing = np.zeros(n, np.bool_)
        try:
            if missing.any():
                raise TypeError("X results need their official span")
            starts = np.fromiter(map(_START, results), np.int64, n)
            ends = starts + np.fromiter(map(_LENGTH, results), np.int64, n)
        except TypeError:
            spans = [result_span(result, file) for result in results]
            starts = np.fromiter((s for s, _ in spans), np.int64, n)
            ends = np.fromiter((e for _, e in spans), np.int64, n)
        return cls(
            unique=unique,
            codes=np.fromiter(map(position.__getitem__, articles), np.int64, n),
            starts=starts,
            ends=ends,
            missing=missing,
            results=results,
        )

    @property
    def sizes(self) -> Ints:
        return self.ends - self.starts

    def __len__(self) -> int:
        return len(self.codes)


@dataclass
class KeyedPassages:
    """Relevant passages as arrays, by key (one per relevant article) then start: each one's
    start, length and the relevant characters of its article before it. Shared by a topic's
    `RelevantText` and the whole-run index of `focused_table` (keys numbered across topics)."""

    keys: Ints
    starts: Ints
    lengths: Ints
    before: Ints
    probe: Ints = field(init=False)  # key * _SPAN + start: sorted, as keys and starts ascend

    def __post_init__(self) -> None:
        self.probe = self.keys * _SPAN + self.starts

    def relevant_before(self, keys: Ints, offsets: Ints) -> Ints:
        """Relevant characters of the article with key `keys[i]` before `offsets[i]` (0 for
        key -1): one sorted search of (key, offset) among the passages' (key, start)."""
        probe = self.probe
        if len(probe) == 0 or len(keys) == 0:
            return np.zeros(len(keys), np.int64)
        x = np.clip(offsets, 0, _SPAN - 1)
        index = np.searchsorted(probe, keys * _SPAN + x, side="right") - 1
        safe = np.maximum(index, 0)
        valid = (keys >= 0) & (index >= 0) & (self.keys[safe] == keys)
        within = np.minimum(x - self.starts[safe], self.lengths[safe])
        result: Ints = np.where(valid, self.before[safe] + within, 0)
        return result


class RelevantText:
    """Where one topic's relevant characters are, for vectorised overlap look-ups.

    >>> j = Judgement("1", "a", 6, 100, 3, ((2, 4), (10, 14)), 0)
    >>> text = RelevantText({"a": j})
    >>> text.rel_size, text.num_rel
    (6, 1)
    >>> text.overlap(["a", "a", "b"], np.array([0, 3, 0]), np.array([12, 100, 50])).tolist()
    [4, 5, 0]
    """

    def __init__(self, judgements: Mapping[str, Judgement]) -> None:
        self.judgements = judgements
        # article lengths of judged articles, for "past the end" checks (0 means unknown)
        self.article_chars = {a: j.article_chars for a, j in judgements.items() if j.article_chars}
        relevant = [j for j in judgements.values() if j.rel_chars > 0]
        self.rel_size = sum(j.rel_chars for j in relevant)
        self.num_rel = len(relevant)
        self.key = {j.article: k for k, j in enumerate(relevant)}
        keys, starts, lengths, before = [], [], [], []
        for k, judgement in enumerate(relevant):
            seen = 0
            for p_start, p_end in judgement.passages:
                keys.append(k)
                starts.append(p_start)
                lengths.append(p_end - p_start)
                before.append(seen)
                seen += p_end - p_start
        self.passages = KeyedPassages(
            *(np.array(column, np.int64) for column in (keys, starts, lengths, before))
        )
        self._last: tuple[TopicLines, Ints] | None = None

    def spans(self) -> tuple[Ints, Ints, Ints, Ints]:
        """The relevant passages as arrays, by key then start: (key, start, length, relevant
        characters of the article before it)."""
        spans = self.passages
        return spans.keys, spans.starts, spans.lengths, spans.before

    def is_relevant(self, article: str) -> bool:
        return article in self.key

    def keys(self, articles: Sequence[str]) -> Ints:
        """The key of each article, -1 for unjudged and non-relevant ones."""
        count = len(articles)
        return np.fromiter(map(self.key.get, articles, repeat(-1, count)), np.int64, count)

    def unique_keys(self, lines: TopicLines) -> Ints:
        """The key of each distinct article of `lines` (remembered for the last `lines`)."""
        last = self._last  # one read: runs may be evaluated on several threads
        if last is None or last[0] is not lines:
            last = (lines, self.keys(lines.unique))
            self._last = last
        return last[1]

    def line_keys(self, lines: TopicLines) -> Ints:
        """The key of each line's article (looked up once per distinct article)."""
        return self.unique_keys(lines)[lines.codes]

    def overlap(self, articles: Sequence[str], starts: Ints, ends: Ints) -> Ints:
        """Relevant characters of each `[start, end)` of its article."""
        return self.key_overlap(self.keys(articles), starts, ends)

    def line_overlap(self, lines: TopicLines) -> Ints:
        """Relevant characters of each line."""
        return self.key_overlap(self.line_keys(lines), lines.starts, lines.ends)

    def key_overlap(self, keys: Ints, starts: Ints, ends: Ints) -> Ints:
        """Relevant characters of each `[start, end)` of the article with that key."""
        return self.passages.relevant_before(keys, ends) - self.passages.relevant_before(
            keys, starts
        )
