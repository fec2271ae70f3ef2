"""Focal's evaluation from Python: read qrels and runs, evaluate, compare (docs/python.md).

`evaluate` builds `focal eval`'s options (`focal.evaluation.running.options.EvalOptions`, which
refuses what the command refuses, in its words), asks which engine serves the call, as
`focal eval` does, and runs it through `focal.evaluation.running`, as the command does: the
values are those `focal eval -q --format tsv` prints, unrounded. Qrels and runs may be paths or
what the readers return; for task `articles`, also plain `{topic: {doc: grade}}` qrels and
`{topic: {doc: score}}` runs as pytrec_eval and ranx take them, which makes the call
trec_eval's (their grades are TREC's, not FOL's). `compare` builds `focal compare`'s options
(`CompareOptions`) the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Judgement, Result, Run
from focal.evaluation.formats.trec import TrecQrels, TrecRun
from focal.evaluation.measures import providers
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.records import RunEvaluation, Settings, Value
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation
from focal.evaluation.running.options import CompareOptions, EvalOptions
from focal.evaluation.statistics.significance.effects import Effects
from focal.evaluation.statistics.significance.pairwise import Comparison

__all__ = [
    "Evaluation", "Judgement", "Result", "Run", "compare", "effect_sizes", "evaluate",
    "read_qrels", "read_run",
]  # fmt: skip

Source: TypeAlias = str | os.PathLike[str]
FolQrels: TypeAlias = Mapping[str, Mapping[str, Judgement]]
QrelsInput: TypeAlias = (
    Source | FolQrels | PreparedQrels | TrecQrels | Mapping[str, Mapping[str, int]]
)
RunInput: TypeAlias = Source | Run | RunColumns | TrecRun | Mapping[str, Mapping[str, float]]
_ONE_RUN = (str, os.PathLike, Run, RunColumns, TrecRun, Mapping)


def read_qrels(path: Source) -> FolQrels | TrecQrels:
    """Qrels as `focal eval` reads them: TREC qrels (lines of at most four fields) as
    `TrecQrels`, FOL qrels as topic -> article -> `Judgement`. Element qrels need a collection
    and are read by `evaluate(..., task="elements")` itself.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "q.qrels").write_text("1 Q0 a 10 100 0 0:10\\n", encoding="utf-8")
    21
    >>> read_qrels(folder / "q.qrels")["1"]["a"].rel_chars
    10
    >>> (folder / "t.qrels").write_text("1 0 a 2\\n", encoding="utf-8")
    8
    >>> read_qrels(folder / "t.qrels").grade.tolist()
    [2]
    """
    from focal.evaluation.formats.fol.qrels import read_qrels as read_fol_qrels
    from focal.evaluation.formats.trec import read_trec_qrels
    from focal.evaluation.running.articles import is_trec_qrels

    name = os.fspath(path)
    return read_trec_qrels(name) if is_trec_qrels(name) else read_fol_qrels(name)


def read_run(path: Source, task: str = "focused") -> Run | RunColumns:
    """A run file (FOL, TREC, element or article run) read as the topic-by-topic engine of
    `task` takes it (`providers.read_run_for`): records for `articles`, the columns of a FOL run
    for the passage tasks.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = path.write_text("1 Q0 a 1 2.0 r 0 20\\n", encoding="utf-8")
    >>> run = read_run(path, task="articles")
    >>> run.run_id, [result.article for result in run.topics["1"]]
    ('r', ['a'])
    """
    return providers.read_run_for(task, os.fspath(path))


@dataclass(frozen=True)
class Evaluation:
    """Values of several runs: `per_topic` run -> topic -> measure -> value and `aggregate` run
    -> measure -> value (the `all` rows), each in `focal eval`'s order; `evaluations` keeps
    each engine's own record (warnings, unknown topics, curves).

    >>> result = evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, task="articles", measures=["map"])
    >>> result.aggregate, result.runs
    ({'run1': {'map': 1.0}}, ('run1',))
    """

    task: str
    per_topic: dict[str, dict[str, dict[str, Value]]]
    aggregate: dict[str, dict[str, Value]]
    evaluations: tuple[RunEvaluation | TrecEvaluation, ...]

    @property
    def runs(self) -> tuple[str, ...]:
        """The run ids, in the order the runs were given."""
        return tuple(self.aggregate)


def evaluate(
    qrels: QrelsInput,
    runs: RunInput | Sequence[RunInput],
    task: str = "focused",
    measures: Sequence[str] | None = None,
    *,
    complete: bool = False, beta: float = 0.25, n: int = 500, irr: int = 300,
    strict: bool = False, level: int | None = None, max_docs: int | None = None,
    trec_version: int | None = None, quant: str = "generalised", ties: str = "score",
    alpha: float = 1.0, nonrel: str = "indicator", collection: Source | None = None,
    jobs: int = 1, part_weights: str = "size",
) -> Evaluation:  # fmt: skip
    """Evaluate one run or a sequence of runs for `task`, as `focal eval --task TASK` does.

    The keywords are `focal eval`'s switches: `complete` (-c), `beta`, `n`, `irr`, `strict`;
    for `articles` `level` (-l), `max_docs` (-M), `trec_version`; for `elements` `quant`, `ties`,
    `alpha`, `nonrel`, `part_weights` (--parts), `collection`. `measures` are -m's names.
    Plain-dict runs are named run1, run2... by position; two runs with one run id are refused
    (ValueError), and so are the options `focal eval` refuses, in its words (`OptionError`).

    >>> qrels = {"1": {"a": Judgement("1", "a", 10, 100, 0, ((0, 10),), 0)}}
    >>> run = Run("r", "", "fol", {"1": [Result("1", "a", 1, 1.0, 0, start=0, length=20)]})
    >>> result = evaluate(qrels, run, task="focused")
    >>> result.per_topic["r"]["1"]["char_prec"], result.aggregate["r"]["MAiP"]
    (0.5, 0.5)
    >>> evaluate(qrels, run, task="articles", measures=["P@1"]).aggregate["r"]
    {'num_q': 1, 'num_ret': 1, 'num_rel': 1, 'num_rel_ret': 1, 'P@1': 1.0}
    >>> plain = evaluate({"q": {"d1": 1, "d2": 0}}, {"q": {"d1": 0.5, "d2": 0.9}}, "articles",
    ...                  ["map", "P.1"])
    >>> plain.per_topic["run1"]["q"]
    {'map': 0.5, 'P_1': 0.0}
    >>> evaluate(qrels, run, task="focused", quant="gen")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    focal.evaluation.running.checks.OptionError: --quant, ... are for --task elements
    """
    options = EvalOptions(
        task, tuple(measures or ()), complete=complete, beta=beta, n=n, irr=irr, strict=strict,
        level=level, max_docs=max_docs, trec_version=trec_version, quant=quant, ties=ties,
        nonrel=nonrel, alpha=alpha, part_weights=part_weights, collection=collection, jobs=jobs,
    )  # fmt: skip
    return evaluate_with(qrels, runs, options)


def evaluate_with(
    qrels: QrelsInput, runs: RunInput | Sequence[RunInput], options: EvalOptions,
    per_topic: bool = True,
) -> Evaluation:  # fmt: skip
    """`evaluate` with `focal eval`'s options as one value (`focal.compare` and `focal.evaluate`
    build them themselves): checked, then handed to the engine that serves them (OptionError, a
    ValueError, for what `focal eval` refuses). trec_eval's measures on a qrels path and run
    paths go through the C part's whole-file pass where it answers, with the engine's values to
    the bit (`api_engines.evaluate_trec_paths`): with `per_topic=False` it keeps no topic
    (`per_topic` then empty, the `all` rows kept), so that memory holds a block of topics, not
    the files (docs/python.md, "Memory")."""
    options = options.checked()
    given = [runs] if isinstance(runs, _ONE_RUN) else list(runs)
    engine = options.engine(_trec_qrels(qrels))
    records: list[RunEvaluation | TrecEvaluation]
    files = (str, os.PathLike)
    if engine is providers.TREC_RUN and isinstance(qrels, files) \
            and all(isinstance(run, files) for run in given):  # fmt: skip
        from focal.evaluation.api_engines import evaluate_trec_paths

        paths = [os.fspath(run) for run in given]  # type: ignore[arg-type]  # (paths: checked)
        records = list(evaluate_trec_paths(os.fspath(qrels), paths, options, per_topic))
    elif engine is providers.TREC_RUN:
        from focal.evaluation.api_engines import evaluate_trec_runs

        trec = options.trec_options()
        jobs = options.workers()
        records = list(evaluate_trec_runs(qrels, given, options.measures, trec, jobs))
    elif engine is providers.ELEMENT_TOPICS:
        from focal.evaluation.api_engines import evaluate_element_runs

        records = list(evaluate_element_runs(qrels, given, options))
    else:
        settings = options.settings()
        records = list(_evaluate_focal(_prepared(qrels, options.task), given, settings, options))
    return _collected(options.task, records)


def _trec_qrels(qrels: QrelsInput) -> bool:
    """Whether the qrels are TREC's: a TREC qrels file, `TrecQrels`, or plain grades."""
    if isinstance(qrels, str | os.PathLike):
        from focal.evaluation.running.articles import is_trec_qrels

        return is_trec_qrels(os.fspath(qrels))
    if isinstance(qrels, TrecQrels):
        return True
    if isinstance(qrels, PreparedQrels):
        return False
    first = next((judged for judged in qrels.values() if judged), None)
    return first is not None and not isinstance(next(iter(first.values())), Judgement)


def _prepared(qrels: QrelsInput, task: str) -> PreparedQrels:
    if isinstance(qrels, PreparedQrels):
        return qrels
    if isinstance(qrels, str | os.PathLike):
        from focal.evaluation.formats.fol.qrels import read_qrels_columns

        return PreparedQrels(*read_qrels_columns(os.fspath(qrels)))
    if isinstance(qrels, TrecQrels) or _trec_qrels(qrels):
        raise ValueError(f"task {task} needs FOL qrels (Judgement records), not TREC grades")
    return PreparedQrels(qrels)  # type: ignore[arg-type]  # Judgement records (checked above)


def _evaluate_focal(
    prepared: PreparedQrels, runs: Sequence[RunInput], settings: Settings, options: EvalOptions
) -> list[RunEvaluation]:
    """Run files all at once through `focal eval`'s `evaluate_files`; runs in memory topic by
    topic (`providers.evaluate_run`, the engine the whole-run one hands what it declines)."""
    from focal.evaluation.running.focal_engines import evaluate_files

    paths = [os.fspath(run) for run in runs if isinstance(run, str | os.PathLike)]
    jobs = options.workers()
    from_files = iter(evaluate_files(prepared, settings, paths, jobs) if paths else [])
    evaluations = []
    for run in runs:
        if isinstance(run, str | os.PathLike):
            evaluations.append(next(from_files))
        elif isinstance(run, Run | RunColumns):
            evaluations.append(providers.evaluate_run(prepared, run, settings))
        else:
            raise ValueError(f"task {settings.task} takes run files, Run or RunColumns")
    return evaluations


def _collected(task: str, records: Sequence[RunEvaluation | TrecEvaluation]) -> Evaluation:
    """Per-topic and `all` values as `focal eval`'s TSV writers print them."""
    per_topic: dict[str, dict[str, dict[str, Value]]] = {}
    aggregate: dict[str, dict[str, Value]] = {}
    for record in records:
        if record.run_id in aggregate:
            raise ValueError(f"two runs are named {record.run_id} ({record.file})")
        if isinstance(record, TrecEvaluation):
            from focal.evaluation.measures.trec_eval.families.declarations import SUMMARY_ONLY

            rows = [name for name in record.values if name not in SUMMARY_ONLY]
            per_topic[record.run_id] = {
                topic: {
                    name: value
                    for name in rows
                    if not isinstance(value := record.values[name][i], str)  # relstring
                }
                for i, topic in enumerate(record.topics)
            }
            aggregate[record.run_id] = dict(record.summary)
        else:
            from focal.evaluation.measures.records import aggregate as all_rows

            per_topic[record.run_id] = {t.topic: dict(t.values) for t in record.topics}
            aggregate[record.run_id] = all_rows(record)
    return Evaluation(task, per_topic, aggregate, tuple(records))


def compare(
    result: Evaluation,
    measure: str,
    test: str = "t",
    alternative: str = "two-sided",
    correction: str = "none",
    significance: float = 0.05,
    seed: int | None = None,
) -> Comparison:
    """Every pair of `result`'s runs tested on the per-topic values of `measure`, paired on the
    topics every run has (all qrels topics when evaluated with `complete`), as `focal compare`
    (`focal.evaluation.statistics.significance.pairwise`: tests t, wilcoxon, sign, randomisation,
    bootstrap, sakai, tukey; corrections none, bonferroni, holm, bh, by).

    >>> qrels = {"1": {"a": 1, "b": 0}, "2": {"c": 1, "d": 0}, "3": {"e": 1, "f": 0}}
    >>> good = {"1": {"a": 2.0, "b": 1.0}, "2": {"c": 2.0, "d": 1.0}, "3": {"e": 2.0, "f": 1.0}}
    >>> bad = {"1": {"a": 1.0, "b": 2.0}, "2": {"c": 1.0, "d": 2.0}, "3": {"e": 2.0, "f": 1.0}}
    >>> pair = compare(evaluate(qrels, [good, bad], "articles", ["P.1"]), "P_1").pairs[0]
    >>> pair.run_a, pair.run_b, round(pair.mean_a - pair.mean_b, 3), round(pair.p, 3)
    ('run1', 'run2', 0.667, 0.184)
    """
    options = CompareOptions(
        EvalOptions(result.task), measure, test, alternative, correction, significance, seed=seed
    ).checked()
    return compare_values(_topic_values(result, measure), options)


def compare_values(
    values: Mapping[str, Mapping[str, float]], options: CompareOptions
) -> Comparison:
    """run -> topic -> value paired on the topics every run has, and tested as `options` say
    (`compare`, `focal.compare`)."""
    from focal.evaluation.statistics.significance.pairing import pair_by_topic

    return options.tested(pair_by_topic(values))


def _topic_values(result: Evaluation, measure: str) -> dict[str, dict[str, float]]:
    return {
        run: {topic: float(row[measure]) for topic, row in topics.items()}
        for run, topics in result.per_topic.items()
    }


def effect_sizes(
    comparison: Comparison, confidence: float = 0.95, method: str = "t", seed: int | None = None
) -> Effects:
    """How big each difference of `comparison` is, as `focal compare` prints it: each run's mean
    with its interval (`runs`, in the runs' order), each pair's mean difference with its
    interval, d_z, Hedges' g and Sakai's ES_E (`pairs`, aligned with `comparison.pairs`);
    `method` t or bootstrap (`focal.evaluation.statistics.significance.effects`).

    >>> qrels = {"1": {"a": 1, "b": 0}, "2": {"c": 1, "d": 0}, "3": {"e": 1, "f": 0}}
    >>> good = {"1": {"a": 2.0, "b": 1.0}, "2": {"c": 2.0, "d": 1.0}, "3": {"e": 2.0, "f": 1.0}}
    >>> bad = {"1": {"a": 1.0, "b": 2.0}, "2": {"c": 1.0, "d": 2.0}, "3": {"e": 2.0, "f": 1.0}}
    >>> found = effect_sizes(compare(evaluate(qrels, [good, bad], "articles", ["P.1"]), "P_1"))
    >>> pair = found.pairs[0]  # differences 1, 1, 0: mean 2/3, s_d 1/√3, d_z 2/√3
    >>> round(pair.diff.estimate, 3), round(pair.d_z, 4)
    (0.667, 1.1547)
    """
    from focal.evaluation.statistics.significance.effects import effect_sizes as sizes

    return sizes(comparison, confidence, method, seed=seed)
