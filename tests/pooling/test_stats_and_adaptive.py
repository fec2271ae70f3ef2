"""Pool statistics, leave-one-group-out and adaptive extension, computed by hand.

Runs (topic 1), as in test_strategies:  A: a1 a2 a1 a3 a4   B: b1 a1 b2   C: a2 c1 c2 c3
The top-n pool of size 4 (two rounds) is a1 (A, B), b1 (B), a2 (A, C), c1 (C).
"""

from __future__ import annotations

from focal.evaluation.formats.records import Judgement
from focal.pooling.adaptive import extend_pool
from focal.pooling.records import Pool, RankedRun, TopicPool
from focal.pooling.stats import leave_group_out, pool_statistics
from focal.pooling.strategies import depth_k_pool, top_n_pool

A = RankedRun("A", {"1": ["a1", "a2", "a1", "a3", "a4"]})
B = RankedRun("B", {"1": ["b1", "a1", "b2"]})
C = RankedRun("C", {"1": ["a2", "c1", "c2", "c3"]})
RUNS = [A, B, C]
GROUPS = {"A": "g1", "B": "g1", "C": "g2"}


def judgement(topic: str, article: str, relevant: bool) -> Judgement:
    chars = 10 if relevant else 0
    passages = ((0, 10),) if relevant else ()
    return Judgement(topic, article, chars, 100, 0 if relevant else None, passages, 0)


def test_statistics_of_a_small_pool() -> None:
    statistics = pool_statistics(top_n_pool(RUNS, 4), RUNS, GROUPS)
    (topic,) = statistics.topics
    # Two rounds read two results of every run (A's third result a1 is pooled, but not read).
    assert dict(statistics.depths["1"]) == {"A": 2, "B": 2, "C": 2}
    assert (topic.pool_size, topic.runs, topic.min_depth, topic.max_depth) == (4, 3, 2, 2)
    assert topic.mean_depth == 2
    assert (topic.unique_to_run, topic.unique_to_group) == (2, 3)  # b1, c1; and a1 (g1 only)
    runs = {(r.run_id, r.group, r.topics, r.contributed, r.unique) for r in statistics.runs}
    assert runs == {("A", "g1", 1, 2, 0), ("B", "g1", 1, 2, 1), ("C", "g2", 1, 2, 1)}
    groups = {(g.group, g.runs, g.contributed, g.unique) for g in statistics.groups}
    assert groups == {("g1", 2, 3, 2), ("g2", 1, 2, 1)}
    overlaps = {(o.run_a, o.run_b): (o.shared, o.jaccard) for o in statistics.overlaps}
    assert overlaps == {("A", "B"): (1, 1 / 3), ("A", "C"): (1, 1 / 3), ("B", "C"): (0, 0.0)}


def without_depths(pool: Pool) -> Pool:
    """The pool as `read_pool` gives it: the builder's depths are not in the file."""
    topics = {
        topic: TopicPool(topic, topic_pool.articles) for topic, topic_pool in pool.topics.items()
    }
    return Pool(pool.method, pool.run_ids, topics)


def test_depth_is_the_rank_of_the_last_result_read_not_the_pooled_prefix() -> None:
    # Seed 003 Table VI counts the rank of the last result read. With n = 5:
    # round 1 reads a, a, i (pool a i); round 2 b, f, a (a i b f); round 3 c, g, b (6 >= 5).
    # S1's first six results (a b c a b a) are all pooled, but only three were read.
    runs = [
        RankedRun("S1", {"1": list("abcabaz")}),
        RankedRun("S2", {"1": list("afgh")}),
        RankedRun("S3", {"1": list("iabj")}),
    ]
    pool = top_n_pool(runs, 5)
    assert pool.topics["1"].rounds == 3
    for examined in (pool, without_depths(pool)):
        statistics = pool_statistics(examined, runs)
        assert dict(statistics.depths["1"]) == {"S1": 3, "S2": 3, "S3": 3}
        assert statistics.overall.mean_depth == 3


def test_depths_from_a_file_never_exceed_what_a_depth_k_pool_read() -> None:
    pool = depth_k_pool(RUNS, 2)  # A reads a1 a2 a1 (3 results), B b1 a1 (2), C a2 c1 (2)
    assert dict(pool.topics["1"].depths) == {"A": 3, "B": 2, "C": 2}
    reconstructed = pool_statistics(without_depths(pool), RUNS).depths["1"]
    assert dict(reconstructed) == {"A": 2, "B": 2, "C": 2}  # a lower bound: A's repeat is unseen


def test_without_groups_every_run_is_its_own_group() -> None:
    statistics = pool_statistics(top_n_pool(RUNS, 4), RUNS)
    assert statistics.overall.unique_to_group == statistics.overall.unique_to_run == 2


def test_leave_one_group_out_keeps_what_other_groups_contributed() -> None:
    pool = top_n_pool(RUNS, 4)
    without_g1 = leave_group_out(pool, {"A", "B"})
    entries = [(e.article, e.contributing_runs) for e in without_g1.topics["1"].articles]
    assert entries == [("a2", ("C",)), ("c1", ("C",))]
    assert dict(without_g1.topics["1"].depths) == {"C": 2}
    assert leave_group_out(pool, {"A", "B", "C"}).topics == {}


def test_extension_deepens_a_topic_that_still_yields_relevant_articles() -> None:
    pool = top_n_pool(RUNS, 4)  # every run pooled to rank 2 at least
    judged = {"1": {"a1": judgement("1", "a1", True), "b1": judgement("1", "b1", False)}}
    # Depth counts distinct articles (A: a1 a2 a3 a4). Distinct ranks 3-4 bring a3, b2, c2
    # (distinct rank 3) and a4, c3 (distinct rank 4): five articles, pool 9.
    too_small = extend_pool(pool, RUNS, judged, budget=8, step=2)
    assert too_small.pool.topics["1"] is pool.topics["1"]
    (decision,) = too_small.topics
    assert (decision.depth, decision.recent, decision.judged, decision.relevant) == (2, 4, 2, 1)
    assert decision.rate == 0.5 and not decision.extended
    grown = extend_pool(pool, RUNS, judged, budget=9, step=2)
    added = [
        (e.article, e.first_round, e.best_rank, e.contributing_runs)
        for e in grown.pool.topics["1"].articles[4:]
    ]
    assert added == [  # (article, distinct rank, best result rank, runs)
        ("a3", 3, 4, ("A",)),
        ("b2", 3, 3, ("B",)),
        ("c2", 3, 3, ("C",)),
        ("a4", 4, 5, ("A",)),
        ("c3", 4, 4, ("C",)),
    ]
    assert grown.pool.topics["1"].articles[:4] == pool.topics["1"].articles
    assert dict(grown.pool.topics["1"].depths) == {"A": 5, "B": 3, "C": 4}  # results read
    assert grown.topics[0].added == 5 and grown.topics[0].extended


def test_extension_spends_the_budget_on_the_most_productive_topics() -> None:
    runs = [
        RankedRun("A", {"1": ["1", "2", "3"], "2": ["4", "5", "6"], "3": ["7", "8", "9"]}),
    ]
    pool = top_n_pool(runs, 1)  # one article per topic: 1, 4, 7
    judged = {
        "1": {"1": judgement("1", "1", True)},
        "2": {"4": judgement("2", "4", True)},
        "3": {"7": judgement("3", "7", False)},  # no relevant article: not extended
    }
    extension = extend_pool(pool, runs, judged, budget=4, step=1)
    # Topics 1 and 2 tie on rate 1.0; topic order decides, and only one more article fits.
    assert [t.extended for t in extension.topics] == [True, False, False]
    assert extension.pool.size() == 4
    raised = extend_pool(pool, runs, judged, budget=5, step=1, threshold=0.0)
    assert [t.extended for t in raised.topics] == [True, True, False]
    strict = extend_pool(pool, runs, judged, budget=5, step=1, threshold=1.0)
    assert [t.extended for t in strict.topics] == [False, False, False]


def test_unjudged_recent_articles_give_no_evidence() -> None:
    pool = top_n_pool(RUNS, 4)
    extension = extend_pool(pool, RUNS, {}, budget=100)
    assert extension.topics[0].rate is None and not extension.topics[0].extended


def test_a_topic_whose_runs_are_pooled_to_their_end_is_not_extended() -> None:
    runs = [RankedRun("A", {"1": ["1", "2"]})]
    pool = top_n_pool(runs, 5)  # both articles, the run is exhausted
    extension = extend_pool(pool, runs, {"1": {"2": judgement("1", "2", True)}}, budget=100)
    (decision,) = extension.topics
    assert (decision.depth, decision.relevant, decision.extended) == (2, 1, False)
    assert extension.pool.size() == 2
