"""`focal`'s functions: evaluate, compare, read, pool, over `focal.evaluation.api`,
`focal.pooling.api` and `focal.reliability.api`, taking DataFrames, dicts and paths and giving
DataFrames back."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Unpack

from focal import frames, inputs
from focal.inputs import (
    CompareOptions,
    EvaluateOptions,
    MeasureName,
    MeasuresInput,
    PoolOptions,
    PoolRunsInput,
    QrelsInput,
    RunsInput,
)

if TYPE_CHECKING:
    import pandas

    from focal.evaluation.api import Evaluation

CHOSEN_TASKS = ("articles", "elements")  # the tasks whose engines compute the measures asked for
DEFAULT_MEASURES = {"articles": "AP", "focused": "AiP", "thorough": "AiP", "ric": "AgP",
                    "bic": "AgP", "t2i": "AgP"}  # fmt: skip


def evaluate(
    qrels: QrelsInput, runs: RunsInput, measures: MeasuresInput = None, *,
    task: str = "articles", per_topic: bool = False, complete: bool = False,
    **options: Unpack[EvaluateOptions],
) -> pandas.DataFrame:  # fmt: skip
    """Evaluate runs against qrels: a tidy DataFrame `run, measure, topic, value`.

    `qrels` and `runs` as `focal.inputs` describes (paths, DataFrames in ir_measures' columns,
    dicts of dicts, Focal's records); `measures` in any vocabulary (`AP`, `map`, `nDCG@10`,
    `P(rel=2)@5`, `Judged@10`; docs/measures.md's table) or ir_measures' objects. `task`:
    `articles` (default: document measures, as trec_eval and ir_measures) or one of Focal's
    passage and element tasks with files (`focused`, `thorough`, `ric`, `bic`, `t2i`,
    `elements`; their measures are rows of the official layout: `MAiP`, `iP[0.01]`, `AiP`
    per topic). Rows are the `all` values (trec_eval's measures on plain TREC files: a block of
    topics in memory, not the files; docs/python.md, "Memory"), or with `per_topic` one per
    topic. A mean is over
    the qrels topics the run answered, as `focal eval`, `focal compare`, trec_eval and the
    official INEX program average (`complete=True`: every qrels topic, one the run did not
    answer scoring 0, as `-c`; docs/measures.md, "Which topics a mean is over"). Other keywords
    are `focal eval`'s
    switches (`focal.evaluation.api.evaluate`). `focal.wide` turns the frame into runs × measures.

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"],
    ...                       "relevance": [1, 0, 2]})
    >>> run = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["b", "a", "c"],
    ...                     "score": [2.0, 1.0, 1.0]})
    >>> evaluate(qrels, {"bm25": run}, ["AP", "P(rel=2)@1"])
        run     measure topic  value
    0  bm25          AP   all   0.75
    1  bm25  P(rel=2)@1   all   0.50
    """
    from focal.evaluation.api import evaluate_with
    from focal.evaluation.running.options import EvalOptions

    names = inputs.measure_names(measures)
    given = inputs.runs_input(runs)
    chosen = tuple(names) if task in CHOSEN_TASKS else ()  # the others: every row
    asked = EvalOptions(task, chosen, complete=complete, **options)
    # (per_topic=False: trec_eval's measures on plain files keep a block of topics in memory)
    result = evaluate_with(inputs.qrels_input(qrels), given, asked, per_topic)
    return frames.tidy(_named(result, inputs.run_names(runs)), names, per_topic)


def _named(result: Evaluation, given: list[str] | None) -> Evaluation:
    """The runs named as the caller named them (`{"MYNAME": path}`), not by their files' run
    ids; by position, as the engines keep the order of the runs."""
    if given is None or len(given) != len(result.runs) or list(result.runs) == given:
        return result
    renamed = dict(zip(result.runs, given, strict=True))
    return replace(
        result, per_topic={renamed[r]: v for r, v in result.per_topic.items()},
        aggregate={renamed[r]: v for r, v in result.aggregate.items()},
    )  # fmt: skip


def compare(
    qrels: QrelsInput, runs: RunsInput, measure: MeasureName | None = None, *,
    task: str = "articles", test: str = "t", correction: str = "none", alpha: float = 0.05,
    complete: bool = False, seed: int | None = None, **options: Unpack[CompareOptions],
) -> pandas.DataFrame:  # fmt: skip
    """Every pair of runs tested on one measure's per-topic values: a DataFrame with one row per
    pair (`run_a, run_b, mean_a, mean_b, statistic, p, p_adjusted, significant`), runs in the
    order given; `measure` by default the task's ranking measure (AP, AiP, AgP). The pairs are
    over the topics every run answered, so that a run that answered every topic has the mean
    `evaluate` gives (`complete=True`: every qrels topic, a topic a run did not answer scoring
    0, as `-c`). Tests and corrections as `focal compare` (spec section 8); the options
    `focal compare` and `focal eval` refuse are refused in their words (`OptionError`, a
    ValueError).

    >>> qrels = {t: {"rel": 1, "non": 0} for t in ("1", "2", "3", "4")}
    >>> good = {t: {"rel": 2.0, "non": 1.0} for t in ("1", "2", "3")}
    >>> bad = {"1": {"rel": 1.0, "non": 2.0}, "2": {"rel": 2.0, "non": 1.0}}
    >>> pairs = compare(qrels, {"good": good, "bad": bad}, "P@1")
    >>> pairs[["run_a", "run_b", "mean_a", "mean_b"]].to_dict("records")
    [{'run_a': 'good', 'run_b': 'bad', 'mean_a': 1.0, 'mean_b': 0.5}]
    >>> compare(qrels, {"good": good, "bad": bad}, "P@1", complete=True)["mean_b"].item()
    0.25
    """
    import pandas as pd

    from focal.evaluation.api import compare_values, evaluate_with
    from focal.evaluation.running import options as chosen

    name = inputs.measure_names(measure)[0] if measure is not None else DEFAULT_MEASURES[task]
    evaluation = chosen.EvalOptions(
        task, (name,) if task in CHOSEN_TASKS else (), complete=complete, **options
    )
    asked = chosen.CompareOptions(
        evaluation, name, test, correction=correction, alpha=alpha, seed=seed, complete=complete,
    ).checked()  # fmt: skip
    result = evaluate_with(inputs.qrels_input(qrels), inputs.runs_input(runs), evaluation)
    per_topic = frames.tidy(result, [name], per_topic=True)
    values = {
        run: dict(zip(part["topic"], part["value"].astype(float), strict=True))
        for run, part in per_topic.groupby("run", sort=False)
    }
    comparison = compare_values(values, asked)
    columns = ["run_a", "run_b", "mean_a", "mean_b", "statistic", "p", "p_adjusted", "significant"]
    rows = [[getattr(pair, column) for column in columns] for pair in comparison.pairs]
    return pd.DataFrame(rows, columns=columns)


def read_qrels(path: str | os.PathLike[str]) -> pandas.DataFrame:
    """A qrels file as a DataFrame (`frames.qrels_frame`: `query_id, doc_id, relevance`).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.qrels"
    >>> _ = path.write_text("1 0 a 2\\n1 0 b 0\\n", encoding="utf-8")
    >>> read_qrels(path)["relevance"].tolist()
    [2, 0]
    """
    return frames.qrels_frame(path)


def read_run(path: str | os.PathLike[str]) -> pandas.DataFrame:
    """A run file as a DataFrame (`frames.run_frame`: `run_id, query_id, doc_id, rank, score`).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.trec"
    >>> _ = path.write_text("1 Q0 a 1 2.5 bm25\\n", encoding="utf-8")
    >>> read_run(path)[["query_id", "doc_id", "score"]].to_dict("records")
    [{'query_id': '1', 'doc_id': 'a', 'score': 2.5}]
    """
    return frames.run_frame(path)


def pool(
    runs: PoolRunsInput, method: str = "topn", *, size: int = 500, **options: Unpack[PoolOptions]
) -> pandas.DataFrame:
    """The pool of run files or Focal's runs (`focal.pooling.api.build_pool`: `topn`, `depth`,
    `borda`, `rrf`) as a DataFrame in pool order: `query_id, doc_id`, the pooling round that
    took the article, its best rank in any run, and the runs that retrieved it.

    >>> from focal.evaluation.formats.records import Result, Run
    >>> run = Run("A", "", "article", {"1": [Result("1", "x", 1, 2.0, 0),
    ...                                      Result("1", "y", 2, 1.0, 0)]})
    >>> pool([run], "depth", depth=1).to_dict("records")
    [{'query_id': '1', 'doc_id': 'x', 'first_round': 1, 'best_rank': 1, 'runs': 'A'}]
    """
    import pandas as pd

    from focal.pooling.api import build_pool

    built = build_pool(runs if isinstance(runs, list) else [runs], method, size=size, **options)
    rows = [
        (e.topic, e.article, e.first_round, e.best_rank, " ".join(e.contributing_runs))
        for e in built.articles()
    ]
    columns = ["query_id", "doc_id", "first_round", "best_rank", "runs"]
    return pd.DataFrame(rows, columns=columns)
