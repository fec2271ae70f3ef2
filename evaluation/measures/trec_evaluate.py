"""Article evaluation as trec_eval 9.0.x or 10.0 does it: qrels index, ranking, averaging.

One `QrelsIndex` serves every run: per topic, document -> grade, and what does not depend on
the run (relevant and judged non-relevant counts at the relevance level, the ideal DCG). A run
is ranked as trec_eval ranks it (score descending, then document id descending: the rank column
plays no part), cut to `-M` documents per topic, and all its topics go through
`trec_measures.topic_values` at once.

The two versions differ in two places (trec_eval 10.0 changelog; see docs/trec_eval.md):
- `iprec_at_recall` and `11pt_avg` cut-offs: `(long)(p·R + 0.9)` in 9.x, `lround(p·R)` in 10.0.
- `-c`: 9.x evaluates the topics the run answers and divides by the number of qrels topics;
  10.0 also evaluates each missing qrels topic as an empty ranking, so `-c -q` prints its rows
  (num_ret 0, its num_rel, every measure 0), and the `all` rows num_q and num_rel count it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from evaluation.formats.records import Judgement, Run
from evaluation.formats.trec import TrecQrels, TrecRun, TrecTopic, run_from_pairs
from evaluation.measures.trec_measures import (
    MIN_GEO_MEAN,
    NONPOOL,
    UNJUDGED,
    Floats,
    Ranked,
    topic_values,
)
from evaluation.measures.trec_names import COUNTS, Selection

Value = int | float
VERSIONS = (9, 10)


@dataclass(frozen=True)
class TrecOptions:
    """trec_eval's switches: -l, -M, -c, and which version's numbers to reproduce."""

    level: int = 1  # -l: lowest grade that counts as relevant
    max_docs: int | None = None  # -M: documents per topic considered (None: all)
    complete: bool = False  # -c: average over every qrels topic
    version: int = 10  # 10 (default) or 9

    def __post_init__(self) -> None:
        if self.version not in VERSIONS:
            raise ValueError(f"trec_eval version must be 9 or 10, not {self.version}")
        if self.level < 0 or (self.max_docs is not None and self.max_docs < 1):
            raise ValueError("-l must be at least 0 and -M at least 1")


@dataclass(frozen=True)
class _TopicStats:
    num_rel: int
    num_nonrel: int
    ideal: Floats


class QrelsIndex:
    """Qrels prepared once for many runs: grades per topic (negative ones as UNJUDGED)."""

    def __init__(self, topics: Mapping[str, Mapping[bytes, int]], file: str = "") -> None:
        self.file = file
        self.grades = {
            topic: {doc: grade if grade >= 0 else UNJUDGED for doc, grade in judged.items()}
            for topic, judged in topics.items()
        }
        self.topics = sorted(self.grades)  # str order = UTF-8 byte order = trec_eval's strcmp
        self._stats: dict[tuple[str, int], _TopicStats] = {}

    @classmethod
    def from_trec(cls, qrels: TrecQrels) -> QrelsIndex:
        return cls(qrels.topics, qrels.file)

    @classmethod
    def from_fol(cls, qrels: Mapping[str, Mapping[str, Judgement]], file: str = "") -> QrelsIndex:
        """FOL qrels: an article with highlighted characters has grade 1, the others 0."""
        grades = {
            topic: {article.encode(): int(j.rel_chars > 0) for article, j in judged.items()}
            for topic, judged in qrels.items()
        }
        return cls(grades, file)

    def stats(self, topic: str, level: int) -> _TopicStats:
        key = (topic, level)
        if key not in self._stats:
            grades = np.fromiter(self.grades[topic].values(), np.int64)
            positive = np.sort(grades[grades > 0])[::-1].astype(np.float64)
            ideal = np.cumsum(positive / np.log2(np.arange(2, len(positive) + 2)))
            num_rel = int(np.count_nonzero(grades >= level))
            num_nonrel = int(np.count_nonzero((grades >= 0) & (grades < level)))
            self._stats[key] = _TopicStats(num_rel, num_nonrel, ideal)
        return self._stats[key]


@dataclass
class TrecEvaluation:
    """One run: per-topic rows (printed order) and the `all` rows."""

    run_id: str
    file: str
    options: TrecOptions
    topics: list[str]
    values: dict[str, list[Value]]  # row name -> per-topic values, aligned with `topics`
    summary: dict[str, Value]  # row name -> the `all` value (num_q first)
    answered: list[bool] = field(default_factory=list)
    unknown_topics: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def run_from_records(run: Run) -> TrecRun:
    """A passage or element run reduced to articles: an article scores its best result."""
    topics: dict[str, dict[bytes, float]] = {}
    for topic, results in run.topics.items():
        best = topics.setdefault(topic, {})
        for result in results:
            article = result.article.encode()
            if article not in best or result.score > best[article]:
                best[article] = result.score
    return run_from_pairs(run.run_id, run.file, topics, run.warnings)


def rank_topic(topic: TrecTopic, max_docs: int | None) -> np.ndarray:
    """Indices of the topic's documents in trec_eval's order, cut to `max_docs`.

    >>> import numpy as np
    >>> t = TrecTopic([b"d1", b"d3", b"d2"], np.array([1.0, 2.0, 2.0]), np.zeros(3, np.int64))
    >>> rank_topic(t, None).tolist()  # d3 and d2 tie at 2.0: d3 first (id descending)
    [1, 2, 0]
    """
    scores = topic.scores
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    if len(ordered) > 1 and bool((ordered[1:] == ordered[:-1]).any()):
        order = np.lexsort((np.array(topic.docs), scores))[::-1]
    return order if max_docs is None else order[:max_docs]


def evaluate_trec(
    index: QrelsIndex, run: TrecRun, selection: Selection, options: TrecOptions
) -> TrecEvaluation:
    """Evaluate one run: the topics it shares with the qrels (sorted), plus with `-c` in 10.0
    the qrels topics it misses; `all` as the chosen version averages."""
    answered = sorted(t for t in run.topics if t in index.grades)
    unknown = [t for t in run.topics if t not in index.grades]
    grades, starts, stats = [], [], []
    position = 0
    for topic in answered:
        judged = index.grades[topic]
        block = run.topics[topic]
        order = rank_topic(block, options.max_docs)
        looked_up = np.fromiter(map(judged.get, block.docs, repeat(NONPOOL)), np.int64)
        grades.append(looked_up[order])
        starts.append(position)
        position += len(order)
        stats.append(index.stats(topic, options.level))
    ranked = Ranked(
        np.concatenate(grades) if grades else np.zeros(0, np.int64),
        np.array(starts, dtype=np.int64),
        np.array([s.num_rel for s in stats], dtype=np.int64),
        np.array([s.num_nonrel for s in stats], dtype=np.int64),
        [s.ideal for s in stats],
    )
    arrays = topic_values(ranked, selection, options.level, options.version)
    values: dict[str, list[Value]] = {name: column.tolist() for name, column in arrays.items()}
    topics, flags = list(answered), [True] * len(answered)
    if options.complete and options.version == 10:
        topics, flags, values = _with_missing(index, topics, values, options)
    evaluation = TrecEvaluation(
        run.run_id, run.file, options, topics, values, {}, flags, unknown, list(run.warnings)
    )
    evaluation.summary = _summary(evaluation, index, selection)
    return evaluation


def _with_missing(
    index: QrelsIndex, answered: list[str], values: dict[str, list[Value]], options: TrecOptions
) -> tuple[list[str], list[bool], dict[str, list[Value]]]:
    """10.0 with -c: every qrels topic, the missing ones scored as an empty ranking."""
    at = {topic: i for i, topic in enumerate(answered)}
    topics = sorted(set(answered) | set(index.topics))
    merged: dict[str, list[Value]] = {name: [] for name in values}
    for topic in topics:
        i = at.get(topic)
        for name, column in values.items():
            if i is not None:
                merged[name].append(column[i])
            elif name == "num_rel":
                merged[name].append(index.stats(topic, options.level).num_rel)
            elif name == "gm_map":
                merged[name].append(math.log(MIN_GEO_MEAN))
            else:
                merged[name].append(0 if name in COUNTS else 0.0)
    return topics, [topic in at for topic in topics], merged


def _summary(
    evaluation: TrecEvaluation, index: QrelsIndex, selection: Selection
) -> dict[str, Value]:
    options = evaluation.options
    count = len(evaluation.topics) if options.version == 10 else sum(evaluation.answered)
    divisor = len(index.topics) if options.complete else count
    missing = divisor - len(evaluation.topics)  # 9.x with -c: topics never evaluated
    summary: dict[str, Value] = {}
    for row in selection.rows():
        name = row.name
        if name == "num_q":
            summary[name] = count
            continue
        column = evaluation.values[name]
        if name in COUNTS:
            summary[name] = int(sum(int(v) for v in column))
            continue
        total = 0.0
        for value in column:
            total += float(value)
        if name == "gm_map":
            total += missing * math.log(MIN_GEO_MEAN)
            summary[name] = math.exp(total / divisor) if divisor else 0.0
        else:
            summary[name] = total / divisor if divisor else 0.0
    return summary
