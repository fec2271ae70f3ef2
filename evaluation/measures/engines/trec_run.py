"""Article evaluation as trec_eval 9.0.x or 10.0 does it: qrels index, ranking, averaging.

One `GradeTable` serves every run: per topic, document -> grade, and what does not depend on
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from evaluation.formats.arrow import binary_array, numeric_array, scalar, to_numpy
from evaluation.formats.records import Judgement, Run
from evaluation.formats.trec import (
    TrecQrels,
    TrecRun,
    duplicate_error,
    pair_keys,
    run_from_pairs,
)
from evaluation.measures.articles.trec_measures import (
    MIN_GEO_MEAN,
    NONPOOL,
    UNJUDGED,
    Floats,
    Ranked,
    topic_values,
)
from evaluation.measures.registry.trec import COUNTS, GEOMETRIC, TEXT, Selection

Number = int | float
Value = int | float | str  # relstring's rows are strings
VERSIONS = (9, 10)


@dataclass(frozen=True)
class TrecOptions:
    """trec_eval's switches: -l, -M, -c, -J, -N, and which version's numbers to reproduce."""

    level: int = 1  # -l: lowest grade that counts as relevant
    max_docs: int | None = None  # -M: documents per topic considered (None: all)
    complete: bool = False  # -c: average over every qrels topic
    version: int = 10  # 10 (default) or 9
    judged_only: bool = False  # -J: drop the retrieved documents without a judgement
    num_docs: int = 0  # -N: documents in the collection (utility's fourth term)

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
    levels: npt.NDArray[np.int64]  # judged documents per grade 0..largest


class GradeTable:
    """Qrels prepared once for many runs: a (topic, document) key -> grade lookup table (negative
    grades stored as UNJUDGED) and each topic's grades, for its counts and ideal DCG."""

    def __init__(self, topic: pa.Array, doc: pa.Array, grade: npt.NDArray[np.int64],
                 file: str = "") -> None:  # fmt: skip
        self.file = file
        self.keys = pair_keys(topic, doc)
        self.raw_grades = grade
        self.key_grades = np.where(grade >= 0, grade, UNJUDGED).astype(np.int64)
        encoded = pc.dictionary_encode(topic)
        codes = to_numpy(encoded.indices)
        names = [t.decode(errors="replace") for t in encoded.dictionary.to_pylist()]
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
        self.judged = {
            name: grade[order[bounds[i] : bounds[i + 1]]] for i, name in enumerate(names)
        }
        self.positive = int(np.count_nonzero(grade > 0))  # `all` num_rel with -c
        self.topics = sorted(self.judged)  # str order = UTF-8 byte order = trec_eval's strcmp
        self._stats: dict[tuple[str, int], _TopicStats] = {}

    def only(self, topic: str) -> GradeTable:
        """The same judgements restricted to one topic (trec_eval's `-D level.qid`)."""
        prefix = topic.encode() + b"\x00"
        pairs = zip(self.keys.to_pylist(), self.raw_grades.tolist(), strict=True)
        documents = {key[len(prefix) :]: g for key, g in pairs if key.startswith(prefix)}
        return GradeTable.from_mapping({topic: documents} if documents else {}, self.file)

    @classmethod
    def from_trec(cls, qrels: TrecQrels) -> GradeTable:
        return cls(qrels.topic, qrels.doc, qrels.grade, qrels.file)

    @classmethod
    def from_mapping(cls, topics: Mapping[str, Mapping[bytes, int]], file: str = "") -> GradeTable:
        """From topic -> {document: grade}."""
        rows = [(t.encode(), d, g) for t, judged in topics.items() for d, g in judged.items()]
        topic = binary_array([r[0] for r in rows])
        doc = binary_array([r[1] for r in rows])
        return cls(topic, doc, np.array([r[2] for r in rows], dtype=np.int64), file)

    @classmethod
    def from_fol(cls, qrels: Mapping[str, Mapping[str, Judgement]], file: str = "") -> GradeTable:
        """FOL qrels: an article with highlighted characters has grade 1, the others 0."""
        grades = {
            topic: {article.encode(): int(j.rel_chars > 0) for article, j in judged.items()}
            for topic, judged in qrels.items()
        }
        return cls.from_mapping(grades, file)

    def grades_of(self, keys: pa.Array) -> npt.NDArray[np.int64] | None:
        """The grade of each of a run's `pair_keys` (NONPOOL where not judged), or None when a
        key occurs twice (trec_eval refuses the run). One hash table, built on the run's keys,
        serves both: the run's own keys probe it (a duplicate finds an earlier row), then the
        qrels keys (each judged pair finds its run row; qrels pairs are distinct). A run is
        smaller than the qrels at 10,000+ queries, so hashing it costs less time and memory
        than hashing the qrels for every run."""
        count = len(keys)
        probe = pa.chunked_array([keys, self.keys], type=keys.type)
        found = pc.index_in(probe, value_set=keys).combine_chunks()
        rows = to_numpy(pc.cast(found, pa.int64()).fill_null(scalar(-1)))
        if not np.array_equal(rows[:count], np.arange(count)):
            return None
        qrels = rows[count:]
        judged = np.flatnonzero(qrels >= 0)
        grades = np.full(count, NONPOOL, dtype=np.int64)
        grades[qrels[judged]] = self.key_grades[judged]
        return grades

    def stats(self, topic: str, level: int) -> _TopicStats:
        key = (topic, level)
        if key not in self._stats:
            grades = self.judged[topic]
            positive = np.sort(grades[grades > 0])[::-1].astype(np.float64)
            ideal = np.cumsum(positive / np.log2(np.arange(2, len(positive) + 2)))
            num_rel = int(np.count_nonzero(grades >= level))
            num_nonrel = int(np.count_nonzero((grades >= 0) & (grades < level)))
            levels = np.bincount(grades[grades >= 0]).astype(np.int64)
            self._stats[key] = _TopicStats(num_rel, num_nonrel, ideal, levels)
        return self._stats[key]


@dataclass
class TrecEvaluation:
    """One run: per-topic rows (printed order) and the `all` rows."""

    run_id: str
    file: str
    options: TrecOptions
    topics: list[str]
    values: dict[str, list[Value]]  # row name -> per-topic values, aligned with `topics`
    summary: dict[str, Number]  # row name -> the `all` value (num_q first)
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
    return run_from_pairs(run.run_id, run.file, topics, list(run.warnings))


def rank_run(
    index: GradeTable, run: TrecRun, options: TrecOptions, ties: str = "descending"
) -> tuple[Ranked, list[str], list[str]]:
    """The run's grades in trec_eval's order: topics by id, then score descending, then document
    id descending (byte order; `ties="ascending"` for trec_eval's preference measures), cut to
    `-M` per topic; with the topics the qrels know, and the run's topics they do not know."""
    columns = [run.topic, numeric_array(run.score), run.doc]
    table = pa.Table.from_arrays(columns, names=["topic", "score", "doc"])
    keys = [("topic", "ascending"), ("score", "descending"), ("doc", ties)]
    order = pc.sort_indices(table, sort_keys=keys)
    topic, doc = run.topic.take(order), run.doc.take(order)
    count = len(topic)
    changes = np.zeros(0, dtype=bool)
    if count:
        changes = to_numpy(pc.not_equal(topic.slice(1), topic.slice(0, count - 1)))
    starts = np.flatnonzero(np.concatenate(([count > 0], changes)))
    names = [topic[i].as_py().decode(errors="replace") for i in starts.tolist()]
    known = np.array([name in index.judged for name in names], dtype=bool)
    sizes = np.diff(np.append(starts, count))
    seg = np.repeat(np.arange(len(starts)), sizes)
    keep = known[seg]
    if options.max_docs is not None:
        keep &= np.arange(count) - starts[seg] < options.max_docs
    kept = np.flatnonzero(keep)
    every = index.grades_of(pair_keys(topic, doc))  # all rows: duplicates beyond -M count too
    if every is None:
        raise duplicate_error(run.file)
    grades = every[kept]
    if options.judged_only:  # after -M, as trec_eval's form_res_rels.c does
        judged = grades >= 0
        kept, grades = kept[judged], grades[judged]
    answered = [name for name, k in zip(names, known.tolist(), strict=True) if k]
    kept_sizes = np.bincount(seg[kept], minlength=len(starts))[known]
    stats = [index.stats(name, options.level) for name in answered]
    ranked = Ranked(
        grades.astype(np.int64),
        (np.cumsum(kept_sizes) - kept_sizes).astype(np.int64),
        np.array([s.num_rel for s in stats], dtype=np.int64),
        np.array([s.num_nonrel for s in stats], dtype=np.int64),
        [s.ideal for s in stats],
        [s.levels for s in stats],
    )
    return ranked, answered, [name for name, k in zip(names, known.tolist(), strict=True) if not k]


def evaluate_trec(
    index: GradeTable,
    run: TrecRun,
    selection: Selection,
    options: TrecOptions,
    adjust: Callable[[TrecEvaluation], None] | None = None,
) -> TrecEvaluation:
    """Evaluate one run: the topics it shares with the qrels (sorted), plus with `-c` in 10.0
    the qrels topics it misses; `all` as the chosen version averages. `adjust` may change the
    per-topic values before they are averaged (trec_eval's -Z z-scores)."""  # fmt: skip
    ranked, answered, unknown = rank_run(index, run, options)
    arrays = topic_values(ranked, selection, options.level, options.version, options.num_docs)
    values: dict[str, list[Value]] = {}
    for name, column in arrays.items():
        values[name] = list(column) if isinstance(column, list) else column.tolist()
    topics, flags = list(answered), [True] * len(answered)
    if options.complete and options.version == 10:
        topics, flags, values = _with_missing(index, topics, values, selection, options)
    evaluation = TrecEvaluation(
        run.run_id, run.file, options, topics, values, {}, flags, unknown, list(run.warnings)
    )
    if adjust is not None:
        adjust(evaluation)
    evaluation.summary = summarise(evaluation, index, selection)
    return evaluation


def _with_missing(
    index: GradeTable, answered: list[str], values: dict[str, list[Value]],
    selection: Selection, options: TrecOptions,
) -> tuple[list[str], list[bool], dict[str, list[Value]]]:  # fmt: skip
    """10.0 with -c: every qrels topic; a missing one is evaluated as trec_eval's stand-in
    ranking (one document outside the pool; none with -J), then the rows `trec_eval.c` resets
    by exact name are reset: num_ret, utility, relstring, rbp_resid (0 or empty) and every
    unj_k. A row named with its parameters (`utility_1,2,3,4`) keeps its stand-in value."""
    missing = [topic for topic in index.topics if topic not in set(answered)]
    stats = [index.stats(topic, options.level) for topic in missing]
    size = 0 if options.judged_only else 1
    stand_in = Ranked(
        np.full(size * len(missing), NONPOOL, dtype=np.int64),
        np.arange(len(missing), dtype=np.int64) * size,
        np.array([s.num_rel for s in stats], dtype=np.int64),
        np.array([s.num_nonrel for s in stats], dtype=np.int64),
        [s.ideal for s in stats],
        [s.levels for s in stats],
    )
    level, version = options.level, options.version
    extra = topic_values(stand_in, selection, level, version, options.num_docs)
    at = {topic: i for i, topic in enumerate(answered)}
    spare = {topic: i for i, topic in enumerate(missing)}
    topics = sorted(set(answered) | set(index.topics))
    merged: dict[str, list[Value]] = {name: [] for name in values}
    for topic in topics:
        i = at.get(topic)
        for name, column in values.items():
            if i is not None:
                merged[name].append(column[i])
            elif name in ("num_ret", "utility", "rbp_resid") or name.startswith("unj"):
                merged[name].append(0 if name in COUNTS else 0.0)
            elif name == "relstring":
                merged[name].append("")
            else:
                value = extra[name][spare[topic]]
                merged[name].append(value if isinstance(value, str) else value.item())
    return topics, [topic in at for topic in topics], merged


def summarise(
    evaluation: TrecEvaluation, index: GradeTable, selection: Selection
) -> dict[str, Number]:
    """The `all` rows: counts summed, the rest averaged over the topics evaluated (over every
    qrels topic with -c), geometric means as exp of the mean log (`meas_avg.c`)."""
    options = evaluation.options
    count = len(evaluation.topics) if options.version == 10 else sum(evaluation.answered)
    divisor = len(index.topics) if options.complete else count
    missing = divisor - len(evaluation.topics)  # 9.x with -c: topics never evaluated
    summary: dict[str, Number] = {}
    for row in selection.rows():
        name = row.name
        if name == "num_q":
            summary[name] = count
            continue
        column = evaluation.values[name]
        if row.family in TEXT:
            continue
        if name == "num_rel" and options.complete:  # every qrels grade above 0, whatever -l
            summary[name] = index.positive
            continue
        if name in COUNTS:  # floats only as z-scores
            summary[name] = sum(column)  # type: ignore[arg-type]
            continue
        total = 0.0
        for value in column:
            total += float(value)
        if name in GEOMETRIC:
            total += missing * math.log(MIN_GEO_MEAN)
            summary[name] = math.exp(total / divisor) if divisor else 0.0
        else:
            summary[name] = total / divisor if divisor else 0.0
    return summary
