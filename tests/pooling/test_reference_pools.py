"""Pools against a slow, obviously-correct reference, on synthetic runs and the real INEX 2010 runs.

The reference is written from the definitions (spec section 6), not from the incremental loops of
`focal.pooling.strategies`: the top-n pool after k rounds is *the set of articles of every result
ranked k or better*, and the pool is that set for the smallest k that reaches the size.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.pooling.cli.commands import pool as pool_command
from focal.pooling.records import Pool, RankedRun
from focal.pooling.strategies import depth_k_pool, fusion_pool, top_n_pool

PlainRuns = list[tuple[str, dict[str, list[str]]]]
Row = tuple[str, int, int, tuple[str, ...]]  # article, first_round, best_rank, runs
Reference = dict[str, tuple[list[Row], dict[str, int]]]  # topic -> (rows in pool order, depths)


def topic_sort_key(topic: str) -> tuple[int, int, str]:
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)


def topic_lists(runs: PlainRuns, topic: str) -> list[tuple[int, str, list[str]]]:
    return [
        (i, run_id, topics[topic]) for i, (run_id, topics) in enumerate(runs) if topics.get(topic)
    ]


def all_topics(runs: PlainRuns) -> list[str]:
    return sorted(
        {t for _, topics in runs for t, arts in topics.items() if arts}, key=topic_sort_key
    )


def within(lists: list[tuple[int, str, list[str]]], k: int) -> set[str]:
    return {article for _, _, arts in lists for article in arts[:k]}


def top_n_rows(
    lists: list[tuple[int, str, list[str]]], k: int, already: Sequence[str] = ()
) -> list[Row]:
    """Articles first seen within k rounds (not in `already`), ordered by (round, run order)."""
    rows = []
    for article in within(lists, k) - set(already):
        ranks = [(arts.index(article) + 1, i) for i, _, arts in lists if article in arts[:k]]
        best, first_run = min(ranks)
        runs = tuple(run_id for _, run_id, arts in lists if article in arts[:k])
        rows.append(((best, first_run), (article, best, best, runs)))
    return [row for _, row in sorted(rows)]


def reference_top_n(runs: PlainRuns, size: int, fused: Sequence[str] = ()) -> Reference:
    result: Reference = {}
    for topic in all_topics(runs):
        lists = topic_lists(runs, topic)
        longest = max(len(arts) for _, _, arts in lists)
        k = next(
            (k for k in range(longest + 1) if len(within(lists, k) | set(fused)) >= size), longest
        )
        depths = {run_id: min(k, len(arts)) for _, run_id, arts in lists}
        result[topic] = (top_n_rows(lists, k), depths)
    return result


def reference_depth_k(runs: PlainRuns, depth: int) -> Reference:
    result: Reference = {}
    for topic in all_topics(runs):
        lists = topic_lists(runs, topic)
        heads = {i: list(dict.fromkeys(arts))[:depth] for i, _, arts in lists}
        keyed = []
        for article in {a for head in heads.values() for a in head}:
            positions = [
                (heads[i].index(article) + 1, i) for i, _, _ in lists if article in heads[i]
            ]
            best_rank = min(arts.index(article) + 1 for i, _, arts in lists if article in heads[i])
            runs_in = tuple(run_id for i, run_id, _ in lists if article in heads[i])
            keyed.append((min(positions), (article, min(positions)[0], best_rank, runs_in)))
        depths = {}
        for _, run_id, arts in lists:
            distinct = list(dict.fromkeys(arts))
            depths[run_id] = arts.index(distinct[depth]) if len(distinct) > depth else len(arts)
        result[topic] = ([row for _, row in sorted(keyed)], depths)
    return result


def reference_fusion(runs: PlainRuns, size: int, fused: int, method: str) -> Reference:
    result: Reference = {}
    for topic in all_topics(runs):
        lists = topic_lists(runs, topic)
        distinct = [list(dict.fromkeys(arts)) for _, _, arts in lists]
        longest_distinct = max(len(d) for d in distinct)
        scores: dict[str, float] = {}
        for article in {a for d in distinct for a in d}:
            if method == "borda":
                scores[article] = sum(
                    longest_distinct - d.index(article) for d in distinct if article in d
                )
            else:
                scores[article] = sum(
                    1.0 / (60 + d.index(article) + 1) for d in distinct if article in d
                )
        ranking = sorted(scores, key=lambda a: (-scores[a], topic_sort_key(a)))
        top = ranking[:fused]
        fused_rows: list[Row] = []
        for article in top:
            best = min(arts.index(article) + 1 for _, _, arts in lists if article in arts)
            runs_in = tuple(run_id for _, run_id, arts in lists if article in arts)
            fused_rows.append((article, 0, best, runs_in))
        longest = max(len(arts) for _, _, arts in lists)
        k = next(
            (k for k in range(longest + 1) if len(within(lists, k) | set(top)) >= size), longest
        )
        depths = {run_id: min(k, len(arts)) for _, run_id, arts in lists}
        result[topic] = (fused_rows + top_n_rows(lists, k, top), depths)
    return result


def as_reference(pool: Pool) -> Reference:
    return {
        topic: (
            [(e.article, e.first_round, e.best_rank, e.contributing_runs) for e in tp.articles],
            dict(tp.depths),
        )
        for topic, tp in pool.topics.items()
    }


def ranked(runs: PlainRuns) -> list[RankedRun]:
    return [RankedRun(run_id, topics) for run_id, topics in runs]


# ---- synthetic runs -------------------------------------------------------------------------

ARTICLES = st.sampled_from([str(n) for n in range(1, 16)] + ["x", "y"])
RESULT_LIST = st.lists(ARTICLES, min_size=1, max_size=14)
RUN_TOPICS = st.dictionaries(st.sampled_from(["1", "2", "10"]), RESULT_LIST, min_size=1, max_size=3)
PLAIN_RUNS = st.lists(RUN_TOPICS, min_size=1, max_size=5).map(
    lambda runs: [(f"run{i}", topics) for i, topics in enumerate(runs)]
)


@settings(max_examples=300, deadline=None)
@given(PLAIN_RUNS, st.integers(min_value=1, max_value=25))
def test_top_n_matches_the_reference(runs: PlainRuns, size: int) -> None:
    assert as_reference(top_n_pool(ranked(runs), size)) == reference_top_n(runs, size)


@settings(max_examples=300, deadline=None)
@given(PLAIN_RUNS, st.integers(min_value=1, max_value=10))
def test_depth_k_matches_the_reference(runs: PlainRuns, depth: int) -> None:
    assert as_reference(depth_k_pool(ranked(runs), depth)) == reference_depth_k(runs, depth)


@settings(max_examples=300, deadline=None)
@given(
    PLAIN_RUNS,
    st.integers(min_value=1, max_value=25),
    st.integers(min_value=0, max_value=12),
    st.sampled_from(["borda", "rrf"]),
)
def test_fusion_matches_the_reference(runs: PlainRuns, size: int, fused: int, method: str) -> None:
    pool = fusion_pool(ranked(runs), size, fused, method)  # type: ignore[arg-type]
    assert as_reference(pool) == reference_fusion(runs, size, fused, method)


# ---- the real INEX 2010 runs -----------------------------------------------------------------


def fol_runs(inex2010: Path) -> list[Path]:
    paths = sorted((inex2010 / "runs").glob("*.fol.run"))
    assert len(paths) == 4, paths
    return paths


def plain_read(path: Path) -> tuple[str, dict[str, list[str]]]:
    """A run file read with `str.split`, independent of the formats package."""
    topics: dict[str, list[str]] = {}
    run_id = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if fields:
            topics.setdefault(fields[0], []).append(fields[2])
            run_id = fields[5]
    return run_id, topics


@pytest.fixture(scope="module")
def shared_runs(inex2010: Path) -> tuple[list[Path], PlainRuns]:
    paths = fol_runs(inex2010)
    return paths, [plain_read(path) for path in paths]


@pytest.mark.parametrize("size", [1, 50, 100, 500])
def test_top_n_on_the_inex_2010_runs(shared_runs: tuple[list[Path], PlainRuns], size: int) -> None:
    from focal.evaluation.formats.fol.runs import read_run

    paths, plain = shared_runs
    runs = [read_run(path) for path in paths]
    assert as_reference(top_n_pool(runs, size)) == reference_top_n(plain, size)


@pytest.mark.parametrize("depth", [1, 10, 100])
def test_depth_k_on_the_inex_2010_runs(
    shared_runs: tuple[list[Path], PlainRuns], depth: int
) -> None:
    _, plain = shared_runs
    assert as_reference(depth_k_pool(ranked(plain), depth)) == reference_depth_k(plain, depth)


@pytest.mark.parametrize("method", ["borda", "rrf"])
def test_fusion_on_the_inex_2010_runs(
    shared_runs: tuple[list[Path], PlainRuns], method: str
) -> None:
    _, plain = shared_runs
    pool = fusion_pool(ranked(plain), 100, 40, method)  # type: ignore[arg-type]
    assert as_reference(pool) == reference_fusion(plain, 100, 40, method)


def test_focal_pool_writes_the_reference_pool_of_the_inex_2010_runs(
    shared_runs: tuple[list[Path], PlainRuns],
) -> None:
    paths, plain = shared_runs
    outcome = CliRunner().invoke(
        pool_command, ["--method", "topn", "--size", "100", "--order", "rank", *map(str, paths)]
    )
    assert outcome.exit_code == 0, outcome.output
    expected = ["topic\tarticle\tfirst_round\tbest_rank\tcontributing_runs"]
    for topic, (rows, _) in reference_top_n(plain, 100).items():
        for article, first_round, best_rank, runs in rows:
            expected.append(f"{topic}\t{article}\t{first_round}\t{best_rank}\t{','.join(runs)}")
    assert outcome.output.splitlines() == expected
    assert sum(len(rows) for rows, _ in reference_top_n(plain, 100).values()) >= 100 * 52
