"""When the assessment page showed an article and when its assessor left it (no Flask).

The page reports `shown` when the article is displayed (loaded, or its tab visible again) and
`left` when it is hidden or unloaded; each report carries a random `event_id`, so a report sent
twice is stored once, and the browser's time. Only the assignment's own assessor is timed: an
organiser looking at the page read-only is not assessing. The analytics of spec section 10
(`campaign.timing`) read these rows with the operations of the `Event` log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.judging.operations import InvalidOperation, parse_client_time
from focal.assessor.store.event_log import VIEW_KINDS, EventKind, log_view
from focal.assessor.store.models import Assignment, Pool, PoolEntry, User, ViewEvent

KINDS = tuple(kind.value for kind in VIEW_KINDS)


class ViewError(CampaignError):
    """A view report that cannot be stored: `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def record_view(
    session: Session, assignment_id: int, user: User, article: str, data: Mapping[str, Any]
) -> bool:
    """Store one `shown`/`left` report of `user`'s own assignment; False when already stored.

    ViewError 400 for a malformed report, 404 for an assignment that is not the user's or an
    article outside its pool. Commits.
    """
    kind, event_id = data.get("kind"), data.get("event_id")
    if not isinstance(kind, str) or kind not in KINDS:
        raise ViewError(f"kind must be one of {', '.join(KINDS)}", 400)
    if not isinstance(event_id, str) or not 1 <= len(event_id) <= 100:
        raise ViewError("event_id must be a string of 1 to 100 characters", 400)
    try:
        client_time = parse_client_time(data.get("client_time"))
    except InvalidOperation as error:
        raise ViewError(str(error), 400) from error
    assignment = session.get(Assignment, assignment_id)
    if assignment is None or assignment.user_id != user.id:
        raise ViewError(f"no assignment {assignment_id} of yours", 404)
    pooled = session.scalar(
        select(PoolEntry.id)
        .join(Pool, PoolEntry.pool_id == Pool.id)
        .where(Pool.topic_id == assignment.topic_id, PoolEntry.article == article)
    )
    if pooled is None:
        raise ViewError(f"article {article} is not in the pool of topic {assignment.topic_id}", 404)
    known = select(ViewEvent.id).where(
        ViewEvent.assignment_id == assignment_id, ViewEvent.event_id == event_id
    )
    if session.scalar(known) is not None:
        return False
    try:
        log_view(
            session,
            EventKind(kind),
            assignment_id=assignment_id,
            article=article,
            event_id=event_id,
            client_time=client_time,
        )
        session.commit()
    except IntegrityError:  # the same report, stored meanwhile by a concurrent request
        session.rollback()
        return False
    return True
