"""Top-n, depth-k and fusion pools against pools computed by hand.

The three runs below, topic 1, ranks left to right:

    A: a1 a2 a1 a3 a4
    B: b1 a1 b2
    C: a2 c1 c2 c3

Top-n rounds (runs in order A, B, C), distinct articles after each round:
    1: a1 b1 a2          -> 3
    2: (a2 a1) c1        -> 4
    3: (a1) b2 c2        -> 6
    4: a3 (B done) c3    -> 8
    5: a4                -> 9 (every run exhausted)
"""

from __future__ import annotations

import gc
from dataclasses import FrozenInstanceError

import pytest

from focal.evaluation.formats.source import collector_paused
from focal.pooling.records import (
    FUSED_ROUND,
    Pool,
    PooledArticle,
    RankedRun,
    pooled_articles,
)
from focal.pooling.strategies import (
    build_pool,
    depth_k_pool,
    fused_ranking,
    fusion_pool,
    top_n_pool,
)

A = RankedRun("A", {"1": ["a1", "a2", "a1", "a3", "a4"]})
B = RankedRun("B", {"1": ["b1", "a1", "b2"]})
C = RankedRun("C", {"1": ["a2", "c1", "c2", "c3"]})
RUNS = [A, B, C]


def articles(pool: Pool, topic: str = "1") -> list[str]:
    return [entry.article for entry in pool.topics[topic].articles]


@pytest.mark.parametrize(
    ("size", "expected", "rounds"),
    [
        (1, ["a1", "b1", "a2"], 1),  # a round is always completed
        (3, ["a1", "b1", "a2"], 1),  # exactly 3 after round 1
        (4, ["a1", "b1", "a2", "c1"], 2),  # exactly 4 after round 2
        (5, ["a1", "b1", "a2", "c1", "b2", "c2"], 3),  # one short after round 2
        (6, ["a1", "b1", "a2", "c1", "b2", "c2"], 3),  # exactly 6 after round 3
        (7, ["a1", "b1", "a2", "c1", "b2", "c2", "a3", "c3"], 4),
        (9, ["a1", "b1", "a2", "c1", "b2", "c2", "a3", "c3", "a4"], 5),
        (10, ["a1", "b1", "a2", "c1", "b2", "c2", "a3", "c3", "a4"], 5),  # runs run out
    ],
)
def test_top_n_stops_at_the_end_of_the_first_round_reaching_the_size(
    size: int, expected: list[str], rounds: int
) -> None:
    pool = top_n_pool(RUNS, size)
    assert articles(pool) == expected
    assert pool.topics["1"].rounds == rounds


def test_top_n_records_rounds_ranks_contributors_and_depths() -> None:
    topic = top_n_pool(RUNS, 4).topics["1"]
    rows = {e.article: (e.first_round, e.best_rank, e.contributing_runs) for e in topic.articles}
    assert rows == {
        "a1": (1, 1, ("A", "B")),
        "b1": (1, 1, ("B",)),
        "a2": (1, 1, ("A", "C")),  # C brought it in round 1, A returned it in round 2
        "c1": (2, 2, ("C",)),
    }
    assert dict(top_n_pool(RUNS, 7).topics["1"].depths) == {"A": 4, "B": 3, "C": 4}


def test_top_n_rounds_count_results_not_distinct_articles() -> None:
    # A's 3rd result repeats a1: round 3 adds nothing for A instead of moving on to a3.
    pool = top_n_pool([RankedRun("A", {"1": ["a1", "a2", "a1", "a3"]})], size=3)
    assert articles(pool) == ["a1", "a2", "a3"]
    assert pool.topics["1"].rounds == 4


def test_top_n_follows_the_given_run_order() -> None:
    assert articles(top_n_pool([C, B, A], 1)) == ["a2", "b1", "a1"]


def test_top_n_keeps_topics_apart_and_sorts_them_naturally() -> None:
    runs = [RankedRun("A", {"10": ["x"], "9": ["y", "z"]}), RankedRun("B", {"10": ["w"]})]
    pool = top_n_pool(runs, 2)
    assert list(pool.topics) == ["9", "10"]
    assert articles(pool, "9") == ["y", "z"]
    assert articles(pool, "10") == ["x", "w"]
    assert dict(pool.topics["10"].depths) == {"A": 1, "B": 1}


def test_depth_k_takes_each_runs_first_k_distinct_articles() -> None:
    pool = depth_k_pool(RUNS, 2)
    topic = pool.topics["1"]
    rows = {e.article: (e.first_round, e.best_rank, e.contributing_runs) for e in topic.articles}
    assert articles(pool) == ["a1", "b1", "a2", "c1"]
    assert rows == {
        "a1": (1, 1, ("A", "B")),
        "b1": (1, 1, ("B",)),
        "a2": (1, 1, ("A", "C")),
        "c1": (2, 2, ("C",)),
    }
    # A reads a1 a2 a1 and stops before a3, its 3rd distinct article.
    assert dict(topic.depths) == {"A": 3, "B": 2, "C": 2}


def test_depth_k_best_rank_is_a_result_rank() -> None:
    run = RankedRun("D", {"1": ["x", "x", "y", "z"]})
    entry = depth_k_pool([run], 2).topics["1"].articles[1]
    assert (entry.article, entry.first_round, entry.best_rank) == ("y", 2, 3)


def test_depth_k_beyond_every_run_is_the_union_of_all_articles() -> None:
    pool = depth_k_pool(RUNS, 100)
    assert sorted(articles(pool)) == sorted({"a1", "a2", "a3", "a4", "b1", "b2", "c1", "c2", "c3"})


def test_borda_and_rrf_rankings() -> None:
    # Borda, L = 4: a1 = 4 + 3, a2 = 3 + 4, b1 = 4, c1 = 3, a3 = b2 = c2 = 2, a4 = c3 = 1.
    lists = [(i, run.topics["1"]) for i, run in enumerate(RUNS)]
    expected = ["a1", "a2", "b1", "c1", "a3", "b2", "c2", "a4", "c3"]
    assert fused_ranking(lists, "borda") == expected
    # X: p q r, Y: s t r. Borda (L = 3): p = s = 3, q = t = r = 2. RRF: r = 2/63 beats 1/61.
    two = [(0, ["p", "q", "r"]), (1, ["s", "t", "r"])]
    assert fused_ranking(two, "borda") == ["p", "s", "q", "r", "t"]
    assert fused_ranking(two, "rrf") == ["r", "p", "s", "q", "t"]


def test_fusion_pool_takes_the_fused_top_then_fills_with_top_n() -> None:
    pool = fusion_pool(RUNS, size=5, fused=2, method="borda")
    topic = pool.topics["1"]
    assert articles(pool) == ["a1", "a2", "b1", "c1", "b2", "c2"]
    assert topic.rounds == 3
    first = {e.article: (e.first_round, e.best_rank, e.contributing_runs) for e in topic.articles}
    assert first["a1"] == (FUSED_ROUND, 1, ("A", "B"))
    assert first["a2"] == (FUSED_ROUND, 1, ("A", "C"))
    assert first["b1"] == (1, 1, ("B",))


def test_fusion_pool_larger_than_the_size_needs_no_round() -> None:
    pool = fusion_pool(RUNS, size=2, fused=3, method="rrf")
    assert articles(pool) == ["a1", "a2", "b1"]
    assert pool.topics["1"].rounds == 0
    assert dict(pool.topics["1"].depths) == {"A": 0, "B": 0, "C": 0}


def test_fused_articles_seen_only_deep_get_their_best_rank() -> None:
    runs = [RankedRun("A", {"1": ["x", "y", "z"]}), RankedRun("B", {"1": ["w", "v", "z"]})]
    pool = fusion_pool(runs, size=1, fused=5, method="borda")
    entry = next(e for e in pool.topics["1"].articles if e.article == "z")
    assert (entry.best_rank, entry.contributing_runs) == (3, ("A", "B"))


@pytest.mark.parametrize(
    "call",
    [
        lambda: top_n_pool(RUNS, 0),
        lambda: depth_k_pool(RUNS, 0),
        lambda: fusion_pool(RUNS, 5, -1),
        lambda: fusion_pool(RUNS, 5, 1, "condorcet"),  # type: ignore[arg-type]
    ],
)
def test_bad_parameters_are_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_build_pool_dispatches_every_method() -> None:
    assert build_pool(RUNS, "topn", size=4) == top_n_pool(RUNS, 4)
    assert build_pool(RUNS, "depth", depth=2) == depth_k_pool(RUNS, 2)
    assert build_pool(RUNS, "rrf", size=5, fused=2) == fusion_pool(RUNS, 5, 2, "rrf")
    with pytest.raises(ValueError, match="needs a depth"):
        build_pool(RUNS, "depth")
    with pytest.raises(ValueError, match="fused"):
        build_pool(RUNS, "borda", size=5)


def test_pooled_articles_built_from_columns_equal_constructed_ones() -> None:
    rows = [("a1", 1, 1, ("A", "B")), ("b1", 1, 2, ("B",)), ("x", 0, 7, ())]
    built = pooled_articles("9", *map(list, zip(*rows, strict=True)))  # type: ignore[arg-type]
    expected = [PooledArticle("9", *row) for row in rows]
    assert built == expected
    assert [hash(entry) for entry in built] == [hash(entry) for entry in expected]
    assert [repr(entry) for entry in built] == [repr(entry) for entry in expected]
    with pytest.raises(FrozenInstanceError):
        built[0].best_rank = 3  # type: ignore[misc]


def test_the_collector_is_paused_only_while_pooling() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    top_n_pool(RUNS, size=3)
    assert gc.isenabled()
