"""Article evaluation as trec_eval 9.0.x or 10.0 does it: qrels index, ranking, averaging.

One `GradeTable` serves every run: per topic, document -> grade, and what does not depend on
the run (relevant and judged non-relevant counts at the relevance level, the ideal DCG). A run
is ranked as trec_eval ranks it (score descending, then document id descending: the rank column
plays no part), cut to `-M` documents per topic, and all its topics go through
`families.declarations.topic_values` at once.

The two versions differ in three places (trec_eval 10.0 changelog; see docs/trec_eval.md):
- 9.x holds run scores as C `float`: scores equal in single precision tie (document id order);
- `iprec_at_recall` and `11pt_avg` cut-offs: `(long)(p·R + 0.9)` in 9.x, `lround(p·R)` in 10.0.
- `-c`: 9.x evaluates the topics the run answers and divides by the number of qrels topics;
  10.0 also evaluates each missing qrels topic as an empty ranking, so `-c -q` prints its rows
  (num_ret 0, its num_rel, every measure 0), and the `all` rows num_q and num_rel count it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from focal.evaluation.formats.records import Run
from focal.evaluation.formats.trec import (
    TrecRun,
    duplicate_error,
    run_from_pairs,
)
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
from focal.evaluation.measures.trec_eval.engine.order import reordering
from focal.evaluation.measures.trec_eval.families.declarations import (
    COUNTS,
    GEOMETRIC,
    RESET_WHEN_MISSING,
    TEXT,
    Selection,
    topic_values,
)
from focal.evaluation.measures.trec_eval.families.measure import MIN_GEO_MEAN, NONPOOL, Ranked

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
        if self.max_docs is not None and self.max_docs < 0:  # (10.0 crashes on one)
            raise ValueError("-M must be at least 0 (documents per topic)")
        if self.level < 0:  # (10.0 mixes two readings then: docs/trec_eval.md)
            raise ValueError("-l must be at least 0 (the lowest relevant grade)")


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
    index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, ties: str = "descending"
) -> tuple[Ranked, list[str], list[str]]:
    """The run's grades in trec_eval's order: topics by id, then score descending, then document
    id descending (byte order; `ties="ascending"` for trec_eval's preference measures), cut to
    `-M` per topic; with the topics the qrels know, and the run's topics they do not know."""
    ranked, answered, unknown = _rank(index, run, options, ties, True)
    return ranked, [index.topics[c] for c in answered.tolist()], unknown


def _rank(index: GradeTable, run: TrecRun | PreparedRun, options: TrecOptions, ties: str,
          topic_order: bool) -> tuple[Ranked, npt.NDArray[np.int64], list[str]]:  # fmt: skip
    """`rank_run`, with the topics' codes; `topic_order=False`: the topics in the order the file
    gives them when each comes in one block (no row moves but tied ones: a run of topics 1, 2,
    ..., 10 is not in byte order, and putting a million rows in it costs more than putting the
    topics' values in it afterwards, `evaluate_trec`)."""
    prepared = index.prepare(run)
    every = index.grades_of(prepared.codes, prepared.docs)  # beyond -M too
    if every is None:
        raise duplicate_error(prepared.file)
    score = prepared.score
    if options.version == 9:  # 9.0.x holds scores as C floats: ties at single precision
        score = score.astype(np.float32).astype(np.float64)
    moves = reordering(prepared.codes, score, prepared.docs, ties, topic_order)
    codes, unknown = prepared.codes, prepared.unknown
    if moves is not None:  # (None: the file's order is trec_eval's, nothing moves)
        every = moves.apply(every)  # (`every` is this call's own array)
        codes = codes if moves.rows is not None else moves.apply(codes)  # (ties: same topic)
    count, known_count = len(codes), len(index.topics)
    starts = np.flatnonzero(np.concatenate(([count > 0], codes[1:] != codes[:-1])))
    block_codes = codes[starts]
    sizes = np.diff(np.append(starts, count))
    known = block_codes < known_count
    if options.max_docs is not None:  # (beyond 64 bits: every document, as a huge -M)
        sizes = np.minimum(sizes, min(options.max_docs, np.iinfo(np.int64).max))
    if np.all(known) and options.max_docs is None:  # every row kept
        grades = every
    else:
        grades = every[np.repeat(starts[known], sizes[known]) + _steps(sizes[known])]
    kept_sizes = sizes[known]
    if options.judged_only:  # after -M, as trec_eval's form_res_rels.c does
        judged = grades >= 0
        grades = grades[judged]
        segment = np.repeat(np.arange(len(kept_sizes)), kept_sizes)
        kept_sizes = np.bincount(segment[judged], minlength=len(kept_sizes))
    answered = block_codes[known]
    return _ranked(index, answered, grades, kept_sizes, options.level), answered, unknown


def _steps(sizes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """0, 1, ..., size - 1 for each size, concatenated."""
    total = int(sizes.sum())
    firsts = np.cumsum(sizes) - sizes
    return np.arange(total, dtype=np.int64) - np.repeat(firsts, sizes)


def _ranked(index: GradeTable, codes: npt.NDArray[np.int64], grades: npt.NDArray[np.int64],
            sizes: npt.NDArray[np.int64], level: int) -> Ranked:  # fmt: skip
    """`Ranked` for the topics `codes`, their grades concatenated in ranked order."""
    relevant, below = index.counts(level)
    chosen = codes.tolist()
    return Ranked(
        grades.astype(np.int64, copy=False),
        (np.cumsum(sizes) - sizes).astype(np.int64),
        relevant[codes],
        below[codes],
        index.ideal.of(codes),
        [index.levels[c] for c in chosen],
    )


def evaluate_trec(
    index: GradeTable,
    run: TrecRun | PreparedRun,
    selection: Selection,
    options: TrecOptions,
    adjust: Callable[[TrecEvaluation], None] | None = None,
) -> TrecEvaluation:
    """Evaluate one run: the topics it shares with the qrels (sorted), plus with `-c` in 10.0
    the qrels topics it misses; `all` as the chosen version averages. `adjust` may change the
    per-topic values before they are averaged (trec_eval's -Z z-scores)."""  # fmt: skip
    ranked, codes, unknown = _rank(index, run, options, "descending", False)
    arrays = topic_values(ranked, selection, options.level, options.version, options.num_docs)
    order = np.argsort(codes, kind="stable")  # the topics in trec_eval's order
    values: dict[str, list[Value]] = {}
    for name, column in arrays.items():
        if isinstance(column, list):
            values[name] = [column[i] for i in order.tolist()]
        else:
            values[name] = column[order].tolist()
    answered = [index.topics[c] for c in codes[order].tolist()]
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
    by exact name are reset (0 or empty): the families declared `reset_when_missing` (num_ret,
    utility, relstring, rbp_resid, unj), their own row or each cut-off's. A row named with its
    parameters (`utility_1,2,3,4`) keeps its stand-in value."""
    missing = [topic for topic in index.topics if topic not in set(answered)]
    codes = np.array([index.topics.index(t) for t in missing], dtype=np.int64)
    size = 0 if options.judged_only else 1
    stand_in = _ranked(index, codes, np.full(size * len(missing), NONPOOL, dtype=np.int64),
                       np.full(len(missing), size, dtype=np.int64), options.level)  # fmt: skip
    level, version = options.level, options.version
    extra = topic_values(stand_in, selection, level, version, options.num_docs)
    at = {topic: i for i, topic in enumerate(answered)}
    spare = {topic: i for i, topic in enumerate(missing)}
    topics = sorted(set(answered) | set(index.topics))
    reset = _reset_when_missing(selection)
    merged: dict[str, list[Value]] = {name: [] for name in values}
    for topic in topics:
        i = at.get(topic)
        for name, column in values.items():
            if i is not None:
                merged[name].append(column[i])
            elif name in reset:
                merged[name].append(reset[name])
            else:
                value = extra[name][spare[topic]]
                merged[name].append(value if isinstance(value, str) else value.item())
    return topics, [topic in at for topic in topics], merged


def _reset_when_missing(selection: Selection) -> dict[str, Value]:
    """The rows 10.0 resets on a topic the run misses, and their value (0 or empty): the
    families declared `reset_when_missing`, by their own row or each cut-off's row."""
    reset: dict[str, Value] = {}
    for row in selection.rows():
        own_row = row.name == row.family or row.parameter is not None  # not `utility_1,2,3,4`
        if row.family in RESET_WHEN_MISSING and own_row:
            reset[row.name] = "" if row.family in TEXT else 0 if row.family in COUNTS else 0.0
    return reset


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
        if name == "num_q":  # (9.x with -c: every qrels topic, `m_num_q.c`)
            summary[name] = divisor if options.version == 9 else count
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
