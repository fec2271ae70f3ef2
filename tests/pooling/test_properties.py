"""Properties every pool must have, on synthetic runs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.pooling.io import order_articles, pool_lines
from focal.pooling.records import Pool, RankedRun
from focal.pooling.stats import leave_group_out, pool_statistics
from focal.pooling.strategies import depth_k_pool, fusion_pool, top_n_pool

ARTICLES = st.sampled_from([str(n) for n in range(1, 30)])
RUNS = st.lists(
    st.dictionaries(
        st.sampled_from(["1", "2", "3"]), st.lists(ARTICLES, min_size=1, max_size=20), min_size=1
    ),
    min_size=1,
    max_size=6,
).map(lambda runs: [RankedRun(f"r{i}", topics) for i, topics in enumerate(runs)])
SETTINGS = settings(max_examples=200, deadline=None)


def article_sets(pool: Pool) -> dict[str, set[str]]:
    return {topic: set(tp.article_ids()) for topic, tp in pool.topics.items()}


def contains(big: Pool, small: Pool) -> bool:
    bigger = article_sets(big)
    return all(articles <= bigger.get(t, set()) for t, articles in article_sets(small).items())


@SETTINGS
@given(RUNS, st.integers(1, 40), st.integers(0, 20))
def test_a_bigger_top_n_pool_contains_a_smaller_one(
    runs: list[RankedRun], n: int, more: int
) -> None:
    assert contains(top_n_pool(runs, n + more), top_n_pool(runs, n))


@SETTINGS
@given(RUNS, st.integers(1, 15), st.integers(0, 10))
def test_a_deeper_depth_k_pool_contains_a_shallower_one(
    runs: list[RankedRun], k: int, more: int
) -> None:
    assert contains(depth_k_pool(runs, k + more), depth_k_pool(runs, k))


@SETTINGS
@given(RUNS, st.integers(1, 40), st.integers(0, 40), st.sampled_from(["borda", "rrf"]))
def test_every_pool_reaches_its_size_unless_the_runs_run_out(
    runs: list[RankedRun], n: int, fused: int, method: str
) -> None:
    pools = [top_n_pool(runs, n), fusion_pool(runs, n, fused, method)]  # type: ignore[arg-type]
    for pool in pools:
        for topic, topic_pool in pool.topics.items():
            everything = {a for run in runs for a in run.topics.get(topic, [])}
            assert len(topic_pool) >= min(n, len(everything))
            if len(topic_pool) < n:
                assert topic_pool.article_ids() == everything


@SETTINGS
@given(RUNS, st.integers(1, 40), st.data())
def test_leaving_a_group_out_never_adds_articles(
    runs: list[RankedRun], n: int, data: st.DataObject
) -> None:
    excluded = data.draw(st.sets(st.sampled_from([run.run_id for run in runs])))
    for pool in (top_n_pool(runs, n), depth_k_pool(runs, n)):
        without = leave_group_out(pool, excluded)
        assert contains(pool, without)
        for topic_pool in without.topics.values():
            assert all(set(e.contributing_runs).isdisjoint(excluded) for e in topic_pool.articles)


@SETTINGS
@given(RUNS, st.integers(1, 15), st.data())
def test_depth_k_without_a_group_is_the_depth_k_pool_of_the_other_runs(
    runs: list[RankedRun], k: int, data: st.DataObject
) -> None:
    excluded = data.draw(st.sets(st.sampled_from([run.run_id for run in runs])))
    others = [run for run in runs if run.run_id not in excluded]
    without = leave_group_out(depth_k_pool(runs, k), excluded)
    expected = article_sets(depth_k_pool(others, k)) if others else {}
    assert article_sets(without) == expected


@SETTINGS
@given(RUNS, st.integers(1, 40), st.integers(0, 2**31))
def test_output_is_deterministic_and_orders_are_permutations(
    runs: list[RankedRun], n: int, seed: int
) -> None:
    pool = top_n_pool(runs, n)
    again = top_n_pool([RankedRun(r.run_id, dict(r.topics)) for r in runs], n)
    for order in ("article", "rank", "random"):
        assert list(pool_lines(pool, order, seed)) == list(pool_lines(again, order, seed))
    for topic_pool in pool.topics.values():
        ranked = list(topic_pool.articles)
        by_id = order_articles(topic_pool, "article")
        shuffled = order_articles(topic_pool, "random", seed)
        assert sorted(by_id, key=ranked.index) == ranked
        assert sorted(shuffled, key=ranked.index) == ranked
        assert [int(e.article) for e in by_id] == sorted(int(e.article) for e in ranked)


@SETTINGS
@given(RUNS, st.integers(1, 40))
def test_unique_contributions_add_up(runs: list[RankedRun], n: int) -> None:
    statistics = pool_statistics(top_n_pool(runs, n), runs)
    assert sum(row.unique for row in statistics.runs) == statistics.overall.unique_to_run
    assert statistics.overall.pool_size == sum(row.pool_size for row in statistics.topics)
    for topic, per_run in statistics.depths.items():
        pool_topic = top_n_pool(runs, n).topics[topic]
        # A top-n pool holds every run to at least the round where it stopped.
        assert all(per_run[run] >= depth for run, depth in pool_topic.depths.items())
