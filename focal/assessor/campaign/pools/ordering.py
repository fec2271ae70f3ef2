"""The judging order of the database's pools: set per topic, followed live (no Flask).

A topic's judging order (`focal.pooling.ordering.policies`) is kept in its pool's parameters
(`policy`, `policy_seed`, `budget`), so rebuilding a pool keeps what the organiser chose unless
told otherwise; without one, "next" is the next article of the pool's display order, as before.
An assessor's next article is replayed from their own judgements of the topic, in the order they
were first made (the event log): two assessors of one topic each follow their own judgements,
with the same seed, so equal judgements give equal orders, and neither sees the other's effect.
Each suggestion an assessor follows is logged (`EventKind.SUGGEST`, with the arm statistics),
and each change of order (`EventKind.JUDGING_ORDER`), so that a campaign can be replayed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.store.event_log import OPERATION_KINDS, EventKind, log_event
from focal.assessor.store.models import Assignment, Event, Judgement, Pool, PoolEntry, RunResult
from focal.pooling.forecast.model import TopicPool, topic_rng
from focal.pooling.forecast.topics import MIN_JUDGED, forecast_topic
from focal.pooling.ordering.arms import Arms
from focal.pooling.ordering.policies import POLICIES, Choice
from focal.pooling.ordering.replay import suggest

FIXED = "fixed"
"""No adaptive order: "next" follows the pool's display order."""
ORDERS = (FIXED, *POLICIES)


@dataclass(frozen=True, slots=True)
class TopicOrder:
    """A topic's judging order as the organiser set it."""

    topic: str
    policy: str
    seed: int
    budget: int | None


def topic_pool(session: Session, topic: str) -> Pool | None:
    """The stored pool of `topic`, if any."""
    return session.scalars(select(Pool).where(Pool.topic_id == topic)).first()


def topic_order(pool: Pool | None) -> TopicOrder | None:
    """The order kept in `pool`'s parameters (None for a fixed order or no pool)."""
    if pool is None:
        return None
    parameters = pool.parameters or {}
    policy = parameters.get("policy", FIXED)
    if policy == FIXED or policy not in POLICIES:
        return None
    budget = parameters.get("budget")
    return TopicOrder(
        pool.topic_id,
        policy,
        int(parameters.get("policy_seed", 0)),
        None if budget is None else int(budget),
    )


def set_order(
    session: Session,
    policy: str,
    topics: Sequence[str] | None = None,
    seed: int = 0,
    budget: int | None = None,
    user_id: int | None = None,
) -> list[str]:
    """Give every pooled topic (or `topics`) the judging order `policy` (`FIXED` to go back to
    the display order); returns the topics changed. ValueError for an unknown policy, a
    negative budget or a topic without a pool."""
    if policy not in ORDERS:
        raise ValueError(f"unknown judging order {policy!r}: one of {', '.join(ORDERS)}")
    if budget is not None and budget < 1:
        raise ValueError(f"a budget is at least one judgement, got {budget}")
    pools = {pool.topic_id: pool for pool in session.scalars(select(Pool))}
    wanted = sorted(pools) if not topics else list(dict.fromkeys(topics))
    missing = [topic for topic in wanted if topic not in pools]
    if missing:
        raise ValueError(f"topic {missing[0]} has no pool: build it first")
    for topic in wanted:
        pool = pools[topic]
        chosen = {"policy": policy, "policy_seed": seed, "budget": budget}
        pool.parameters = {**(pool.parameters or {}), **chosen}
        log_event(
            session,
            EventKind.JUDGING_ORDER,
            assignment_id=None,
            user_id=user_id,
            payload={"topic": topic, "policy": policy, "seed": seed, "budget": budget},
        )
    session.flush()
    return wanted


def history(session: Session, assignment: Assignment) -> list[tuple[str, bool]]:
    """(article, relevant) for each article the assessor has judged, in the order of its first
    judging operation (an imported judgement counts at its import)."""
    statuses = dict(
        session.execute(
            select(Judgement.article, Judgement.status).where(
                Judgement.assignment_id == assignment.id, Judgement.status != "unjudged"
            )
        ).all()
    )
    kinds = [kind.value for kind in (*OPERATION_KINDS, EventKind.IMPORT)]
    first = session.execute(
        select(Event.article, func.min(Event.id))
        .where(Event.assignment_id == assignment.id, Event.kind.in_(kinds))
        .group_by(Event.article)
    ).all()
    position = {article: index for article, index in first if article is not None}
    ordered = sorted(statuses, key=lambda article: (position.get(article, 2**62), article))
    return [(article, statuses[article] == "relevant") for article in ordered]


def topic_arms(session: Session, topic: str) -> Arms:
    """The runs as arms over `topic`'s pool (pool-rank order)."""
    pool = session.scalars(select(Pool).where(Pool.topic_id == topic)).one()
    query = select(PoolEntry.article).where(PoolEntry.pool_id == pool.id)
    articles = list(session.scalars(query.order_by(PoolEntry.pool_rank)))
    ranked: dict[int, list[str]] = {}
    for run_id, article in session.execute(
        select(RunResult.run_id, RunResult.article)
        .where(RunResult.topic_id == topic)
        .order_by(RunResult.run_id, RunResult.rank)
    ):
        ranked.setdefault(run_id, []).append(article)
    return Arms([(str(run_id), ranked[run_id]) for run_id in sorted(ranked)], articles)


def suggestion(
    session: Session, assignment: Assignment, pending: tuple[str, bool] | None = None
) -> Choice | None:
    """The article the topic's judging order offers this assessor next (None: the topic has a
    fixed order). `Choice.article` is None when the pool is judged or the budget spent.

    `pending` is a judgement the assessor's page made and the server may not hold yet (the
    page goes on without waiting for its save); it counts unless the server already holds one.
    """
    order = topic_order(topic_pool(session, assignment.topic_id))
    if order is None:
        return None
    judged = history(session, assignment)
    if pending is not None and pending[0] not in dict(judged):
        judged.append(pending)
    arms = topic_arms(session, assignment.topic_id)
    choice = suggest(order.policy, arms, judged, order.seed, assignment.topic_id)
    if order.budget is not None and len(judged) >= order.budget:
        return Choice(None, None, choice.arms)
    return choice


def _score(score: float) -> dict[str, Any]:
    """An arm's score as its event stores it: null with the reason when it has no finite value
    (`ucb` scores an arm not tried yet as infinite, so that it is tried first; orders that do
    not score runs give NaN)."""
    if math.isfinite(score):
        return {"score": score}
    reason = "not tried yet" if score == math.inf else "not scored by this order"
    return {"score": None, "score_reason": reason}


def log_suggestion(session: Session, assignment: Assignment, choice: Choice) -> None:
    """Record that the assessor was sent to `choice.article` (with what the policy knew)."""
    order = topic_order(topic_pool(session, assignment.topic_id))
    payload: dict[str, Any] = {
        "policy": None if order is None else order.policy,
        "seed": None if order is None else order.seed,
        "run": choice.run,
        "arms": [
            {
                "run": arm.run,
                "pulls": arm.pulls,
                "relevant": arm.relevant,
                **_score(arm.score),
                "exhausted": arm.exhausted,
            }
            for arm in choice.arms
        ],
    }
    log_event(
        session,
        EventKind.SUGGEST,
        assignment_id=assignment.id,
        user_id=assignment.user_id,
        article=choice.article,
        payload=payload,
    )


@dataclass(frozen=True, slots=True)
class TopicProgress:
    """Per topic and assessor: the order, its budget, judgements made, relevant found, and the
    forecast of relevant articles still unjudged with its 90 % interval (`focal.pooling.forecast`;
    `ready` once `MIN_JUDGED` judgements are made, before which the page waits)."""

    topic: str
    assessor: str
    policy: str
    budget: int | None
    pool_size: int
    judged: int
    relevant: int
    unjudged_relevant: float
    left_low: int
    left_high: int
    ready: bool


def order_progress(session: Session) -> list[TopicProgress]:
    """One row per assignment of a pooled topic, by topic then assessor."""
    rows = []
    pools = {pool.topic_id: pool for pool in session.scalars(select(Pool))}
    assignments = session.scalars(select(Assignment).order_by(Assignment.topic_id, Assignment.id))
    data: dict[str, TopicPool] = {}
    for assignment in assignments:
        pool = pools.get(assignment.topic_id)
        if pool is None:
            continue
        order = topic_order(pool)
        topic = assignment.topic_id
        if topic not in data:
            arms = topic_arms(session, topic)
            data[topic] = TopicPool(topic, arms.pool, tuple(tuple(r) for r in arms.lists))
        judged = dict(history(session, assignment))
        left = forecast_topic(data[topic], judged, topic_rng(0, topic)).forecast
        rows.append(
            TopicProgress(
                assignment.topic_id,
                assignment.user.name,
                FIXED if order is None else order.policy,
                None if order is None else order.budget,
                len(data[topic].pool),
                len(judged),
                sum(judged.values()),
                left.relevant_left,
                left.relevant_left_low,
                left.relevant_left_high,
                len(judged) >= MIN_JUDGED,
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class OrderForm:
    """What the judging-order form shows: the topic it applies to ("" for every pooled topic),
    that topic's order, and every topic's own order when they differ (so that a second submit
    does not reset topics set one by one)."""

    topic: str
    policy: str
    seed: int
    budget: int | None
    per_topic: tuple[tuple[str, str, int, int | None], ...]


def order_form(session: Session) -> OrderForm:
    """The form's defaults: the common order when every pooled topic has the same, otherwise
    the first topic with an adaptive order, and the list of what each topic has."""
    pools = sorted(session.scalars(select(Pool)), key=lambda pool: pool.topic_id)
    settings = []
    for pool in pools:
        order = topic_order(pool)
        settings.append(
            (pool.topic_id, FIXED, 0, None)
            if order is None
            else (pool.topic_id, order.policy, order.seed, order.budget)
        )
    distinct = {setting[1:] for setting in settings}
    if len(distinct) <= 1:
        policy, seed, budget = next(iter(distinct), (FIXED, 0, None))
        return OrderForm("", policy, seed, budget, ())
    first = next(setting for setting in settings if setting[1] != FIXED)
    return OrderForm(*first, tuple(s for s in settings if s[1] != FIXED))
