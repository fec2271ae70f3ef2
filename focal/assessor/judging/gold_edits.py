"""Adjudication steps as operations: each applied once, one at a time, and kept (no Flask).

A step changes an article's gold judgement (`store.gold`): a decision (one side's judgement
whole, their union or intersection) or a hand edit (highlight, unhighlight, best entry point).
It is applied as an assessor's operation is (`judging.persist`): in one transaction that first
takes a write lock (`persist.serialise_writes`: `BEGIN IMMEDIATE` on SQLite, on PostgreSQL
`SELECT ... FOR NO KEY UPDATE` of the topic's row, so the steps of one topic queue behind each
other), then reads the gold, applies the step to what it read, writes the gold and a
`GoldEvent`, and commits. So concurrent edits of separate ranges are all kept, and the first
write of an article's gold never races another. A unique violation all the same (a writer
outside this lock) is retried a bounded number of times.

`op_id` makes a step idempotent: sent again, it changes nothing and answers the gold. A step
may carry the version of the gold its page showed (decisions do): when the gold has changed
since, it is refused (`StaleGold`, 409) rather than silently replacing the newer gold.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from focal.assessor.judging.operations import Busy, Conflict, InvalidOperation
from focal.assessor.judging.persist import RETRIES, serialise_writes
from focal.assessor.judging.spans import Span
from focal.assessor.store.base import utcnow
from focal.assessor.store.gold import ACTIONS, GoldEvent, GoldJudgement
from focal.assessor.store.models import Topic, User


@dataclass(frozen=True, slots=True)
class Gold:
    """A gold judgement's content: verdict, passages, best entry point, how it was made."""

    status: str
    passages: tuple[Span, ...]
    bep: int | None
    decision: str

    def to_json(self) -> dict[str, Any]:
        """The form kept in `GoldEvent.previous` and `GoldEvent.gold`."""
        passages = [[start, end] for start, end in self.passages]
        return {"status": self.status, "passages": passages, "bep": self.bep,
                "decision": self.decision}  # fmt: skip

    @classmethod
    def of(cls, row: GoldJudgement) -> Gold:
        return cls(row.status, tuple((s, e) for s, e in row.passages), row.bep, row.decision)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Gold:
        passages = tuple((start, end) for start, end in data["passages"])
        return cls(data["status"], passages, data["bep"], data["decision"])


@dataclass(frozen=True, slots=True)
class Step:
    """One adjudication step: `action` (`store.gold.ACTIONS`), its `payload` (an edit's
    `start` and `end`), and the gold version its page showed (None: not checked)."""

    op_id: str
    action: str
    payload: dict[str, Any] = field(default_factory=dict)
    version: int | None = None

    def __post_init__(self) -> None:
        if not 0 < len(self.op_id) <= 100:
            raise InvalidOperation("op_id must be a string of 1 to 100 characters")
        if self.action not in ACTIONS:
            raise InvalidOperation(f"unknown step {self.action!r}: expected one of "
                                   f"{', '.join(ACTIONS)}")  # fmt: skip


class StaleGold(Conflict):
    """A step taken on a page that showed an older gold; `current` is the gold now (None when
    there is none) and `version` its version."""

    def __init__(self, article: str, seen: int, current: Gold | None, version: int) -> None:
        super().__init__(
            f"the gold of article {article} changed since you opened it (version {seen} then, "
            f"{version} now): look at it again before deciding",
            "stale_version",
        )
        self.current = current
        self.version = version


Make = Callable[[Gold | None], Gold]
"""What a step makes of the gold it read (None: no gold yet); raises to refuse the step."""

_LOCK_TOPIC = select(Topic.id).where(Topic.id == bindparam("topic")).with_for_update(key_share=True)


def apply_step(
    session: Session,
    where: tuple[str, str],
    step: Step,
    make: Make,
    user_id: int | None,
    assessors: tuple[str, str],
) -> GoldJudgement:
    """Apply `step` to the gold of `where` (topic, article) once, commit, return the gold row.

    `assessors` are the two compared assessors' names, kept on the row. Whatever `make`
    raises is raised after the rollback; `StaleGold` when `step.version` is not the gold's;
    `Conflict` (`op_id_reused`) when its op_id was used for another step of the article.
    """
    for attempt in range(RETRIES):
        try:
            serialise_writes(session, _LOCK_TOPIC, {"topic": where[0]})
            row = _apply_once(session, where, step, make, user_id, assessors)
            session.commit()
            return row
        except IntegrityError:
            session.rollback()  # a writer outside the lock won the first insert: look again
            time.sleep(random.uniform(0, min(0.05, 0.002 * 2**attempt)))
        except BaseException:
            session.rollback()
            raise
    raise Busy("the gold is being changed outside Focal's lock; send the step again")


def _apply_once(
    session: Session,
    where: tuple[str, str],
    step: Step,
    make: Make,
    user_id: int | None,
    assessors: tuple[str, str],
) -> GoldJudgement:
    topic, article = where
    row = _gold_row(session, topic, article)
    done = session.scalars(
        select(GoldEvent.action).where(
            GoldEvent.topic_id == topic, GoldEvent.article == article, GoldEvent.op_id == step.op_id
        )
    ).first()
    previous = Gold.of(row) if row is not None else None
    version = row.version if row is not None else 0
    if done is not None:  # a replay: change nothing
        if done != step.action or row is None:
            raise Conflict(f"op_id {step.op_id} was already used for another step", "op_id_reused")
        return row
    if step.version is not None and step.version != version:
        raise StaleGold(article, step.version, previous, version)
    gold = make(previous)
    if row is None:
        row = GoldJudgement(topic_id=topic, article=article)
        session.add(row)
    now = utcnow()
    row.status, row.passages, row.bep = gold.status, [list(p) for p in gold.passages], gold.bep
    row.decision, (row.assessor_a, row.assessor_b) = gold.decision, assessors
    row.decided_by, row.decided_at, row.version = user_id, now, version + 1
    name = None if user_id is None else session.scalar(select(User.name).where(User.id == user_id))
    session.add(
        GoldEvent(
            topic_id=topic,
            article=article,
            op_id=step.op_id,
            action=step.action,
            payload=dict(step.payload),
            previous=None if previous is None else previous.to_json(),
            gold=gold.to_json(),
            version=version + 1,
            user_id=user_id,
            user_name=name,
            at=now,
        )
    )
    session.flush()
    return row


def _gold_row(session: Session, topic: str, article: str) -> GoldJudgement | None:
    """The gold row as stored now (not as an object the session already holds remembers it)."""
    query = (
        select(GoldJudgement)
        .where(GoldJudgement.topic_id == topic, GoldJudgement.article == article)
        .execution_options(populate_existing=True)
    )
    return session.scalars(query).first()


def gold_version(session: Session, topic: str, article: str) -> int:
    """The version of the article's gold: 0 until one is decided, then one more per step."""
    found = session.scalar(
        select(GoldJudgement.version).where(
            GoldJudgement.topic_id == topic, GoldJudgement.article == article
        )
    )
    return 0 if found is None else found


def history(
    session: Session, topic: str | None = None, article: str | None = None
) -> list[GoldEvent]:
    """Every adjudication step (of one topic, of one article), in the order they were applied."""
    query = select(GoldEvent).order_by(GoldEvent.id)
    if topic is not None:
        query = query.where(GoldEvent.topic_id == topic)
    if article is not None:
        query = query.where(GoldEvent.article == article)
    return list(session.scalars(query))
