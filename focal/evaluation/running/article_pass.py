"""trec_eval's measures on plain files through the whole-file pass, for `focal eval --task
articles` and `focal.evaluate` with paths (docs/python.md, "Memory"; docs/trec_eval.md, "The C
part").

The pass (`trec_eval.engine.plain_pass`, or without the C part the numpy pass that gives its
answers: `numpy_pass.chosen`) evaluates a plain run against plain qrels a block of topics at a
time, so that memory holds one block, not the files. `pass_evaluation` takes a call
only where its answer is the article engine's (`running.articles`: `GradeTable`,
`evaluate_named`) to the bit, and declines (None) everything else, which the engine then
evaluates as before:
- trec_eval's own rows only (no row named with options of its own, `P(rel=2)@5`, `Judged@10`:
  `select`'s rows apart), every one computed in C; no -M;
- plain files, each line a TREC qrels line (4 fields) or a TREC run line (6): what the engine
  reads as TREC files (`running.articles.load_index`, `load_run`), never a FOL or element run,
  whose articles score their best result;
- no duplicate anywhere, as the engine refuses any (a document judged twice in a topic of the
  qrels, or twice in a topic of the run). The pass stops at one only in a topic it evaluates,
  so it is asked to evaluate every qrels topic (10.0's stand-in ranking for a topic the run
  misses: the values of the answered topics do not change, the others are dropped), the run's
  topics the qrels lack are looked through here (`_twice_among`), and a stop, or a 9.x call
  with a qrels topic the run misses (9.x has no stand-in), is declined.
The engine stops at nothing else (a missing topic, a first topic with only negative
judgements: `focal trec_eval`'s stops are trec_eval's control flow, not the engine's).

Counts come back as integers and the `all` rows are the running sums of `summary.Totals` and
`summary.averages`, the same additions in the same order as the engine's `summarise`. With
`per_topic=False` no topic is kept (`Summarised`). Imports no numpy (but for the numpy pass),
pyarrow or click.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    PlainTopic,
    row_tuples,
)
from focal.evaluation.measures.trec_eval.engine.summary import (
    Totals,
    TrecEvaluation,
    TrecOptions,
    Value,
    averages,
    reset_when_missing,
)
from focal.evaluation.measures.trec_eval.families.declarations import BY_NAME, COUNTS, Selection
from focal.evaluation.measures.trec_eval.numpy_pass.chosen import open_pass
from focal.evaluation.measures.trec_eval.selection import NamedSelection

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from focal.evaluation.measures.trec_eval.engine.files import QrelsAhead


@dataclass
class Summarised(TrecEvaluation):
    """An evaluation that kept only its `all` rows (`per_topic=False`): `topics`, `values` and
    `answered` are empty, `answered_topics` counts the topics the run answered."""

    answered_topics: int = 0


def answered_topics(evaluation: TrecEvaluation) -> int:
    """The qrels topics the run answered, whether or not the evaluation kept its topics."""
    if isinstance(evaluation, Summarised):
        return evaluation.answered_topics
    return sum(evaluation.answered)


def on_pass(qrels: str, runs: Sequence[str], selection: Selection, options: TrecOptions,
            per_topic: bool = True) -> list[TrecEvaluation | None]:  # fmt: skip
    """Each run's evaluation through the whole-file pass (`pass_evaluation`), None for each run
    it declines: the caller's engine evaluates those (`completed`, or `focal.evaluate`'s)."""
    return [pass_evaluation(qrels, run, selection, options, per_topic) for run in runs]


def completed(
    qrels: str, runs: Sequence[str], found: Sequence[TrecEvaluation | None],
    measures: Sequence[str], options: TrecOptions, jobs: int = 1,
    ahead: QrelsAhead | None = None,
) -> list[TrecEvaluation]:  # fmt: skip
    """Every run's evaluation: `found` (the whole-file pass's, aligned with `runs`), and the runs
    it lacks (None) evaluated by the article engine on `jobs` workers
    (`running.articles.evaluate_article_files`, which names what is wrong: FormatError or
    ValueError for the first bad file in run order). `ahead`: the qrels' reading begun as
    `focal eval` started (else begun here, while the engine is imported)."""
    declined = [run for run, evaluation in zip(runs, found, strict=True) if evaluation is None]
    if not declined:
        return [evaluation for evaluation in found if evaluation is not None]
    if ahead is None:
        from focal.evaluation.measures.trec_eval.engine.files import start_qrels

        ahead = start_qrels(qrels)
    from focal.evaluation.running.articles import evaluate_article_files

    rest = iter(evaluate_article_files(qrels, declined, measures, options, jobs, ahead)[1])
    return [next(rest) if evaluation is None else evaluation for evaluation in found]


def pass_evaluation(qrels: str, run: str, selection: Selection, options: TrecOptions,
                    per_topic: bool = True) -> TrecEvaluation | None:  # fmt: skip
    """The run at `run` evaluated against the qrels at `qrels` through the whole-file pass, as
    the article engine evaluates it (`evaluate_named` of `load_index` and `load_run`); None when
    the pass does not answer the call or its answer could differ from the engine's (module
    docstring): the caller then takes the engine, which also names what is wrong."""
    if options.max_docs is not None or (isinstance(selection, NamedSelection) and selection.apart):
        return None
    rows = [row for row in selection.rows() if BY_NAME[row.family].compute is not None]
    given = PlainOptions(level=options.level, version=options.version,
                         num_docs=options.num_docs, max_docs=None,
                         judged_only=options.judged_only, complete=True)  # fmt: skip
    opened = open_pass(qrels, run, row_tuples(selection), given)
    if opened is None or (opened.unknown and _twice_among(run, set(opened.unknown))):
        return None
    loop = _Loop(selection, options, [row.name for row in rows], per_topic)
    try:
        for topic in opened:
            if not loop.take(topic):
                return None
    except PlainStop:
        return None
    return loop.evaluation(opened.run_id, run, opened.unknown)


class _Loop:
    """The topics the pass gives, summed (and kept, with `per_topic`) as the engine's
    `evaluate_trec` and `summarise` take them."""

    def __init__(self, selection: Selection, options: TrecOptions, names: list[str],
                 per_topic: bool) -> None:  # fmt: skip
        self.selection, self.options, self.names, self.per_topic = (
            selection, options, names, per_topic,
        )  # fmt: skip
        self.counts = [i for i, name in enumerate(names) if name in COUNTS]
        at = {name: i for i, name in enumerate(names)}
        self.reset = [(at[name], value) for name, value in reset_when_missing(selection).items()
                      if name in at]  # fmt: skip
        self.totals = Totals(selection)
        self.summed_at = [at[name] for name in self.totals.names]
        self.topics: list[str] = []
        self.columns: list[list[Value]] = [[] for _ in names]
        self.answered: list[bool] = []
        self.evaluated = self.answered_count = self.qrels_topics = self.positive = 0

    def take(self, topic: PlainTopic) -> bool:
        """One qrels topic; False when the call must go to the engine (9.x, a topic missed:
        its qrels were not looked through for duplicates)."""
        self.qrels_topics += 1
        self.positive += topic.positive
        if topic.values is None:
            return self.options.version == 10  # (10.0: every topic is evaluated, `given`)
        if not topic.answered and not (self.options.complete and self.options.version == 10):
            return True  # (the stand-in asked for only to look for duplicates)
        values: list[Value] = list(topic.values)
        for i in self.counts:
            values[i] = int(values[i])
        if topic.answered:
            self.answered_count += 1
        else:  # 10.0 with -c: the rows `trec_eval.c` resets on a missing topic
            for i, value in self.reset:
                values[i] = value
        self.evaluated += 1
        self.totals.add([values[i] for i in self.summed_at])
        if self.per_topic:
            self.topics.append(topic.topic)
            self.answered.append(topic.answered)
            for column, value in zip(self.columns, values, strict=True):
                column.append(value)
        return True

    def evaluation(self, run_id: str, file: str, unknown: Sequence[str]) -> TrecEvaluation:
        summary = averages(self.totals, self.selection, self.options, self.evaluated,
                           self.answered_count, self.qrels_topics, self.positive)  # fmt: skip
        if not self.per_topic:
            return Summarised(run_id, file, self.options, [], {}, summary, [], list(unknown),
                              answered_topics=self.answered_count)  # fmt: skip
        values = dict(zip(self.names, self.columns, strict=True))
        return TrecEvaluation(run_id, file, self.options, self.topics, values, summary,
                              self.answered, list(unknown))  # fmt: skip


def _twice_among(path: str, topics: set[str]) -> bool:
    """Whether a document comes twice in one of `topics` of the run at `path` (its topics the
    qrels lack, which the pass does not look at). Memory holds one topic's documents while each
    topic's lines come in one group (as in practice), else every one of `topics`' documents."""
    wanted = {topic.encode() for topic in topics}
    done: set[bytes] = set()
    current, seen = b"", set[bytes]()
    for topic, document in _pairs(path):
        if topic != current:
            if current in wanted:
                done.add(current)
            if topic in done:  # a topic in two groups of lines
                return _twice_anywhere(path, wanted)
            current, seen = topic, set()
        if topic in wanted:
            if document in seen:
                return True
            seen.add(document)
    return False


def _twice_anywhere(path: str, wanted: set[bytes]) -> bool:
    """`_twice_among` for a run whose topics come in several groups of lines."""
    seen: dict[bytes, set[bytes]] = {}
    for topic, document in _pairs(path):
        if topic in wanted:
            documents = seen.setdefault(topic, set())
            if document in documents:
                return True
            documents.add(document)
    return False


def _pairs(path: str) -> Iterator[tuple[bytes, bytes]]:
    """The (topic, document) of each line of a plain run (the pass read it: six fields)."""
    with open(path, "rb") as stream:
        for line in stream:
            fields = line.split()
            yield fields[0], fields[2]
