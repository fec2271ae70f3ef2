"""The engines, what each provides, and the one place where an evaluation's engine is chosen.

As ir_measures' providers each list the measures they support and the first capable one is
used, every engine here declares its tasks, the vocabulary it reads measure names in
(`registry.names`), the declared measures it computes, how it reads a run, and whether it takes
a whole run at once. `choose` returns the capable engines of a call, preferred first:
- focused: the whole-run engine (`engines.focused_run`), which declines the runs it cannot
  answer exactly, then topic by topic (`engines.passage_topics`), which takes those;
- thorough, ric, bic, t2i: topic by topic;
- articles: Focal's article measures topic by topic (`engines.article_topics`) when every name is
  one of Focal's (`names.claims`) and the qrels, layout and switches are Focal's, else
  trec_eval's measures of the whole run (`trec_eval.engine.run`). A name means one measure
  whichever engine serves it: `nDCG@10` is trec_eval's ndcg_cut.10 (gain: the grade) and so goes
  the second way; Focal's nDCG (gain: the relevant fraction) is `nDCG(gain=fraction)@10`, which
  only the first computes (on FOL qrels);
- elements: element measures (`engines.element_topics`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from focal.evaluation.errors import FormatError
from focal.evaluation.measures.records import RunEvaluation, Settings
from focal.evaluation.measures.registry import declarations
from focal.evaluation.measures.registry.names import Vocabulary, claims
from focal.evaluation.measures.trec_eval.families import declarations as trec

if TYPE_CHECKING:  # the engines' own modules are imported when first used (a command's start)
    from focal.evaluation.formats.fol.arrow_table import ParsedFol
    from focal.evaluation.formats.fol.columns import RunColumns
    from focal.evaluation.formats.records import Run
    from focal.evaluation.measures.prepared import PreparedQrels

Reader = Literal["fol_table", "columns", "records", "trec", "elements"]


@dataclass(frozen=True)
class Engine:
    """An evaluator of whole runs and the declared measures it computes."""

    name: str
    tasks: tuple[str, ...]
    vocabulary: Vocabulary | None  # None: the official program's layout, no -m
    provides: frozenset[str]  # declared names (`registry`) it computes
    reads: Reader  # what it evaluates: a FOL table, run columns or records, a TREC run
    whole_run: bool = False  # every topic at once, or topic by topic (`module`)
    # the module whose `evaluate_topic` and `missing_topic` evaluate one topic (topic by topic)
    module: str | None = None


def _declared_names(tasks: Sequence[str]) -> frozenset[str]:
    return frozenset(m.name for m in declarations.MEASURES if set(m.tasks) & set(tasks))


FOCUSED_RUN = Engine(
    "focused_run", ("focused",), None, _declared_names(("focused",)), "fol_table", whole_run=True
)
PASSAGE_TOPICS = Engine(
    "passage_topics", declarations.ALL_PASSAGE_TASKS, None,
    _declared_names(declarations.ALL_PASSAGE_TASKS), "columns",
    module="focal.evaluation.measures.engines.passage_topics",
)  # fmt: skip
ARTICLE_TOPICS = Engine(  # its measures: article_topics.PROVIDES (a test keeps them equal)
    "article_topics", ("articles",), "articles", _declared_names(("articles",)), "records",
    module="focal.evaluation.measures.engines.article_topics",
)  # fmt: skip
TREC_RUN = Engine(
    "trec_run", ("articles",), "trec", frozenset(trec.FAMILIES), "trec", whole_run=True
)
ELEMENT_TOPICS = Engine(
    "element_topics", ("elements",), "elements",
    frozenset(m.name for m in declarations.ELEMENT_MEASURES), "elements",
)  # fmt: skip
ENGINES = (FOCUSED_RUN, PASSAGE_TOPICS, ARTICLE_TOPICS, TREC_RUN, ELEMENT_TOPICS)


@dataclass(frozen=True)
class Call:
    """What an evaluation asks for, as far as choosing its engine goes."""

    task: str
    measures: tuple[str, ...] = ()
    trec_qrels: bool = False  # the qrels are in TREC's format
    trec_switches: bool = False  # --format trec, -l, -M or --trec-version


def choose(call: Call) -> tuple[Engine, ...]:
    """The engines able to serve `call`, preferred first (see the module doc).

    >>> [engine.name for engine in choose(Call("focused"))]
    ['focused_run', 'passage_topics']
    >>> [engine.name for engine in choose(Call("articles", ("map",)))]
    ['trec_run']
    """
    capable = tuple(engine for engine in ENGINES if _capable(engine, call))
    if not capable:
        raise ValueError(f"no engine evaluates task {call.task!r}")
    return capable


def _capable(engine: Engine, call: Call) -> bool:
    if call.task not in engine.tasks:
        return False
    if engine.vocabulary == "articles":  # Focal's own: FOL qrels, Focal's names and layout
        focal_names = all(claims(name, "articles") for name in call.measures)
        return focal_names and not (call.trec_qrels or call.trec_switches)
    return True


def topic_engine(task: str) -> Engine:
    """The engine that evaluates `task` topic by topic (and any run the whole-run one declines)."""
    return next(engine for engine in choose(Call(task)) if not engine.whole_run)


def read_run_for(task: str, path: str | Path) -> Run | RunColumns:
    """A run file read as the topic-by-topic engine of `task` takes it: records for article
    measures (scores per result, any kind of run), columns of a FOL run for the others."""
    from focal.evaluation.formats.fol.columns import read_run_columns
    from focal.evaluation.formats.fol.runs import read_run

    return read_run(path) if topic_engine(task).reads == "records" else read_run_columns(path)


def evaluate_run(
    prepared: PreparedQrels, run: Run | RunColumns, settings: Settings
) -> RunEvaluation:
    """`run` evaluated topic by topic: the run's topics found in the qrels, in run order; with
    `complete`, the qrels topics the run misses follow, scored 0."""
    engine = topic_engine(settings.task)
    if engine.module is None:
        raise ValueError(
            "element runs are scored against element qrels: "
            "focal.evaluation.measures.engines.element_topics"
        )
    functions = importlib.import_module(engine.module)
    task = settings.task
    evaluation = RunEvaluation(run.run_id, run.file, settings, [], list(run.warnings))
    if engine.reads == "columns" and run.kind != "fol":
        raise FormatError(run.file, None, f"task {task} needs a FOL run, not an {run.kind} run")
    for topic, results in run.topics.items():
        if topic not in prepared.qrels:
            evaluation.unknown_topics.append(topic)
            continue
        evaluation.topics.append(functions.evaluate_topic(prepared, topic, results, evaluation))
    if settings.complete:
        for topic in prepared.qrels:
            if topic not in run.topics:
                evaluation.topics.append(functions.missing_topic(prepared, topic, settings))
    if task in declarations.CONTEXT_TASKS:
        evaluation.qrels_relevant = prepared.relevant_totals()
    return evaluation


def evaluate_file(
    prepared: PreparedQrels, settings: Settings, path: str, parsed: ParsedFol | None = None
) -> RunEvaluation:
    """A run file through the engines of its task in order: the whole-run focused engine when
    pyarrow's reading of the file (`parsed`, from `fol_ahead`) is a canonical FOL table it
    answers exactly, else topic by topic (on that table's columns when there is one)."""
    from focal.evaluation.formats.fol.arrow_table import checked_fol
    from focal.evaluation.formats.fol.columns import columns_of_table

    run: Run | RunColumns | None = None
    for engine in choose(Call(settings.task, settings.measures)):
        if engine is FOCUSED_RUN:
            table = None if parsed is None else checked_fol(parsed, passages=True)
            if table is None:
                continue
            from focal.evaluation.measures.engines.focused_run import evaluate_table

            evaluation = evaluate_table(prepared, table, path, settings)
            if evaluation is not None:
                return evaluation
            run = columns_of_table(table, path)
        elif not engine.whole_run:
            if run is None:
                run = read_run_for(settings.task, path)
            return evaluate_run(prepared, run, settings)
    raise ValueError(f"task {settings.task} is evaluated file by file by its own command")
