"""The reliability studies from Python (spec section 9, docs/reliability.md, docs/python.md):
each is the function `focal reliability SUBCOMMAND` calls, given FOL qrels and at least three
runs as files or in memory, and returns its rows (`focal.reliability.studies`,
`focal.reliability.leave_out`) instead of printing them.

Common keywords: `task` and `measure` (the per-topic row the runs are ranked by; default AiP,
AgP, MAP or MAep by task, as `-m`), `alpha`, the paired `test` and its `correction` (as `focal
compare`), `jobs` (processes for the re-evaluations); for `task="elements"`, `quant` and
`collection` (as `focal eval --task elements`: element qrels, or FOL qrels with the collection
to derive them from). Scores average over every qrels topic, as `focal eval -c` does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypedDict, Unpack

from focal.evaluation.formats.fol.columns import RunColumns
from focal.evaluation.formats.records import Judgement, Run
from focal.evaluation.statistics.swap_rates import SwapRates
from focal.reliability.leave_out import LeaveOut
from focal.reliability.queries import QueryRow
from focal.reliability.scores import ElementScoring
from focal.reliability.studies import DepthRow, SampleRow, Setup

__all__ = [
    "leave_one_group_out", "pool_depths", "pool_sampling", "topic_sampling", "topic_swap_rates",
]  # fmt: skip

Source: TypeAlias = str | os.PathLike[str]
QrelsInput: TypeAlias = Source | Mapping[str, Mapping[str, Judgement]]
RunInput: TypeAlias = Source | Run | RunColumns


class StudyOptions(TypedDict, total=False):
    """The keywords every study shares (the module's docstring says what each means)."""

    task: str
    measure: str | None
    alpha: float
    test: str
    correction: str
    jobs: int
    quant: str
    collection: Source | None


def example() -> tuple[dict[str, dict[str, Judgement]], list[Run]]:
    """Six topics of six articles (a, b and c relevant) and three article runs, good, fair and
    poor: the inputs of the examples below.

    >>> qrels, runs = example()
    >>> [run.run_id for run in runs], [a for a, j in qrels["1"].items() if j.relevant]
    (['good', 'fair', 'poor'], ['a', 'b', 'c'])
    """
    from focal.evaluation.formats.records import Result

    topics = "123456"

    def judged(topic: str, article: str) -> Judgement:
        relevant = article in "abc"
        passages = ((0, 10),) if relevant else ()
        return Judgement(topic, article, 10 * relevant, 100, 0 if relevant else None, passages, 0)

    def run(name: str, *orders: str) -> Run:
        ranked = {
            topic: [Result(topic, a, i, 1.0 / i, 0) for i, a in enumerate(order, 1)]
            for topic, order in zip(topics, orders, strict=True)
        }
        return Run(name, "", "article", ranked)

    qrels = {topic: {article: judged(topic, article) for article in "abcdef"} for topic in topics}
    runs = [
        run("good", "abcdef", "abdcef", "bacdfe", "adbecf", "abcfde", "cbadef"),
        run("fair", "adbecf", "dafbce", "bdcaef", "daebcf", "eafbcd", "abdefc"),
        run("poor", "defabc", "fedcba", "dfeacb", "edfbac", "dfaebc", "fdeabc"),
    ]
    return qrels, runs


def study_setup(
    qrels: QrelsInput, runs: Sequence[RunInput], task: str = "focused",
    measure: str | None = None, alpha: float = 0.05, test: str = "t", correction: str = "none",
    test_seed: int = 0, jobs: int = 1, quant: str = "generalised",
    collection: Source | None = None,
) -> Setup:  # fmt: skip
    """What every study shares: the qrels and runs read as `focal reliability` reads them."""
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.evaluation.measures.providers import read_run_for
    from focal.reliability.scores import measure_row

    row = measure_row(task, measure)
    if task == "elements":
        scoring, articles, element_runs = _element_inputs(qrels, runs, quant, collection)
        _check_runs(element_runs)
        return Setup(articles, element_runs, task, row, alpha, jobs, test, correction, test_seed,
                     scoring)  # fmt: skip
    judged = read_qrels(os.fspath(qrels)) if isinstance(qrels, str | os.PathLike) else qrels
    if not judged:
        where = f"{os.fspath(qrels)}: " if isinstance(qrels, str | os.PathLike) else ""
        raise ValueError(f"{where}no judgements")
    read: list[Run | RunColumns] = [
        read_run_for(task, os.fspath(run)) if isinstance(run, str | os.PathLike) else run
        for run in runs
    ]
    _check_runs(read)
    return Setup(judged, read, task, row, alpha, jobs, test, correction, test_seed)


def _check_runs(read: Sequence[Run | RunColumns]) -> None:
    ids = [run.run_id for run in read]
    if len(set(ids)) != len(ids):
        raise ValueError(f"two runs share a run id among {', '.join(ids)}")
    if len(read) < 3:
        raise ValueError(f"a study ranks runs: give at least three, got {len(read)}")


def _element_inputs(
    qrels: QrelsInput, runs: Sequence[RunInput], quant: str, collection: Source | None
) -> tuple[ElementScoring, Mapping[str, Mapping[str, Judgement]], list[Run]]:
    """Element qrels and runs read as `focal eval --task elements` reads them, and the
    article-level judgements a study reduces: the FOL qrels themselves when the element qrels
    are derived from them, else one judgement per judged article (`article_judgements`)."""
    from focal.evaluation.formats.convert import Collection
    from focal.evaluation.formats.elements.runs import Spans, read_element_run
    from focal.evaluation.formats.fol.qrels import is_fol_qrels, read_qrels
    from focal.evaluation.measures.elements.topic import ElementOptions
    from focal.evaluation.measures.engines.element_topics import check_quantisation
    from focal.evaluation.relevance.element_qrels import load_element_qrels
    from focal.reliability.scores import article_judgements

    if not isinstance(qrels, str | os.PathLike):
        raise ValueError("task elements reads its qrels from a file (element or FOL qrels)")
    path = os.fspath(qrels)
    articles = Collection(os.fspath(collection)) if collection is not None else None
    elements = load_element_qrels(path, articles)
    check_quantisation(elements, quant)
    judged = read_qrels(path) if is_fol_qrels(path) else article_judgements(elements)
    read: list[Run] = []
    spans: dict[str, Spans] = {}
    for run in runs:
        if isinstance(run, str | os.PathLike):
            parsed, run_spans = read_element_run(os.fspath(run), articles)
            spans[parsed.run_id] = run_spans
        elif isinstance(run, Run):
            parsed = run
        else:
            raise ValueError(f"task elements needs element runs, not columns of {run.file}")
        read.append(parsed)
    return ElementScoring(elements, judged, ElementOptions(quant=quant), spans), judged, read


def pool_sampling(
    qrels: QrelsInput, runs: Sequence[RunInput], fractions: Sequence[float] = (0.8, 0.6, 0.4, 0.2),
    repeats: int = 10, seed: int = 0, population: str = "relevant",
    **study: Unpack[StudyOptions],
) -> list[SampleRow]:  # fmt: skip
    """Random samples of each topic's relevant (or, `population="judged"`, judged) articles at
    each fraction, `repeats` times, against the full qrels (seed 004 Tables 1-2;
    `focal reliability sample`).

    >>> qrels, runs = example()
    >>> row = pool_sampling(qrels, runs, [0.5], repeats=2, task="articles")[0]
    >>> row.fraction, row.relevant, row.tau.mean, row.significant_full
    (0.5, 12.0, 1.0, 3)
    """
    from focal.reliability.studies import pool_sampling as study_rows

    setup = study_setup(qrels, runs, test_seed=seed, **study)
    return study_rows(setup, fractions, repeats, seed, population)  # type: ignore[arg-type]


def pool_depths(
    qrels: QrelsInput, runs: Sequence[RunInput], depths: Sequence[int] = (5, 10, 20, 50, 100),
    **study: Unpack[StudyOptions],
) -> list[DepthRow]:  # fmt: skip
    """The qrels restricted to the depth-d pool of the runs, for each depth (seed 004 Tables
    4-5; `focal reliability depth`).

    >>> qrels, runs = example()
    >>> rows = pool_depths(qrels, runs, [1, 3], task="articles")
    >>> [(row.depth, row.judged, row.relevant, row.comparison.tau) for row in rows]
    [(1, 16, 7, 1.0), (3, 34, 16, 1.0)]
    """
    from focal.pooling.api import ranked_runs
    from focal.reliability.judgements import depth_pools
    from focal.reliability.studies import pool_depths as study_rows

    setup = study_setup(qrels, runs, **study)
    return study_rows(setup, depth_pools(ranked_runs(runs), depths))


def topic_swap_rates(
    qrels: QrelsInput, runs: Sequence[RunInput], sizes: Sequence[int] | None = None,
    trials: int = 50, tolerances: Sequence[float] = (0.0, 0.05, 0.1, 0.2, 0.3), seed: int = 0,
    **study: Unpack[StudyOptions],
) -> SwapRates:  # fmt: skip
    """Swap rates of the runs' ranking between disjoint topic subsets of each size (default 5,
    10, ... up to half the topics), per tolerance (fractions), and their exponential fit
    (seed 004 "Error Rates", Voorhees & Buckley 2002; `focal reliability topics`).

    >>> qrels, runs = example()
    >>> rates = topic_swap_rates(qrels, runs, trials=5, tolerances=[0.0], task="articles")
    >>> rates.sizes, rates.comparisons, rates.rate(0, 0)
    ((3,), 15, 0.0)
    """
    import numpy as np

    from focal.evaluation.statistics.swap_rates import swap_rates

    setup = study_setup(qrels, runs, **study)
    full = setup.score(setup.qrels)
    half = len(full.topics) // 2
    if half < 1:
        raise ValueError("topic subsets need at least two topics")
    chosen = list(sizes) if sizes else list(range(min(5, half), half + 1, 5)) or [half]
    if not all(1 <= size <= half for size in chosen):
        raise ValueError(f"a topic subset size is between 1 and {half}")
    return swap_rates(full.values, chosen, trials, tolerances, np.random.default_rng(seed))


def topic_sampling(
    qrels: QrelsInput, runs: Sequence[RunInput], sizes: Sequence[int], trials: int = 10,
    seed: int = 0, **study: Unpack[StudyOptions],
) -> list[QueryRow]:  # fmt: skip
    """The runs ranked on `trials` random sets of each size of topics, against their ranking on
    every topic: τ_b and τ_AP per size (seed 004 "Query Sampling", Fig 3 and Table 6;
    `focal reliability queries`).

    >>> qrels, runs = example()
    >>> row = topic_sampling(qrels, runs, [6, 2], trials=4, task="articles")[0]
    >>> row.size, row.tau.mean, row.tau_ap.mean
    (6, 1.0, 1.0)
    """
    from focal.reliability.queries import query_sampling

    setup = study_setup(qrels, runs, **study)
    return query_sampling(setup.score(setup.qrels), sizes, trials, seed)


def leave_one_group_out(
    qrels: QrelsInput, runs: Sequence[RunInput], groups: Mapping[str, str] | None = None,
    depth: int | None = None, size: int | None = None, method: str = "unique",
    **study: Unpack[StudyOptions],
) -> LeaveOut:  # fmt: skip
    """Each group of runs (`groups`: run id -> group; unlisted runs alone) left out of the
    depth-`depth` or top-`size` pool, its runs scored again on the reduced qrels (seed 004
    Tables 8-10, seed 003 Table V; `focal reliability leave-out`).

    >>> qrels, runs = example()
    >>> study = leave_one_group_out(qrels, runs, depth=1, task="articles")
    >>> [(row.run, row.rank_full, row.rank_left_out) for row in study.runs]
    [('good', 1, 2), ('fair', 2, 2), ('poor', 3, 3)]
    >>> study.judged_full, study.judged_in_qrels
    (16, 36)
    """
    from focal.pooling.api import ranked_runs
    from focal.reliability.leave_out import leave_one_group_out as study_rows

    if (depth is None) == (size is None):
        raise ValueError("give one of depth and size")
    setup = study_setup(qrels, runs, **study)
    return study_rows(setup, ranked_runs(runs), groups or {}, depth, size, method)  # type: ignore[arg-type]
