"""What the whole-run focused evaluation needs of the qrels, as arrays over every topic.

`focal.evaluation.measures.engines.focused_run.JudgedArticles` looks up each retrieved article in
one sorted
array of the judged articles of every topic and counts relevant characters from one array of
relevant passages (Kamps et al., INEX 2007 Evaluation Measures, LNCS 4862: `rel(p)` of a
result is its overlap with the highlighted passages of its article). `JudgedArrays` holds those
arrays before they are sorted. They are computed either topic by topic from each topic's
`RelevantText` (`arrays_of_texts`, any qrels) or, when the qrels fast path read the file, from
its columns at once (`arrays_of_columns`: no Python loop over topics or judgements, about a
tenth of the time on the INEX-sized qrels of the benchmark); the two give equal arrays, which
`tests/evaluation/measures/passages/test_qrels_arrays.py` checks on random qrels.

Articles are numbered as `focused_table` reads run ids: an id that is a plain number (digits, no
leading zero, below 2**31) is that number; other ids are left out (no FOL run read by pyarrow
can name them). Relevant articles get keys numbered across topics, topic after topic in qrels
order and, within a topic, in file order, as `RelevantText` numbers them per topic.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.fol.qrels_fast import QrelsColumns
from focal.evaluation.measures.passages.text import RelevantText

Ints = npt.NDArray[np.int64]

ID_BITS = 32  # composite article: topic index << 32 | id (ids are int32)
_POWERS_OF_TEN = 10 ** np.arange(10, dtype=np.int64)


@dataclass(frozen=True)
class JudgedArrays:
    """The judged articles with plain-number ids of every topic, topic by topic in file order,
    and every relevant passage, by key then start."""

    topics: dict[str, int]  # qrels order
    composites: Ints  # topic index << ID_BITS | id
    keys: Ints  # of relevant articles (numbered across topics); -1 for the others
    limits: Ints  # article length; -1 when unknown (0 in the qrels)
    span_keys: Ints
    starts: Ints
    lengths: Ints
    before: Ints  # relevant characters of the article before the passage
    rel_size: Ints  # per topic index
    num_rel: Ints

    @property
    def key_count(self) -> int:
        return int(self.num_rel.sum())


def plain_number(article: str) -> int:
    """The int32 that prints as `article` (`fol_arrow` reads such ids as integers), or -1."""
    try:
        number = int(article)
    except ValueError:
        return -1
    return number if 0 <= number < 1 << 31 and str(number) == article else -1


def plain_numbers(articles: list[str]) -> Ints:
    """`plain_number` of each article: on the whole list at once when every id is a string of
    one to ten ASCII digits, without a leading zero (the INEX Wikipedia ids), else one by one."""
    joined = "".join(articles)
    lengths = np.array(list(map(len, articles)), np.int64)
    if (
        articles
        and joined.isascii()
        and joined.isdigit()
        and 0 < lengths.min() <= lengths.max() <= 10
    ):
        digits = np.frombuffer(joined.encode("ascii"), np.uint8) - np.uint8(ord("0"))
        ends = np.cumsum(lengths)
        if not ((digits[ends - lengths] == 0) & (lengths > 1)).any():
            # each id's digits times their place values, summed per id (exact in int64)
            places = np.repeat(ends, lengths) - np.arange(len(digits)) - 1
            values = np.add.reduceat(digits * _POWERS_OF_TEN[places], ends - lengths)
            result: Ints = np.where(values < 1 << 31, values, -1)
            return result
    return np.fromiter(map(plain_number, articles), np.int64, len(articles))


def arrays_of_texts(topics: list[str], texts: list[RelevantText]) -> JudgedArrays:
    """The arrays of the qrels `topics`, from each one's `RelevantText` (in the same order)."""
    composites: list[Ints] = []
    keys: list[Ints] = []
    limits: list[Ints] = []
    spans: list[tuple[Ints, Ints, Ints, Ints]] = []
    rel_size = np.zeros(len(topics), np.int64)
    num_rel = np.zeros(len(topics), np.int64)
    base = 0
    for i, text in enumerate(texts):
        articles = list(text.judgements)  # the relevant ones are judged too
        numbers = plain_numbers(articles)
        kept = numbers >= 0
        count = len(articles)
        topic_key = np.fromiter(map(text.key.get, articles, repeat(-1)), np.int64, count)
        limit = np.fromiter(map(text.article_chars.get, articles, repeat(-1)), np.int64, count)
        composites.append(i << ID_BITS | numbers[kept])
        keys.append(np.where(topic_key < 0, -1, base + topic_key)[kept])
        limits.append(limit[kept])
        topic_keys, starts, lengths, before = text.spans()
        spans.append((topic_keys + base, starts, lengths, before))
        rel_size[i], num_rel[i] = text.rel_size, text.num_rel
        base += text.num_rel
    empty = np.zeros(0, np.int64)
    joined = [np.concatenate(parts) if parts else empty for parts in (composites, keys, limits)]
    passages = [np.concatenate([part[n] for part in spans]) if spans else empty for n in range(4)]
    return JudgedArrays(
        {topic: i for i, topic in enumerate(topics)}, joined[0], joined[1], joined[2],
        passages[0], passages[1], passages[2], passages[3], rel_size, num_rel,
    )  # fmt: skip


def arrays_of_columns(columns: QrelsColumns) -> JudgedArrays:
    """The same arrays from the fast path's columns, every topic at once."""
    topics = {topic: i for i, topic in enumerate(dict.fromkeys(columns.topics))}
    count = len(columns.topics)
    codes = np.fromiter(map(topics.__getitem__, columns.topics), np.int64, count)
    rows = np.argsort(codes, kind="stable")  # topic after topic, in file order within each
    relevant = columns.rel_chars > 0
    key_of_row = np.full(count, -1, np.int64)
    ranked = rows[relevant[rows]]  # the relevant rows in key order
    key_of_row[ranked] = np.arange(len(ranked))
    numbers = plain_numbers(columns.articles)[rows]
    kept = numbers >= 0
    composites = (codes[rows] << ID_BITS | numbers)[kept]
    limits = np.where(columns.article_chars > 0, columns.article_chars, -1)[rows][kept]
    num_rel = np.bincount(codes[relevant], minlength=len(topics)).astype(np.int64)
    rel_size = np.zeros(len(topics), np.int64)
    np.add.at(rel_size, codes, columns.rel_chars)
    lengths = columns.ends - columns.starts
    span_keys = key_of_row[columns.relevant][columns.owner]
    running = np.cumsum(lengths) - lengths  # relevant characters before each passage, ...
    firsts = np.flatnonzero(np.diff(columns.owner, prepend=-1))
    before = running - np.repeat(
        running[firsts], np.diff(firsts, append=len(running))
    )  # ... of its row
    order = np.argsort(span_keys, kind="stable")  # by key; each row's passages stay by start
    return JudgedArrays(
        topics, composites, key_of_row[rows][kept], limits, span_keys[order],
        columns.starts[order], lengths[order], before[order], rel_size, num_rel,
    )  # fmt: skip
