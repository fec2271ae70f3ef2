"""Who assesses which topic, as one matrix: topics × assessors, with progress (no Flask).

A tick in a cell is an assignment (`focal.assessor.campaign.people.users.assign_topic`, as `focal
assign`);
two ticks in a row are a double-judged topic. Taking a topic away is refused while the assessor
has judged articles of it: their work would be deleted with the assignment (`focal assign
--remove` does that deliberately, after an export). Progress counts articles judged relevant
or not relevant against the pool's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people.users import assign_topic, find_user, unassign_topic
from focal.assessor.store.models import Assignment, Judgement, Pool, PoolEntry, Topic, User
from focal.pooling.records import natural_key


@dataclass(frozen=True, slots=True)
class Cell:
    assessor: str
    assignment_id: int | None  # None: not assigned
    judged: int


@dataclass(frozen=True, slots=True)
class TopicRow:
    topic: Topic
    pool_size: int
    cells: tuple[Cell, ...]  # one per assessor, in the matrix's column order

    @property
    def assessors(self) -> int:
        return sum(1 for cell in self.cells if cell.assignment_id is not None)

    @property
    def judged(self) -> int:
        return sum(cell.judged for cell in self.cells)

    @property
    def to_judge(self) -> int:
        """Pool size times the number of assessors: every judgement the topic needs."""
        return self.pool_size * self.assessors


@dataclass(frozen=True, slots=True)
class AssessorColumn:
    user: User
    topics: int
    judged: int
    to_judge: int  # the pool sizes of the assessor's topics, added up


@dataclass(frozen=True, slots=True)
class Matrix:
    columns: tuple[AssessorColumn, ...]
    rows: tuple[TopicRow, ...]


def judged_counts(session: Session) -> dict[int, int]:
    """Assignment id -> articles judged (relevant or not relevant)."""
    return {
        int(assignment): int(count)
        for assignment, count in session.execute(
            select(Judgement.assignment_id, func.count(Judgement.id))
            .where(Judgement.status != "unjudged")
            .group_by(Judgement.assignment_id)
        )
    }


def assignment_matrix(session: Session) -> Matrix:
    """Every topic (natural order) against every assessor (by name), with progress."""
    assessors = list(
        session.scalars(select(User).where(User.role == "assessor").order_by(User.name))
    )
    topics = sorted(session.scalars(select(Topic)), key=lambda topic: natural_key(topic.id))
    sizes = dict(
        session.execute(
            select(Pool.topic_id, func.count(PoolEntry.id)).join(PoolEntry).group_by(Pool.topic_id)
        ).all()
    )
    assigned = {(row.topic_id, row.user_id): row.id for row in session.scalars(select(Assignment))}
    judged = judged_counts(session)
    rows = []
    for topic in topics:
        cells = []
        for user in assessors:
            assignment = assigned.get((topic.id, user.id))
            done = judged.get(assignment, 0) if assignment is not None else 0
            cells.append(Cell(user.name, assignment, done))
        rows.append(TopicRow(topic, int(sizes.get(topic.id, 0)), tuple(cells)))
    columns = []
    for index, user in enumerate(assessors):
        mine = [row for row in rows if row.cells[index].assignment_id is not None]
        columns.append(
            AssessorColumn(
                user,
                len(mine),
                sum(row.cells[index].judged for row in mine),
                sum(row.pool_size for row in mine),
            )
        )
    return Matrix(tuple(columns), tuple(rows))


def set_assignment(session: Session, topic_id: str, name: str, assigned: bool) -> None:
    """Tick (`assigned`) or untick one cell; unticking a topic with judged work is refused."""
    if assigned:
        assign_topic(session, topic_id, name)
        return
    user = find_user(session, name)
    assignment = session.scalars(
        select(Assignment).where(Assignment.topic_id == topic_id, Assignment.user_id == user.id)
    ).first()
    if assignment is None:
        return  # already unticked (e.g. a second click in another tab)
    done = judged_counts(session).get(assignment.id, 0)
    if done:
        raise CampaignError(
            f"{name} has judged {done} article(s) of topic {topic_id}; export them, then "
            "remove the assignment with `focal assign --remove`"
        )
    unassign_topic(session, topic_id, name)
