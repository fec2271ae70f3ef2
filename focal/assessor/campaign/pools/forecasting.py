"""The campaign's forecast for the organiser's Pools page: what the judgements left could change.

Per topic of the database's pools, the judgements of its assessor with the most judgements
(double judging would otherwise count an article twice) and the runs' results as imported; then
`focal.pooling.forecast` (docs/forecast.md): relevant articles left per topic with an interval,
pairs of runs settled, where judging would settle the rest, topics that may stop. Computed on
each request (a demo campaign takes a few milliseconds; INEX 2010's 52 topics under a second).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools.ordering import history, topic_arms
from focal.assessor.store.models import Assignment, Pool, Run
from focal.pooling.forecast.model import TopicPool
from focal.pooling.forecast.ranking import Forecast, forecast

CONFIDENCE = 0.9
"""The Pools page's intervals and settled pairs are at 90 % (`focal pool forecast`'s default)."""


def campaign_forecast(session: Session) -> Forecast | None:
    """The forecast of every pooled topic (None without a pool or with fewer than two runs)."""
    pools = list(session.scalars(select(Pool).order_by(Pool.topic_id)))
    runs: dict[int, str] = {
        run_id: name for run_id, name in session.execute(select(Run.id, Run.name))
    }
    if not pools or len(runs) < 2:
        return None
    data: list[TopicPool] = []
    judged: dict[str, dict[str, bool]] = {}
    names: list[str] | None = None
    for pool in pools:
        arms = topic_arms(session, pool.topic_id)
        full = {str(run_id): () for run_id in sorted(runs)}
        lists = dict(zip(arms.names, arms.lists, strict=True))
        data.append(TopicPool(pool.topic_id, arms.pool,
                              tuple(tuple(lists.get(run, full[run])) for run in full)))  # fmt: skip
        names = [runs[int(run)] for run in full]
        assignments = session.scalars(
            select(Assignment).where(Assignment.topic_id == pool.topic_id)
        )
        histories = [dict(history(session, assignment)) for assignment in assignments]
        judged[pool.topic_id] = max(histories, key=len, default={})
    return forecast(data, names or [], judged, CONFIDENCE)
