"""Reduced judgements: sampling, depth pools, leave-out pools, worked on the hand-made campaign."""

from __future__ import annotations

import doctest
from itertools import pairwise
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.fol.qrels import read_qrels
from focal.pooling.ranked import as_ranked, read_ranked_run
from focal.pooling.records import RankedRun
from focal.reliability import judgements
from focal.reliability.judgements import (
    depth_holding,
    depth_pools,
    leave_out_pools,
    restrict_to,
    sample_judgements,
)

from .conftest import RELEVANT, RUNS


def test_doctests() -> None:
    assert doctest.testmod(judgements).failed == 0


def test_sampling_everything_changes_nothing(campaign: tuple[Path, list[Path], Path]) -> None:
    qrels = read_qrels(campaign[0])
    for population in ("relevant", "judged"):
        sampled = sample_judgements(qrels, 1.0, np.random.default_rng(0), population)
        assert sampled == {topic: dict(found) for topic, found in qrels.items()}


def test_sampling_keeps_whole_articles_and_the_non_relevant_ones(
    campaign: tuple[Path, list[Path], Path],
) -> None:
    qrels = read_qrels(campaign[0])
    sampled = sample_judgements(qrels, 0.5, np.random.default_rng(7))
    for topic, found in sampled.items():
        relevant = [a for a, j in found.items() if j.relevant]
        # Half of 6, 4 and 5 relevant articles, rounded half up: 3, 2 and 3.
        assert len(relevant) == {"1": 3, "2": 2, "3": 3}[topic]
        assert set(relevant) <= set(RELEVANT[topic])
        assert {a for a, j in found.items() if not j.relevant} == {
            a for a, j in qrels[topic].items() if not j.relevant
        }
        assert all(found[a] is qrels[topic][a] for a in found)  # judgements untouched
    # At 10 % every topic still keeps one relevant article (seed 004, footnote 4).
    tiny = sample_judgements(qrels, 0.1, np.random.default_rng(7))
    assert all(sum(j.relevant for j in found.values()) == 1 for found in tiny.values())


def ranked(campaign: tuple[Path, list[Path], Path]) -> list:  # type: ignore[type-arg]
    return as_ranked(read_ranked_run(path) for path in campaign[1])


def test_depth_pools_by_hand(campaign: tuple[Path, list[Path], Path]) -> None:
    # Depth 1: the first article of every run. Topic 1: a1 a1 x2 a6 q4.
    pools = depth_pools(ranked(campaign), [1, 2])
    assert pools[1]["1"] == {"a1", "x2", "a6", "q4"}
    assert pools[2]["2"] == {"b1", "y1", "b2", "b3", "q3", "b4"}
    qrels = read_qrels(campaign[0])
    restricted = restrict_to(qrels, pools[1])
    assert set(restricted["1"]) == {"a1", "x2", "a6"} and set(restricted) == set(qrels)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=4, unique=True))
def test_a_deeper_pool_never_has_fewer_judged_articles(depths: list[int]) -> None:
    runs = [
        RankedRun(run_id, {t: a.split() for t, a in topics.items()})
        for run_id, topics in RUNS.items()
    ]
    pools = depth_pools(runs, sorted(depths))
    ordered = sorted(depths)
    for shallow, deep in pairwise(ordered):
        for topic in pools[shallow]:
            assert pools[shallow][topic] <= pools[deep][topic]


def test_depth_holding_a_share_of_the_relevant_articles(
    campaign: tuple[Path, list[Path], Path],
) -> None:
    qrels = read_qrels(campaign[0])
    # Topic 2 (b1..b4): b1 and b2 and b4 are first articles of some run (depth 1), b3 comes at
    # depth 2 (beta: y1 b3). 50 % = 2 articles: depth 1; 100 %: depth 2.
    assert depth_holding(ranked(campaign), qrels, 0.5, 10)["2"] == 1
    assert depth_holding(ranked(campaign), qrels, 1.0, 10)["2"] == 2
    # Topic 1: a1..a6; a4 only at beta's depth 2, a5 at alpha-b's depth 3 (a1 a2 x1 a5: 4th
    # distinct). 100 % needs depth 4; with at most 3 it is out of reach.
    assert depth_holding(ranked(campaign), qrels, 1.0, 10)["1"] == 4
    assert depth_holding(ranked(campaign), qrels, 1.0, 3)["1"] is None


def test_leave_out_pools_unique_and_repool(campaign: tuple[Path, list[Path], Path]) -> None:
    runs = ranked(campaign)
    group = {"alpha", "alpha-b"}
    full, unique = leave_out_pools(runs, group, 2, None, "unique")
    # Depth 2, topic 1: alpha a1 x1, alpha-b a1 a2, beta x2 a4, gamma a6 a1, delta q4 a3.
    assert full["1"] == {"a1", "x1", "a2", "x2", "a4", "a6", "q4", "a3"}
    # Within depth 2 only group A returned x1 (alpha) and a2 (alpha-b); gamma returns a1 too.
    assert full["1"] - unique["1"] == {"x1", "a2"}
    _, repooled = leave_out_pools(runs, group, 2, None, "repool")
    assert repooled == unique  # for depth pools both readings agree
    full_n, repool_n = leave_out_pools(runs, group, None, 6, "repool")
    assert len(full_n["1"]) >= 6 and len(repool_n["1"]) >= 6
    assert "a5" not in repool_n["1"]  # only alpha-b returns a5
