"""A block's lines as the numpy pass reads them (`Lines`: each line's topic code, document id
and grade or score), and what each qrels topic's judgements give whatever the run
(`TopicCounts`: grades above 0 and at least 0, the judged counts at the relevance level and per
grade, the ideal DCG's terms), computed as `engine/grades.py` `GradeTable` computes them for
the numpy engine (the same terms, summed per topic by `ideal.running_sums`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from focal.evaluation.measures.trec_eval.numpy_pass import fields, values

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.numpy_pass.fields import (
        Bytes,
        Columns,
        Floats,
        Grades,
        Ints,
    )


class Changed(Exception):
    """A line of the block is no longer plain: a file changed since the first look."""


class Lines:
    """A block's lines of one file: per line its topic code, its document id as little-endian
    words (`fields.words(order=False)`: a column a word, as many as its longest id needs; equal
    as the ids are, byte-swapped where they are ordered) and its grade
    (qrels) or score (run). The ids' words, not the file's bytes, are what a file's kept lines
    hold: 16 bytes a line for ids of up to 16 bytes, where the bytes of a run line take about
    37 (docs/performance.md, "The numpy pass")."""

    __slots__ = ("codes", "docs", "values")

    def __init__(self, codes: Ints, docs: Columns, values: Grades | Floats) -> None:
        self.codes, self.docs, self.values = codes, docs, values

    def doc(self, line: int) -> bytes:
        """Line `line`'s document id (from its words)."""
        return fields.texts(self.docs, np.array([line], dtype=np.int64))[0]


def read_lines(data: Bytes, stop: int, count: int, strict: bool = False,
               ids: bool = True) -> tuple[Lines, Ints]:  # fmt: skip
    """The lines of `data[:stop]` (`count` fields each; PAD bytes readable past them) with
    codes still to set (zeros), and their bounds (`fields.split`); Changed when a line is not
    plain (`strict`: every byte checked, as at the first look; else lines found plain before).
    `ids=False`: their document ids not read (a first look that keeps no line)."""
    bounds = fields.split(data[:stop], count, strict)
    if bounds is None or (len(bounds) and bounds[-1, -1] != stop - 1):
        raise Changed
    raw = fields.raw_words(data[: stop + fields.PAD])
    docs: Columns = []
    if ids:
        docs = fields.words(raw, *fields.field(bounds, 2), order=False)
    at, length = fields.field(bounds, 3 if count == 4 else 4)
    read = values.grades(data, raw, at, length) if count == 4 else \
        values.scores(data, raw, at, length)  # fmt: skip
    if read is None:
        raise Changed
    return Lines(np.zeros(len(bounds), dtype=np.int64), docs, read), bounds


def topic_codes(lines: Lines, bounds: Ints, offsets: Ints, codes: Ints) -> Lines:
    """`lines` (`bounds`: `read_lines`') with each line's topic code: the code of the group it
    lies in (`offsets`: where each group starts in the block, rising; `codes`: each group's)."""
    group = np.searchsorted(offsets, bounds[:, 0], side="right") - 1
    return Lines(codes[group], lines.docs, lines.values)


class TopicCounts:
    """Per topic code: qrels lines with grade > 0 and >= 0, judged documents at the level and
    below it, and judged documents per grade (`per_grade`, one row a topic, grades 0 up to the
    block's largest)."""

    __slots__ = ("judged", "num_nonrel", "num_rel", "per_grade", "positive")

    def __init__(self, positive: Ints, judged: Ints, num_rel: Ints, num_nonrel: Ints,
                 per_grade: Ints) -> None:  # fmt: skip
        self.positive, self.judged, self.num_rel = positive, judged, num_rel
        self.num_nonrel, self.per_grade = num_nonrel, per_grade

    def levels(self, topics: Ints) -> list[Ints]:
        """Per topic of `topics`: judged documents per grade 0..its largest judged grade."""
        rows = self.per_grade[topics]
        present = rows > 0
        width = rows.shape[1]
        ends = np.where(present.any(axis=1), width - np.argmax(present[:, ::-1], axis=1), 0)
        return [row[:end] for row, end in zip(rows, ends.tolist(), strict=True)]

    def ideal_terms(self, topics: Ints) -> tuple[Floats, Ints]:
        """The ideal DCG's terms of `topics` (grades above 0, best first, each over log2 of its
        rank + 1), concatenated, and how many each topic has."""
        counts = self.per_grade[topics][:, :0:-1]  # grades from the largest down to 1
        sizes = counts.sum(axis=1).astype(np.int64)
        values = np.arange(counts.shape[1], 0, -1, dtype=np.float64)
        best = np.repeat(np.tile(values, len(sizes)), counts.ravel())
        firsts = np.cumsum(sizes) - sizes
        ranks = np.arange(len(best)) - np.repeat(firsts, sizes)
        terms: Floats = best / np.log2(ranks + 2.0)
        return terms, sizes


def counted(codes: Ints, grades: Ints, topics: int, level: int) -> TopicCounts:
    """`TopicCounts` of the qrels lines (`codes`, `grades`) of `topics` topics."""
    largest = int(grades.max(initial=0))
    if int(grades.min(initial=0)) < 0:  # lines of negative grades count nowhere: a column of
        width = largest + 2  # their own, dropped (one count, where picking the others took two)
        cells = codes * width + np.maximum(grades, -1) + 1
    else:
        width = largest + 1
        cells = codes * width + grades
    per_grade = np.bincount(cells, minlength=topics * width).reshape(topics, width)
    if width > largest + 1:
        per_grade = per_grade[:, 1:]
    judged = per_grade.sum(axis=1)
    positive = judged - per_grade[:, 0]
    level = max(level, 0)
    num_rel = per_grade[:, level:].sum(axis=1).astype(np.int64)
    num_nonrel = per_grade[:, : min(level, largest + 1)].sum(axis=1).astype(np.int64)
    return TopicCounts(positive, judged, num_rel, num_nonrel, per_grade)
