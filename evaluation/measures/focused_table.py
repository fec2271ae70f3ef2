"""The focused task of a whole FOL run at once, on integer article ids: no string per article.

Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862): per topic, rank r has `relret[r]`
relevant and `ret[r]` retrieved characters, precision `relret/ret`, recall bin `floor(100·R)`,
and iP is the highest precision at or above each recall bin. `evaluation.measures.focused`
computes them topic by topic on `TopicLines`; this module computes the same numbers, with the
same operations element by element, for every topic of a run in one pass over its columns
(`evaluation.formats.fol_arrow.FolTable`, read by pyarrow), as the INEX Wikipedia ids are
plain numbers: an article is the integer `topic << 32 | id`, looked up in one sorted array of
the judged articles of every qrels topic (`QrelsIndex`); an article absent from it is
non-relevant and has no known length, and needs no more than its own identity.

It answers only when the answer is plainly the same as the topic-by-topic one: anything that
would warn or fail (a result past its article's end, recall above 1, overlapping results,
article ids that are not plain numbers) returns None, and the caller evaluates topic by topic,
which words the warning or the error. `tests/evaluation/measures/test_focused_table.py`
requires the same evaluation as the topic-by-topic path on random runs.
"""

from __future__ import annotations

import weakref

import numpy as np
import numpy.typing as npt

from evaluation.formats.fol_arrow import FolTable
from evaluation.measures.evaluate import (
    PreparedQrels,
    RunEvaluation,
    Settings,
    TopicEvaluation,
    missing_topic,
)
from evaluation.measures.focused import RECALL_POINTS, topic_values
from evaluation.measures.qrels_arrays import ID_BITS as _ID_BITS
from evaluation.measures.qrels_arrays import arrays_of_columns, arrays_of_texts

Ints = npt.NDArray[np.int64]

_SPAN = 1 << 40  # relevant passages packed as key * _SPAN + start, as in `RelevantText`
_MAX_KEYS = 1 << 22  # keys * _SPAN stays within int64
_INDEXES: weakref.WeakKeyDictionary[PreparedQrels, QrelsIndex | None] = weakref.WeakKeyDictionary()


class QrelsIndex:
    """Every qrels topic's judged articles with plain-number ids, as one sorted array."""

    def __init__(self, prepared: PreparedQrels) -> None:
        if prepared.columns is not None:
            arrays = arrays_of_columns(prepared.columns)
        else:
            topics = list(prepared.qrels)
            arrays = arrays_of_texts(topics, [prepared.text(topic) for topic in topics])
        self.topics = arrays.topics
        self.rel_size, self.num_rel = arrays.rel_size, arrays.num_rel
        order = np.argsort(arrays.composites, kind="stable")
        self.composites, self.keys, self.limits = (
            column[order] for column in (arrays.composites, arrays.keys, arrays.limits)
        )
        self.key_count = arrays.key_count
        self._keys, self._starts = arrays.span_keys, arrays.starts
        self._lengths, self._before = arrays.lengths, arrays.before
        self._probe = self._keys * _SPAN + self._starts

    def relevant_before(self, keys: Ints, offsets: Ints) -> Ints:
        """Relevant characters of the article with key `keys[i]` before `offsets[i]` (as
        `RelevantText._relevant_before`, on keys numbered across topics)."""
        if len(self._probe) == 0 or len(keys) == 0:
            return np.zeros(len(keys), np.int64)
        x = np.clip(offsets, 0, _SPAN - 1)
        index = np.searchsorted(self._probe, keys * _SPAN + x, side="right") - 1
        safe = np.maximum(index, 0)
        valid = (keys >= 0) & (index >= 0) & (self._keys[safe] == keys)
        within = np.minimum(x - self._starts[safe], self._lengths[safe])
        result: Ints = np.where(valid, self._before[safe] + within, 0)
        return result


def qrels_index(prepared: PreparedQrels) -> QrelsIndex | None:
    """The index of `prepared` (built once; None when its keys would not fit)."""
    if prepared not in _INDEXES:
        index = QrelsIndex(prepared)
        _INDEXES[prepared] = index if index.key_count < _MAX_KEYS else None
    return _INDEXES[prepared]


def evaluate_table(
    prepared: PreparedQrels, table: FolTable, file: str, settings: Settings
) -> RunEvaluation | None:
    """The focused evaluation of `table`, as `evaluate` gives it, or None (see above)."""
    passages = table.passages
    if settings.task != "focused" or table.names is not None or passages is None:
        return None
    index = qrels_index(prepared)
    if index is None or table.articles.dtype != np.int32:
        return None
    evaluation = RunEvaluation(table.run_id, file, settings, [])
    bounds = [*table.firsts.tolist(), len(table)]
    blocks = zip(table.topics, bounds[:-1], bounds[1:], strict=True)
    known = [(t, b, e) for t, b, e in blocks if t in index.topics]
    evaluation.unknown_topics = [t for t in table.topics if t not in index.topics]
    if known:
        lines = (
            np.arange(len(table))
            if len(known) == len(table.topics)
            else np.concatenate([np.arange(b, e) for _, b, e in known])
        )
        counts = np.array([e - b for _, b, e in known], np.int64)
        qrels_topics = np.array([index.topics[t] for t, _, _ in known], np.int64)
        topics = _evaluate_lines(index, table, lines, counts, qrels_topics, settings.strict)
        if topics is None:
            return None
        for (topic, _, _), (values, curve) in zip(known, topics, strict=True):
            if values["num_rel"] == 0:
                evaluation.warnings.append(
                    f"topic {topic} has no relevant text: every measure is 0"
                )
            evaluation.topics.append(TopicEvaluation(topic, values, curve))
    if settings.complete:
        answered = set(table.topics)
        for topic in prepared.qrels:
            if topic not in answered:
                evaluation.topics.append(missing_topic(prepared, topic, settings))
    return evaluation


def _evaluate_lines(
    index: QrelsIndex,
    table: FolTable,
    lines: Ints,
    counts: Ints,
    qrels_topics: Ints,
    strict: bool,
) -> list[tuple[dict[str, int | float], tuple[float, ...]]] | None:
    """Each topic's values and iP curve; `lines` are the results of the topics, topic after
    topic (`counts` of each, `qrels_topics` its index in the qrels); None to go topic by topic.
    """
    passages = table.passages
    assert passages is not None
    whole = len(lines) == len(table)  # every topic in the qrels: no copy of the columns
    articles = table.articles if whole else table.articles[lines]
    starts = passages.starts if whole else passages.starts[lines]
    sizes = passages.lengths if whole else passages.lengths[lines]
    # Each result as one integer (qrels topic, article, start): one sort groups the results of
    # each article, by start, for the overlap check (`focused.check_no_overlap`).
    start_bits, article_bits = _bits(starts), _bits(articles)
    topic_bits = _bits(qrels_topics)
    if start_bits + article_bits + topic_bits > 62:
        return None
    line_topics = np.repeat(qrels_topics, counts)
    packed = (line_topics << article_bits | articles) << start_bits | starts
    order = np.argsort(packed)
    ordered = packed[order]
    if (ordered[1:] == ordered[:-1]).any():
        return None  # two results of one article at one start: the file order of ties decides
    ordered_starts = ordered & ((1 << start_bits) - 1)
    ordered_ends = ordered_starts + sizes[order]
    article_of = ordered >> start_bits  # (topic, article) of each result, by article
    new = np.r_[True, article_of[1:] != article_of[:-1]]
    if (~new[1:] & (ordered_starts[1:] < ordered_ends[:-1])).any():
        return None  # overlapping results: the topic-by-topic path names the lines
    group_of = np.cumsum(new) - 1  # the distinct article of each result, in sorted order
    distinct = article_of[new]
    group_topics = distinct >> article_bits
    groups = group_topics << _ID_BITS | (distinct & ((1 << article_bits) - 1))
    where = np.minimum(np.searchsorted(index.composites, groups), len(index.composites) - 1)
    found = index.composites[where] == groups if len(index.composites) else groups < 0
    group_keys = np.where(found, index.keys[where] if len(index.keys) else -1, -1)
    group_limits = np.where(found, index.limits[where] if len(index.limits) else -1, -1)
    group_firsts = np.flatnonzero(new)
    if (
        (group_limits >= 0) & (np.maximum.reduceat(ordered_ends, group_firsts) > group_limits)
    ).any():
        return None  # past the end of the article: the topic-by-topic path warns
    keys = group_keys[group_of]
    hits = np.flatnonzero(keys >= 0)  # only results in relevant articles have relevant text
    keys, hit_starts, hit_ends = keys[hits], ordered_starts[hits], ordered_ends[hits]
    rel = np.zeros(len(order), np.int64)
    rel[order[hits]] = index.relevant_before(keys, hit_ends) - index.relevant_before(
        keys, hit_starts
    )
    firsts = np.r_[0, np.cumsum(counts)[:-1]]
    relret, ret = _sums_within(rel, firsts, counts), _sums_within(sizes, firsts, counts)
    precision = np.divide(relret, ret, out=np.zeros(len(ret)), where=ret > 0)
    block = np.repeat(np.arange(len(counts)), counts)
    rel_size = index.rel_size[qrels_topics][block]
    bins = np.zeros(len(rel), np.int64)
    judged = rel_size > 0  # `focused.recall_bins`, line by line
    levels = RECALL_POINTS - 1
    if strict:
        bins[judged] = (levels * relret[judged]) // rel_size[judged]
    elif judged.all():
        bins = np.floor(levels * (relret / rel_size)).astype(np.int64)
    else:
        bins[judged] = np.floor(levels * (relret[judged] / rel_size[judged])).astype(np.int64)
    if len(bins) and bins.max() >= RECALL_POINTS:
        return None  # recall above 1: the topic-by-topic path warns
    curves = np.zeros(len(counts) * RECALL_POINTS)
    np.maximum.at(curves, block * RECALL_POINTS + bins, precision)
    matrix = np.maximum.accumulate(curves.reshape(len(counts), RECALL_POINTS)[:, ::-1], axis=1)
    topic_block = np.zeros(len(index.rel_size), np.int64)
    topic_block[qrels_topics] = np.arange(len(counts))
    group_topic = topic_block[group_topics]  # the topic of each distinct article
    num_ret = np.bincount(group_topic, minlength=len(counts))
    num_rel_ret = np.bincount(group_topic[group_keys >= 0], minlength=len(counts))
    lasts = firsts + counts - 1
    rows = zip(
        num_ret.tolist(), index.num_rel[qrels_topics].tolist(), num_rel_ret.tolist(),
        ret[lasts].tolist(), index.rel_size[qrels_topics].tolist(), relret[lasts].tolist(),
        matrix[:, ::-1].tolist(), strict=True,
    )  # fmt: skip
    return [
        (topic_values(n_ret, n_rel, n_rel_ret, r_size, rel, rel_ret, curve), tuple(curve))
        for n_ret, n_rel, n_rel_ret, r_size, rel, rel_ret, curve in rows
    ]


def _sums_within(values: Ints, firsts: Ints, counts: Ints) -> Ints:
    """The running sums of `values` restarted at each topic (exact: integers)."""
    sums = np.cumsum(values)
    before = np.r_[0, sums][firsts]
    result: Ints = sums - np.repeat(before, counts)
    return result


def _bits(values: npt.NDArray[np.int64] | npt.NDArray[np.int32]) -> int:
    """Bits of the largest of `values` (none negative)."""
    return int(values.max()).bit_length() if len(values) else 0
