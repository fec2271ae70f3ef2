"""What `focal`'s functions accept, turned into what `focal.evaluation.api` takes.

Qrels: a path (FOL or TREC), a pandas DataFrame in ir_measures' columns (`query_id`, `doc_id`,
`relevance`), a dict of dicts as pytrec_eval takes it (`{query: {doc: grade}}`), or Focal's
records. Runs: the same shapes with `score` instead of `relevance` (a DataFrame may hold several
runs in a `run_id` or `run` column); several runs as a list, or as a dict naming each one.
Measures: strings in any vocabulary (`registry.vocabulary`) or ir_measures' measure objects,
whose `str()` is their name (`nDCG@10`, `P(rel=2)@5`).

The type aliases below name these shapes in the signatures of `focal.evaluate` and the others
(`help(focal.evaluate)` shows them); `EvaluateOptions`, `CompareOptions` and `PoolOptions` are
the keywords passed on to `focal.evaluation.api.evaluate` and `focal.pooling.api.build_pool`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from focal.evaluation.formats.records import Judgement, Run
from focal.evaluation.formats.trec import TrecRun, run_from_pairs

if TYPE_CHECKING:
    import pandas
    from ir_measures import Measure

    from focal.evaluation.formats.fol.columns import RunColumns
    from focal.evaluation.formats.trec import TrecQrels
    from focal.pooling.records import RankedRun

Source: TypeAlias = "str | os.PathLike[str]"
QrelsInput: TypeAlias = (
    "Source | pandas.DataFrame | Mapping[str, Mapping[str, int]]"
    " | Mapping[str, Mapping[str, Judgement]] | TrecQrels"
)
RunInput: TypeAlias = (
    "Source | pandas.DataFrame | Mapping[str, Mapping[str, float]] | Run | RunColumns | TrecRun"
)
RunsInput: TypeAlias = "RunInput | Sequence[RunInput] | Mapping[str, RunInput]"
MeasureName: TypeAlias = "str | Measure"
MeasuresInput: TypeAlias = "MeasureName | Iterable[MeasureName] | None"
PoolRunsInput: TypeAlias = (
    "Source | Run | RunColumns | RankedRun | list[Source | Run | RunColumns | RankedRun]"
)


class CompareOptions(TypedDict, total=False):
    """`focal eval`'s other switches, as `focal.evaluation.api.evaluate` takes them, but for
    `alpha`: `focal.compare`'s `alpha` is the significance level."""

    beta: float
    n: int
    irr: int
    strict: bool
    level: int | None
    max_docs: int | None
    trec_version: int | None
    quant: str
    ties: str
    nonrel: str
    collection: str | os.PathLike[str] | None
    jobs: int
    part_weights: str


class EvaluateOptions(CompareOptions, total=False):
    """`focal eval`'s other switches, as `focal.evaluation.api.evaluate` takes them."""

    alpha: float


class PoolOptions(TypedDict, total=False):
    """`focal pool build`'s other options, as `focal.pooling.api.build_pool` takes them."""

    depth: int | None
    fused: int | None
    rrf_k: int


QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")
_RUN_NAME_COLUMNS = ("run_id", "run")


def is_frame(value: Any) -> bool:
    """Whether `value` is a pandas DataFrame (without importing pandas when it is not loaded).

    >>> is_frame({"q": {"d": 1}})
    False
    """
    frame_type = getattr(__import__("sys").modules.get("pandas"), "DataFrame", None)
    return frame_type is not None and isinstance(value, frame_type)


def _columns(frame: Any, wanted: Sequence[str], what: str) -> None:
    missing = [column for column in wanted if column not in frame.columns]
    if missing:
        have = ", ".join(map(str, frame.columns))
        raise ValueError(f"{what} DataFrame needs columns {', '.join(wanted)}; it has {have}")


def qrels_input(qrels: Any) -> Any:
    """Qrels as `focal.evaluation.api.evaluate` takes them: a DataFrame becomes `{query: {doc:
    grade}}`.

    >>> import pandas as pd
    >>> qrels_input(pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
    ...                           "relevance": [2, 0]}))
    {'1': {'a': 2, 'b': 0}}
    """
    if not is_frame(qrels):
        return qrels
    _columns(qrels, QRELS_COLUMNS, "a qrels")
    grades: dict[str, dict[str, int]] = {}
    rows = zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"], strict=True)
    for query, doc, grade in rows:
        grades.setdefault(str(query), {})[str(doc)] = int(grade)
    return grades


def runs_input(runs: Any) -> list[Any]:
    """One run, a list of runs or a dict of named runs, as a list `focal.evaluation.api` takes:
    DataFrames and dicts of dicts become `TrecRun`s named by their `run_id` column, their key
    in a dict of runs, or `run1`, `run2`... by position.

    >>> [run.run_id for run in runs_input({"bm25": {"q": {"d": 1.0}}, "dense": {"q": {"d": 2.0}}})]
    ['bm25', 'dense']
    >>> runs_input({"q": {"d": 1.0}})[0].run_id
    'run1'
    """
    if _is_named_runs(runs):
        return [_run(run, str(name)) for name, run in runs.items()]
    if _is_one_run(runs):
        return _frame_runs(runs, "run1") if is_frame(runs) else [_run(runs, "run1")]
    named: list[Any] = []
    for position, run in enumerate(runs, 1):
        if is_frame(run):
            named.extend(_frame_runs(run, f"run{position}"))
        else:
            named.append(_run(run, f"run{position}"))
    return named


def run_names(runs: Any) -> list[str] | None:
    """The names a caller gave its runs (the keys of a dict of named runs), else None.

    >>> run_names({"bm25": "run.txt"}), run_names({"q": {"d": 1.0}})
    (['bm25'], None)
    """
    return [str(name) for name in runs] if _is_named_runs(runs) else None


def _is_one_run(value: Any) -> bool:
    one = (str, os.PathLike, Run, TrecRun)
    return isinstance(value, one) or is_frame(value) or _is_scores(value)


def _is_scores(value: Any) -> bool:
    """A dict of dicts of numbers: one run as pytrec_eval takes it."""
    if not isinstance(value, Mapping):
        return False
    first = next((ranked for ranked in value.values()), None)
    return first is None or (isinstance(first, Mapping) and not _nested(first))


def _nested(mapping: Mapping[Any, Any]) -> bool:
    return any(isinstance(value, Mapping) for value in mapping.values())


def _is_named_runs(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value) and not _is_scores(value)


def _run(run: Any, name: str) -> Any:
    """Paths and Focal's records pass as they are; scores become a `TrecRun` named `name`."""
    if is_frame(run):  # named by its key in a dict of runs, whatever its run_id column says
        runs = _frame_runs(run, name)
        if len(runs) != 1:
            raise ValueError(f"run {name}: one DataFrame holds {len(runs)} runs")
        return _scored(name, zip(run["query_id"], run["doc_id"], run["score"], strict=True))
    if isinstance(run, Mapping):
        return _scored(name, ((q, d, s) for q, ranked in run.items() for d, s in ranked.items()))
    return run


def _frame_runs(frame: Any, name: str) -> list[TrecRun]:
    """The runs of a DataFrame: one per value of its `run_id` (or `run`) column, else one."""
    _columns(frame, RUN_COLUMNS, "a run")
    column = next((c for c in _RUN_NAME_COLUMNS if c in frame.columns), None)
    if column is None:
        return [_scored(name, zip(frame["query_id"], frame["doc_id"], frame["score"], strict=True))]
    return [
        _scored(str(run_id), zip(part["query_id"], part["doc_id"], part["score"], strict=True))
        for run_id, part in frame.groupby(column, sort=False)
    ]


def _scored(name: str, rows: Iterable[tuple[Any, Any, Any]]) -> TrecRun:
    """A TREC run from (query, doc, score) rows; a document listed twice keeps its best score
    (as a passage run reduced to articles, `trec_run.run_from_records`)."""
    topics: dict[str, dict[bytes, float]] = {}
    for query, doc, score in rows:
        ranked = topics.setdefault(str(query), {})
        key, value = str(doc).encode(), float(score)
        if key not in ranked or value > ranked[key]:
            ranked[key] = value
    return run_from_pairs(name, "", topics, [])


def measure_names(measures: Any) -> tuple[str, ...]:
    """Measure names from strings or ir_measures' measure objects (their `str()`).

    >>> measure_names(["AP", "nDCG@10"]), measure_names("P@5")
    (('AP', 'nDCG@10'), ('P@5',))
    """
    if measures is None:
        return ()
    if isinstance(measures, str) or not isinstance(measures, Iterable):
        measures = [measures]
    return tuple(str(measure) for measure in measures)


def fol_records(qrels: Any) -> bool:
    """Whether qrels are Focal's FOL records (topic -> article -> `Judgement`)."""
    if not isinstance(qrels, Mapping):
        return False
    first = next((judged for judged in qrels.values() if judged), None)
    return isinstance(first, Mapping) and isinstance(next(iter(first.values())), Judgement)
