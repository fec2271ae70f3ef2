"""Policies played out: a whole pool ordered from complete judgements (the simulator), and the
next article suggested from an assessor's judgements so far (the assessor).

Both replay the policy judgement by judgement from its seed, so the same judgements in the same
order always give the same suggestion: a page reload, a second server worker or a replay of the
campaign's log all agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from focal.pooling.ordering.arms import Arms
from focal.pooling.ordering.policies import Choice, policy_for


def judging_order(
    name: str,
    arms: Arms,
    relevance: Mapping[str, bool],
    seed: int | str = 0,
    topic: str = "",
    budget: int | None = None,
) -> list[str]:
    """The pool of `arms` in the order policy `name` judges it, `relevance` giving each
    judgement (an article missing from it is not relevant, as an unjudged article reads);
    stops after `budget` judgements when given. Every pooled article comes exactly once."""
    policy = policy_for(name, arms, seed, topic)
    order: list[str] = []
    limit = len(arms.pool) if budget is None else min(budget, len(arms.pool))
    while len(order) < limit:
        choice = policy.choose()
        if choice.article is None:
            break
        policy.observe(choice.article, relevance.get(choice.article, False), choice)
        order.append(choice.article)
    return order


def suggest(
    name: str,
    arms: Arms,
    history: Sequence[tuple[str, bool]],
    seed: int | str = 0,
    topic: str = "",
) -> Choice:
    """The article policy `name` offers next after the judgements `history` ((article,
    relevant), in the order they were made; articles outside the pool are ignored)."""
    policy = policy_for(name, arms, seed, topic)
    pooled = set(arms.pool)
    for article, relevant in history:
        if article in pooled and article not in arms.judged:
            policy.observe(article, relevant, policy.choose())
    return policy.choose()
