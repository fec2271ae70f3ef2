"""A whole-file fast path for FOL qrels, used by `read_qrels` when it can be.

It accepts a subset of what the line-by-line parser accepts and builds the same judgements: every
number a plain ASCII digit string, non-relevant lines with exactly five fields and `rel_chars`
`0`, relevant lines with a best entry point and at least one `offset:length` passage of positive
length, no overlapping passages, passages adding up to `rel_chars`, no duplicate judgement, and
every id and count within the bounds of `focal.evaluation.formats.bounds` (so `read_qrels` need not
check them again judgement by judgement). The checks run on whole columns (joined strings, numpy
arrays) instead of per field. Whenever one fails it returns None, and `read_qrels` parses the
file line by line, which names the first bad line exactly as before.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, fields
from itertools import chain, groupby, repeat
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.bounds import (
    ARTICLE_ID_LENGTH,
    MAX_COUNT,
    TOPIC_ID_LENGTH,
    ids_within,
)
from focal.evaluation.formats.records import Judgement, Qrels, Span

Ints = npt.NDArray[np.int64]

_HEAD = tuple(map(itemgetter, (0, 2, 3, 4)))  # topic, article, rel_chars, article_chars
_FIELDS = tuple(field.name for field in fields(Judgement))
_SLOTS = {name: Judgement.__dict__[name] for name in _FIELDS}


@dataclass(frozen=True)
class QrelsColumns:
    """The judgements the fast path read, as columns: one row per judgement in file order, and
    the passages of the relevant rows (`relevant`), row after row, each row's by start. What
    evaluating many runs needs of the qrels can be computed on these arrays at once
    (`focal.evaluation.measures.passages.qrels_arrays`); the `Judgement` records are built from them
    only when
    asked for (`judgements_of`)."""

    topics: list[str]
    articles: list[str]
    rel_chars: Ints
    article_chars: Ints
    lines: list[int]  # of each row in the file
    relevant: Ints  # the rows with passages, ascending
    beps: list[int]  # of the relevant rows
    owner: Ints  # of each passage, its row's position in `relevant`
    starts: Ints
    ends: Ints


def read_plain_qrels_columns(lines: list[str]) -> QrelsColumns | None:
    """The judgements of decoded `lines` as columns (`QrelsColumns`) when every line is plain
    (see above), else None."""
    try:
        return _read(lines)
    except OverflowError:  # a number too large for numpy: the line-by-line parser takes it
        return None


def _read(lines: list[str]) -> QrelsColumns | None:
    rows = list(map(str.split, lines))
    if all(rows):
        numbers = list(range(1, len(rows) + 1))
    else:  # blank lines (the last one, after the final newline, at least) are skipped
        numbers = [number for number, row in enumerate(rows, start=1) if row]
        rows = [rows[number - 1] for number in numbers]
    if not numbers:
        return None
    widths = np.fromiter(map(len, rows), np.int64, len(rows))
    if widths.min() < 5 or (widths == 6).any():
        return None  # too few fields, or a best entry point without passages: errors
    topics, articles, rel_tokens, size_tokens = (list(map(get, rows)) for get in _HEAD)
    if not _all_digits(chain(rel_tokens, size_tokens)):
        return None
    if not ids_within(topics, TOPIC_ID_LENGTH) or not ids_within(articles, ARTICLE_ID_LENGTH):
        return None
    if not _judged_once(topics, articles):
        return None  # an article judged twice for a topic: the line-by-line parser names both
    rel_chars = np.array(rel_tokens, np.int64)  # `int` of each (all ASCII digits)
    article_chars = np.array(size_tokens, np.int64)
    if article_chars.max() > MAX_COUNT:
        return None
    relevant = np.flatnonzero(widths > 5)
    if ((rel_chars > 0) != (widths > 5)).any():
        return None  # passages on a non-relevant line, or relevant without them: errors
    judged = _relevant_parts([rows[i] for i in relevant.tolist()])
    if judged is None:
        return None
    beps, totals, (owner, starts, ends) = judged
    if not np.array_equal(totals, rel_chars[relevant]):
        return None
    return QrelsColumns(
        topics, articles, rel_chars, article_chars, numbers, relevant, beps, owner, starts, ends
    )


def _judged_once(topics: list[str], articles: list[str]) -> bool:
    """Whether no topic judges an article twice (a set of ids per topic, filled block by block
    of lines: cheaper than one set of (topic, article) pairs)."""
    seen: dict[str, set[str]] = {}
    begin = 0
    for topic, block in groupby(topics):
        count = len(list(block))
        judged = seen.setdefault(topic, set())
        before = len(judged)
        judged.update(articles[begin : begin + count])
        if len(judged) - before != count:
            return False
        begin += count
    return True


def judgements_of(columns: QrelsColumns) -> Qrels:
    """topic -> article -> Judgement of the columns, in file order (as the line parser)."""
    count = len(columns.topics)
    bep_column: list[int | None] = [None] * count
    passage_column: list[tuple[Span, ...]] = [()] * count
    spans = list(zip(columns.starts.tolist(), columns.ends.tolist(), strict=True))
    edges = np.searchsorted(columns.owner, np.arange(len(columns.relevant) + 1)).tolist()
    for position, index in enumerate(columns.relevant.tolist()):
        bep_column[index] = columns.beps[position]
        passage_column[index] = tuple(spans[edges[position] : edges[position + 1]])
    judgements = _build(
        columns.topics, columns.articles, columns.rel_chars.tolist(),
        columns.article_chars.tolist(), bep_column, passage_column, columns.lines,
    )  # fmt: skip
    return _group(columns.topics, columns.articles, judgements)


def _all_digits(tokens: chain[str] | list[str]) -> bool:
    text = "".join(tokens)
    return text.isascii() and text.isdigit()


def _relevant_parts(
    rows: list[list[str]],
) -> tuple[list[int], Ints, tuple[Ints, Ints, Ints]] | None:
    """Best entry points and the total passage length of relevant lines, and their passages as
    arrays (owner, start, end), each line's sorted by start (None: refuse)."""
    if not rows:
        empty = np.zeros(0, np.int64)
        return [], empty, (empty, empty, empty)
    bep_tokens = [row[5] for row in rows]
    tokens = list(chain.from_iterable(row[6:] for row in rows))
    if not _all_digits(bep_tokens) or set(map(str.count, tokens, repeat(":"))) != {1}:
        return None
    parts = ":".join(tokens).split(":")
    if "" in parts or not _all_digits(parts):
        return None
    numbers = np.array(parts, np.int64)  # `int` of each (all ASCII digits); OverflowError if huge
    starts, sizes = numbers[0::2], numbers[1::2]
    if sizes.min() <= 0:
        return None
    beps = list(map(int, bep_tokens))
    if max(beps) > MAX_COUNT or (starts + sizes).max() > MAX_COUNT:
        return None  # out of bounds: `check_judgements` names the line
    counts = np.array([len(row) - 6 for row in rows], np.int64)
    owner = np.repeat(np.arange(len(rows)), counts)
    ends = starts + sizes
    if ((owner[1:] == owner[:-1]) & (starts[1:] < starts[:-1])).any():
        order = np.lexsort((ends, starts, owner))  # per line, sorted as `sorted(spans)` sorts
        starts, ends, owner = starts[order], ends[order], owner[order]
    if ((owner[1:] == owner[:-1]) & (starts[1:] < ends[:-1])).any():
        return None  # overlapping passages: an error
    totals = np.add.reduceat(ends - starts, np.r_[0, np.cumsum(counts)[:-1]])
    return beps, totals, (owner, starts, ends)


def _build(*columns: Sequence[object]) -> list[Judgement]:
    """Judgements from columns in field order, filled through their slots from C (as runs do)."""
    count = len(columns[0])
    judgements: list[Judgement] = list(map(object.__new__, repeat(Judgement, count)))
    for name, values in zip(_FIELDS, columns, strict=True):
        deque(map(_SLOTS[name].__set__, judgements, values), maxlen=0)
    return judgements


def _group(topics: list[str], articles: list[str], judgements: list[Judgement]) -> Qrels:
    """topic -> article -> judgement in file order (no article is judged twice: `_read`)."""
    qrels: Qrels = {}
    begin = 0
    for topic, block in groupby(topics):
        end = begin + len(list(block))
        qrels.setdefault(topic, {}).update(
            zip(articles[begin:end], judgements[begin:end], strict=True)
        )
        begin = end
    return qrels
