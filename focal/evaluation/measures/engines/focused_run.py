"""The focused task of a whole FOL run at once, on integer article ids: no string per article.

Kamps et al., INEX 2007 Evaluation Measures (LNCS 4862): per topic, rank r has `relret[r]`
relevant and `ret[r]` retrieved characters, precision `relret/ret`, recall bin `floor(100·R)`,
and iP is the highest precision at or above each recall bin.
`focal.evaluation.measures.passages.focused` computes them topic by topic on `TopicLines`; this
module computes the same numbers, with the same operations element by element, for every topic of a
run at once from its columns (`focal.evaluation.formats.fol.arrow_table.FolTable`, read by pyarrow),
as the INEX Wikipedia ids are plain numbers: an article is the integer `topic << 32 | id`, looked up
in one sorted array of the judged articles of every qrels topic (`JudgedArticles`); an article
absent from it is non-relevant and has no known length, and needs no more than its own identity.

A run has some hundred thousand results and few of them in relevant articles, so the work on
every result is kept to one sort of integers (`focused_groups`: the articles retrieved, the
overlap check, the end of each article's last result) and one look-up per distinct article;
relevant characters are counted for the results in relevant articles only, and precision and
recall where relevant text is retrieved only, which is where iP is decided (`focused_curves`
says why).

It answers only when the answer is plainly the same as the topic-by-topic one: anything that
would warn or fail (a result past its article's end, recall above 1, overlapping results,
article ids that are not plain numbers) returns None, and the caller evaluates topic by topic,
which words the warning or the error. `tests/evaluation/measures/engines/test_focused_run.py`
requires the same evaluation as the topic-by-topic path on random runs, whichever way the
results are sorted.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.fol.arrow_table import FolTable
from focal.evaluation.measures.engines.passage_topics import missing_topic
from focal.evaluation.measures.passages.focused import topic_values
from focal.evaluation.measures.passages.focused_curves import gain_curves
from focal.evaluation.measures.passages.focused_groups import (
    Groups,
    bits_of,
    group_results,
    matches,
    spread,
)
from focal.evaluation.measures.passages.qrels_arrays import ID_BITS as _ID_BITS
from focal.evaluation.measures.passages.qrels_arrays import arrays_of_columns, arrays_of_texts
from focal.evaluation.measures.passages.text import KeyedPassages
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation

Ints = npt.NDArray[np.int64]

_MAX_KEYS = 1 << 22  # keys * 2**40 (`KeyedPassages.probe`) stays within int64


class JudgedArticles:
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
        base = self.key_count = arrays.key_count
        # keys renumbered in the order of the composites (the others after them): a run's
        # results, sorted by composite and start, then look passages up in ascending order
        renumber = np.full(base, -1, np.int64)
        relevant = self.keys >= 0
        renumber[self.keys[relevant]] = np.arange(int(relevant.sum()))
        renumber[renumber < 0] = np.arange(int(relevant.sum()), base)
        self.keys[relevant] = renumber[self.keys[relevant]]
        by_key = np.argsort(renumber[arrays.span_keys], kind="stable")  # each key's by start
        self.passages = KeyedPassages(
            renumber[arrays.span_keys][by_key],
            *(column[by_key] for column in (arrays.starts, arrays.lengths, arrays.before)),
        )


def judged_articles(prepared: PreparedQrels) -> JudgedArticles | None:
    """The index of `prepared` (built once, kept with the qrels: `PreparedQrels.derived`; None
    when its keys would not fit)."""
    return prepared.derived("judged_articles", _index_of)


def _index_of(prepared: PreparedQrels) -> JudgedArticles | None:
    index = JudgedArticles(prepared)
    return index if index.key_count < _MAX_KEYS else None


def evaluate_table(
    prepared: PreparedQrels, table: FolTable, file: str, settings: Settings
) -> RunEvaluation | None:
    """The focused evaluation of `table`, as `evaluate` gives it, or None (see above)."""
    passages = table.passages
    if settings.task != "focused" or table.names is not None or passages is None:
        return None
    index = judged_articles(prepared)
    if index is None or table.articles.dtype != np.int32:
        return None
    evaluation = RunEvaluation(table.run_id, file, settings, [])
    bounds = [*table.firsts.tolist(), len(table)]
    blocks = zip(table.topics, bounds[:-1], bounds[1:], strict=True)
    known = [(t, b, e) for t, b, e in blocks if t in index.topics]
    evaluation.unknown_topics = [t for t in table.topics if t not in index.topics]
    if known:
        lines = (
            None
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
        for topic, i in index.topics.items():  # in qrels order
            if topic not in answered:
                relevant = int(index.num_rel[i]), int(index.rel_size[i])
                evaluation.topics.append(missing_topic(prepared, topic, settings, relevant))
    return evaluation


def _evaluate_lines(
    index: JudgedArticles,
    table: FolTable,
    lines: Ints | None,
    counts: Ints,
    qrels_topics: Ints,
    strict: bool,
) -> list[tuple[dict[str, int | float], tuple[float, ...]]] | None:
    """Each topic's values and iP curve; `lines` are the results of the topics, topic after
    topic (`counts` of each, `qrels_topics` its index in the qrels; None: every result);
    None to go topic by topic.
    """
    passages = table.passages
    assert passages is not None
    articles = table.articles if lines is None else table.articles[lines]
    starts = passages.starts if lines is None else passages.starts[lines]
    sizes = passages.lengths if lines is None else passages.lengths[lines]
    bits = bits_of(qrels_topics), bits_of(articles), bits_of(starts)
    if sum(bits) > 62:
        return None
    grouped = group_results(qrels_topics, counts, articles, starts, sizes, bits)
    if grouped is None:
        return None
    ends = np.append(grouped.firsts[1:], len(grouped.ordered))  # each article's results' end
    judged = _judged(index, grouped, ends, sizes, bits)
    if judged is None:
        return None  # past the end of the article: the topic-by-topic path warns
    composites, groups, keys = judged
    relevant = keys >= 0  # only results in relevant articles have relevant text
    hit_lines, rel = _relevant_text(
        index, grouped, ends, (groups[relevant], keys[relevant]), sizes, bits[2]
    )
    block_firsts = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=block_firsts[1:])
    rel_sizes = index.rel_size[qrels_topics]
    found = gain_curves(hit_lines[rel > 0], rel[rel > 0], block_firsts, sizes, rel_sizes, strict)
    if found is None:
        return None  # recall above 1: the topic-by-topic path warns
    retrieved = composites, composites[groups[relevant]]
    return _topic_rows(index, qrels_topics, retrieved, rel_sizes, found)


def _judged(
    index: JudgedArticles, grouped: Groups, ends: Ints, sizes: Ints, bits: tuple[int, int, int]
) -> tuple[Ints, Ints, Ints] | None:
    """The composite (`topic << 32 | article`) of each article retrieved, ascending, and, for
    the judged ones, its group and its passage key (-1: no relevant text); None when a result
    runs past its article's end."""
    _, article_bits, start_bits = bits
    ordered, firsts = grouped.ordered, grouped.firsts  # each article's results, by start
    distinct = ordered[firsts] >> start_bits  # (qrels topic, article) of each, ascending
    composites = (distinct >> article_bits) << _ID_BITS | (distinct & ((1 << article_bits) - 1))
    groups, entries = matches(composites, index.composites)  # the judged articles
    limits, keys = index.limits[entries], index.keys[entries]
    known = limits >= 0
    lasts = ends[groups[known]] - 1  # no overlap: the last result of an article ends last
    start_mask = (1 << start_bits) - 1
    if ((ordered[lasts] & start_mask) + sizes[grouped.lines(lasts)] > limits[known]).any():
        return None
    return composites, groups, keys


def _relevant_text(
    index: JudgedArticles, grouped: Groups, ends: Ints, relevant: tuple[Ints, Ints],
    sizes: Ints, start_bits: int,
) -> tuple[Ints, Ints]:  # fmt: skip
    """The line of every result in an article with relevant text (`relevant`: their groups
    and passage keys) and how many relevant characters it retrieves."""
    groups, keys = relevant
    firsts = grouped.firsts
    hits = spread(firsts[groups], ends[groups])
    hit_keys = np.repeat(keys, (ends - firsts)[groups])
    hit_starts, hit_lines = grouped.ordered[hits] & ((1 << start_bits) - 1), grouped.lines(hits)
    before = index.passages.relevant_before(
        np.append(hit_keys, hit_keys), np.append(hit_starts + sizes[hit_lines], hit_starts)
    )
    rel: Ints = before[: len(hits)] - before[len(hits) :]
    return hit_lines, rel


def _topic_rows(
    index: JudgedArticles, qrels_topics: Ints, retrieved: tuple[Ints, Ints], rel_sizes: Ints,
    found: tuple[npt.NDArray[np.float64], Ints, Ints],
) -> list[tuple[dict[str, int | float], tuple[float, ...]]]:  # fmt: skip
    """Each topic's values and iP curve, from the composites of the articles `retrieved` (all,
    and those with relevant text) and the curves `found`."""
    matrix, ret_size, rel_ret_size = found
    topic_starts = qrels_topics << _ID_BITS
    num_ret = _counts_within(retrieved[0], topic_starts)
    num_rel_ret = _counts_within(retrieved[1], topic_starts)
    rows = zip(
        num_ret.tolist(), index.num_rel[qrels_topics].tolist(), num_rel_ret.tolist(),
        ret_size.tolist(), rel_sizes.tolist(), rel_ret_size.tolist(), matrix.tolist(),
        strict=True,
    )  # fmt: skip
    return [
        (topic_values(n_ret, n_rel, n_rel_ret, r_size, rel, rel_ret, curve), tuple(curve))
        for n_ret, n_rel, n_rel_ret, r_size, rel, rel_ret, curve in rows
    ]


def _counts_within(composites: Ints, topic_starts: Ints) -> Ints:
    """How many of the sorted `composites` belong to each qrels topic (`topic << 32`)."""
    counts: Ints = np.searchsorted(composites, topic_starts + (1 << _ID_BITS)) - np.searchsorted(
        composites, topic_starts
    )
    return counts
