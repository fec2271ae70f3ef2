"""What an organiser changes about another user in the browser: the role, and whether the user
may log in (no Flask).

Each change is an `account` event in the activity log (who changed whom, from what to what), so
that a campaign's record says who could judge or organise when. A campaign always keeps an
organiser who can log in: the last one can be neither given another role nor disabled, or
nobody could manage users any more (docs/assessor.md, "Organiser screens").
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.users import disable_user, enable_user, end_sessions
from focal.assessor.store.event_log import EventKind, log_event
from focal.assessor.store.models import ROLES, User


def keep_an_organiser(session: Session, user: User) -> None:
    """CampaignError when `user` is the last organiser who can log in."""
    if user.role != "organiser" or user.disabled_at is not None:
        return
    others = session.scalar(
        select(func.count())
        .select_from(User)
        .where(User.role == "organiser", User.disabled_at.is_(None), User.id != user.id)
    )
    if not others:
        raise CampaignError(
            f"{user.name} is the last organiser who can log in: make another user an "
            "organiser first"
        )


def _log(session: Session, by: User, user: User, change: str, before: str, after: str) -> None:
    payload = {"user": user.name, "change": change, "before": before, "after": after}
    log_event(session, EventKind.ACCOUNT, assignment_id=None, user_id=by.id, payload=payload)


def change_role(session: Session, by: User, user: User, role: str) -> bool:
    """Give `user` `role` (ending their sessions, which carried the old role); False when they
    have it already. CampaignError for an unknown role or the last organiser."""
    if role not in ROLES:
        raise CampaignError(f"role: expected {' or '.join(ROLES)}, not {role!r}")
    if role == user.role:
        return False
    keep_an_organiser(session, user)
    before, user.role = user.role, role
    end_sessions(user)
    _log(session, by, user, "role", before, role)
    session.flush()
    return True


def set_enabled(session: Session, by: User, user: User, enabled: bool) -> bool:
    """Let `user` log in again, or disable them (their sessions end and their API tokens are
    revoked); False when nothing changes. CampaignError for the last organiser."""
    if enabled == (user.disabled_at is None):
        return False
    if enabled:
        enable_user(user)
    else:
        keep_an_organiser(session, user)
        disable_user(session, user)
    before, after = ("disabled", "enabled") if enabled else ("enabled", "disabled")
    _log(session, by, user, "log-in", before, after)
    session.flush()
    return True
