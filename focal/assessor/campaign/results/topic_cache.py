"""What the agreement and adjudication pages derive from each double-judged topic, kept per topic
and recomputed only for the topics whose judgements changed (no Flask).

The agreement overview and the adjudication topics page read every double-judged topic's two
assessors: 78,062 judgements at INEX 2010 size, seconds a page (docs/performance.md,
"Assessors at once"). What a page derives from one topic (its agreement row, its queue of
disagreements) is kept here, in the process, per database, beside the `Stamp`s of the two
assignments it was computed from. A page reads every compared assignment's stamp in one
grouped statement and recomputes only the topics whose stamps moved.

A stamp is, per assignment, how many judgement rows it has, the sums of their ids and versions,
and their latest `updated_at`. Every writer of a judgement moves it: an operation bumps the
row's `version` and sets `updated_at` (`judging.persist`); an import or a first operation
inserts a row (one more row, a new id, the time of now); deleting an assignment deletes its
rows, and the topic's compared pair changes with it (a stamp is kept with the pair's
assignment ids and names). The length a qrels line gives an article cannot change once it is
judged (`setup.importing` refuses another text). The gold is not kept: the pages read it.

Concurrent writers: a page reads the stamps before the judgements, so a value is never older
than the stamp it is kept under. A write committed in between leaves a value newer than its
stamp, shown as it is (current), and recomputed by the next page, whose stamp has moved. What
is kept is immutable and replaced whole, under a lock, so threads of one process share it.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from focal.assessor.store.models import Assignment, Judgement, User

Value = TypeVar("Value")


@dataclass(frozen=True, slots=True)
class Pair:
    """The two assessors a double-judged topic is compared between: its first two by name."""

    names: tuple[str, str]
    assignments: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Stamp:
    """Where one assignment's judgements stand: moved by every write of one of them."""

    rows: int
    ids: int
    versions: int
    updated: datetime | None


def compared_pairs(session: Session, topic: str | None = None) -> dict[str, Pair]:
    """Every topic with two assessors or more (only `topic` when given) and its pair, in one
    statement; the topics in the order of their ids as stored (callers sort them)."""
    query = (
        select(Assignment.topic_id, Assignment.id, User.name)
        .join(User, Assignment.user_id == User.id)
        .order_by(User.name)
    )
    if topic is not None:
        query = query.where(Assignment.topic_id == topic)
    assessors: dict[str, list[tuple[str, int]]] = {}
    for topic_id, assignment, name in session.execute(query):
        assessors.setdefault(topic_id, []).append((name, assignment))
    return {
        topic_id: Pair((found[0][0], found[1][0]), (found[0][1], found[1][1]))
        for topic_id, found in assessors.items()
        if len(found) > 1
    }


def stamps(session: Session, assignments: Iterable[int]) -> dict[int, Stamp]:
    """The stamp of each assignment (one grouped statement); an assignment without any
    judgement row has none."""
    wanted = sorted(set(assignments))
    if not wanted:
        return {}
    rows = session.execute(
        select(
            Judgement.assignment_id,
            func.count(),
            func.sum(Judgement.id),
            func.sum(Judgement.version),
            func.max(Judgement.updated_at),
        )
        .where(Judgement.assignment_id.in_(wanted))
        .group_by(Judgement.assignment_id)
    )
    return {
        assignment: Stamp(count, int(ids), int(versions), updated)
        for assignment, count, ids, versions, updated in rows
    }


_Key = tuple[Pair, Stamp | None, Stamp | None]
_LOCK = threading.Lock()
_KEPT: weakref.WeakKeyDictionary[Engine, dict[tuple[str, str], tuple[_Key, Any]]] = (
    weakref.WeakKeyDictionary()
)


def _kept_of(session: Session) -> dict[tuple[str, str], tuple[_Key, Any]]:
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    with _LOCK:
        return _KEPT.setdefault(engine, {})


def per_topic(
    session: Session,
    kind: str,
    pairs: Mapping[str, Pair],
    compute: Callable[[dict[str, Pair]], Mapping[str, Value]],
) -> dict[str, Value]:
    """`kind`'s value of each topic of `pairs`: kept, or `compute`d for the topics whose pair or
    stamps changed since (every one the first time) and kept for the next page.

    `compute` gets the topics to compute with their pairs and must answer each of them.
    """
    now = stamps(session, (a for pair in pairs.values() for a in pair.assignments))
    kept = _kept_of(session)
    keys = {
        topic: (pair, now.get(pair.assignments[0]), now.get(pair.assignments[1]))
        for topic, pair in pairs.items()
    }
    found: dict[str, Value] = {}
    stale: dict[str, Pair] = {}
    with _LOCK:
        for topic, key in keys.items():
            entry = kept.get((kind, topic))
            if entry is not None and entry[0] == key:
                found[topic] = entry[1]
            else:
                stale[topic] = pairs[topic]
    if stale:
        computed = compute(stale)
        with _LOCK:
            for topic in stale:
                kept[(kind, topic)] = (keys[topic], computed[topic])
                found[topic] = computed[topic]
    return found
