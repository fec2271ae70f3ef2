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

from collections.abc import Callable

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
from focal.evaluation.measures.trec_eval.engine.summary import Number as Number
from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation as TrecEvaluation
from focal.evaluation.measures.trec_eval.engine.summary import TrecOptions as TrecOptions
from focal.evaluation.measures.trec_eval.engine.summary import Value as Value
from focal.evaluation.measures.trec_eval.engine.summary import reset_when_missing
from focal.evaluation.measures.trec_eval.engine.summary import summarise as summarise
from focal.evaluation.measures.trec_eval.families.declarations import Selection, topic_values
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL, Ranked


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
    reset = reset_when_missing(selection)
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
