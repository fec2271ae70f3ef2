"""The judging-order policies (focal.pooling.ordering): hand-worked choices on a tiny pool, every
policy judging each pooled article exactly once, reproducibility from the seed, the live
suggestion replayed from an assessor's judgements (the forecast of relevant articles left is
tests/pooling/test_forecast.py's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.pooling.ordering.arms import Arms
from focal.pooling.ordering.policies import POLICIES, policy_for
from focal.pooling.ordering.replay import judging_order, suggest

# Three runs over a pool of eleven articles; z is pooled but retrieved by no run.
RUNS = [("r1", ["a", "b", "c", "d"]), ("r2", ["e", "a", "f", "g"]), ("r3", ["h", "i", "j", "a"])]
POOL = ["a", "e", "h", "b", "i", "f", "c", "j", "d", "g", "z"]
RELEVANT = {"a": True, "b": True, "c": True, "h": True, "i": True}


def order(name: str, seed: int = 0) -> list[str]:
    return judging_order(name, Arms(RUNS, POOL), RELEVANT, seed, "1")


def test_rank_judges_in_pool_order() -> None:
    assert order("rank") == POOL


def test_move_to_front_stays_on_a_run_while_it_gives_relevant_articles() -> None:
    # r1 (all at priority 0, the first run) gives a, b, c relevant, then d not: r1 drops to -1.
    # r2 and r3 tie at 0; r2 comes first after r1 cyclically: e is not relevant (r2 -> -1).
    # r3: h, i relevant, j not (r3 -> -1). All at -1; after r3 comes r1 (exhausted), then r2:
    # f, g. Every run is exhausted: z, which no run retrieved, comes last.
    assert order("mtf") == ["a", "b", "c", "d", "e", "h", "i", "j", "f", "g", "z"]


def test_ucb_reads_every_run_once_then_the_highest_bound() -> None:
    # Each run once, in run order: a (r1, relevant), e (r2, not), h (r3, relevant).
    # n = 3: r1 and r3 score 1 + sqrt(2 ln 3) = 2.48, r2 1.48: r1 on the tie -> b (relevant).
    # n = 4: r1 1 + sqrt(2 ln 4 / 2) = 2.18 < r3 1 + sqrt(2 ln 4) = 2.67 -> i (relevant).
    # n = 5: r1 and r3 both 1 + sqrt(ln 5) = 2.27 > r2 1.79 -> r1: c. Then the rest as bounds say.
    assert order("ucb")[:6] == ["a", "e", "h", "b", "i", "c"]


def test_thompson_draws_from_each_runs_posterior() -> None:
    # With nothing judged every run's Beta(1, 1) draw decides: the first article is the head of
    # the run with the highest draw, recomputed here from the same seeded generator.
    arms = Arms(RUNS, POOL)
    policy = policy_for("thompson", arms, 7, "1")
    expected_rng = policy_for("thompson", Arms(RUNS, POOL), 7, "1").rng
    draws = expected_rng.beta([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    first = policy.choose()
    assert first.run == RUNS[int(draws.argmax())][0]
    assert first.article == RUNS[int(draws.argmax())][1][0]
    assert [arm.score for arm in first.arms] == pytest.approx(draws.tolist())


def test_non_stationary_thompson_forgets_older_evidence() -> None:
    arms = Arms(RUNS, POOL)
    policy = policy_for("thompson-ns", arms, 0, "1")
    # Discount 0.9 on r1's own counts at each of its judgements: relevant, relevant, not:
    # (1, 0) -> (0.9 + 1, 0) = (1.9, 0) -> (1.71, 0 + 1) = (1.71, 1). Stationary Thompson would
    # hold (2, 1): the older evidence weighs less.
    for relevant in (True, True, False):
        policy.learn(0, relevant)
    relevant_counts, other_counts = policy.evidence()
    assert (relevant_counts[0], other_counts[0]) == pytest.approx((1.71, 1.0))
    assert relevant_counts[1:].tolist() == [0.0, 0.0]


def test_random_depends_on_the_seed_only() -> None:
    assert order("random", 3) == order("random", 3)
    assert order("random", 3) != order("random", 4)
    assert sorted(order("random", 3)) == sorted(POOL)


def test_unknown_policy_is_named() -> None:
    with pytest.raises(ValueError, match="unknown judging order 'greedy'"):
        order("greedy")


def test_budget_stops_the_order() -> None:
    for name in POLICIES:
        assert len(judging_order(name, Arms(RUNS, POOL), RELEVANT, 0, "1", budget=4)) == 4


runs_strategy = st.lists(
    st.lists(st.sampled_from("abcdefghijklmnop"), max_size=12), min_size=1, max_size=5
)


@settings(max_examples=60, deadline=None)
@given(
    runs=runs_strategy,
    extra=st.lists(st.sampled_from("qrstuv"), max_size=4),
    relevant=st.sets(st.sampled_from("abcdefghijklmnopqrstuv")),
    seed=st.integers(0, 2**31),
)
def test_every_policy_judges_every_pooled_article_exactly_once(
    runs: list[list[str]], extra: list[str], relevant: set[str], seed: int
) -> None:
    named = [(f"r{i}", ranked) for i, ranked in enumerate(runs)]
    pool = list(dict.fromkeys([a for ranked in runs for a in ranked] + extra))
    verdicts = {article: article in relevant for article in pool}
    for name in POLICIES:
        judged = judging_order(name, Arms(named, pool), verdicts, seed, "t")
        assert sorted(judged) == sorted(pool), name
        again = judging_order(name, Arms(named, pool), verdicts, seed, "t")
        assert judged == again, name  # reproducible from the seed


def test_suggestion_replays_the_assessors_judgements() -> None:
    # After a and b (both relevant, both r1's), move-to-front stays on r1: c is next.
    choice = suggest("mtf", Arms(RUNS, POOL), [("a", True), ("b", True)], 0, "1")
    assert (choice.article, choice.run) == ("c", "r1")
    assert [(arm.run, arm.pulls, arm.relevant) for arm in choice.arms] == [
        ("r1", 2, 2), ("r2", 0, 0), ("r3", 0, 0),
    ]  # fmt: skip
    # A judgement the policy did not offer (h, r3's next) is credited to the run whose next
    # article it was; a non-relevant one lowers that run: after a (relevant, r1), h (r3, not),
    # r1 stays in front.
    choice = suggest("mtf", Arms(RUNS, POOL), [("a", True), ("h", False)], 0, "1")
    assert choice.article == "b"
    # The same judgements always give the same suggestion (a reload, another worker).
    history = [("e", False), ("a", True)]
    assert suggest("thompson", Arms(RUNS, POOL), history, 5, "1") == suggest(
        "thompson", Arms(RUNS, POOL), history, 5, "1"
    )
