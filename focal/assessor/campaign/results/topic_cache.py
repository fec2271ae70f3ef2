"""What the agreement and adjudication pages derive from each double-judged topic, kept per topic
(in the process and in the database) and recomputed only for the topics whose judgements changed
(no Flask).

The agreement overview and the adjudication topics page read every double-judged topic's two
assessors: 78,062 judgements at INEX 2010 size, a second a page (docs/performance.md,
"Assessors at once"). What a page derives from one topic (its agreement row, its queue of
disagreements) is kept beside the key it was computed under: the kind's `Codec` version,
Focal's version, the compared pair and the `Stamp`s of its two assignments. A page reads every
compared assignment's stamp in one grouped statement; a topic whose key is unchanged is taken
from the process, else from the database (`store.topic_results`, written by whichever process
computed it first: every worker and every restart finds it), else computed, kept in both.

A stamp is, per assignment, how many judgement rows it has, the sums of their ids and versions,
and their latest `updated_at`. Every writer of a judgement moves it: an operation bumps the
row's `version` and sets `updated_at` (`judging.persist`); an import or a first operation
inserts a row (one more row, a new id, the time of now); deleting an assignment deletes its
rows, and the topic's compared pair changes with it (a key holds the pair's assignment ids and
names). The length a qrels line gives an article cannot change once it is judged
(`setup.importing` refuses another text). The gold is not kept: the pages read it. A change of
what a kind computes, or of how it is written, raises its `Codec.version`; a new release of
Focal changes the key too, so rows written by other code are computed again, never shown.

Concurrent writers: a page reads the stamps before the judgements, so a value is never older
than the key it is kept under. A write committed in between leaves a value newer than its key,
shown as it is (current), and recomputed by the next page, whose stamps have moved. Two
processes writing a topic's row at once: the last one wins, and either's row is only used
under its own key. The database's rows are written in a transaction of their own, after the
page's reads, and a write that fails (a lock, a topic deleted meanwhile) leaves the page's
answer as it is. What the process keeps is immutable and replaced whole, under a lock, so
threads of one process share it.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from focal._version import __version__
from focal.assessor.store.models import Assignment, Judgement, TopicResult, User
from focal.assessor.store.upserts import upsert

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


@dataclass(frozen=True, slots=True)
class Codec(Generic[Value]):
    """How one kind of value is kept: its name, its format's version (raised whenever what is
    computed or how it is written changes) and its conversion to JSON-ready data and back."""

    kind: str
    version: int
    encode: Callable[[Value], object]
    decode: Callable[[Any], Value]


def key_text(codec: Codec[Any], pair: Pair, first: Stamp | None, second: Stamp | None) -> str:
    """The key a topic's value is kept under, as the JSON text stored beside it."""

    def stamp(found: Stamp | None) -> object:
        if found is None:
            return None
        updated = None if found.updated is None else str(found.updated)
        return [found.rows, found.ids, found.versions, updated]

    key = [codec.version, __version__, pair.names, pair.assignments, stamp(first), stamp(second)]
    return json.dumps(key, separators=(",", ":"))


_LOCK = threading.Lock()
_KEPT: weakref.WeakKeyDictionary[Engine, dict[tuple[str, str], tuple[str, Any]]] = (
    weakref.WeakKeyDictionary()
)
_log = logging.getLogger(__name__)


def _engine(session: Session) -> Engine:
    bind = session.get_bind()
    return bind if isinstance(bind, Engine) else bind.engine


def _kept_of(session: Session) -> dict[tuple[str, str], tuple[str, Any]]:
    engine = _engine(session)
    with _LOCK:
        return _KEPT.setdefault(engine, {})


class _Collector:
    """Python's cyclic garbage collector, paused while values are computed or read back.

    Computing or decoding every topic makes hundreds of thousands of small objects (a qrels line
    and its spans per judgement, a queue item and its two sides per disagreement), none of them
    in a cycle; making them sets off the collector's passes again and again, the full ones over
    the whole growing heap: a third of the computing's time and two thirds of the decoding's at
    INEX 2010 size (docs/performance.md, "Assessors at once"). The values are the same. Threads
    may overlap: the first to pause turns the collector off, the last to resume turns it back on
    (unless it was off to begin with).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pauses = 0
        self._was_on = False

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self._lock:
            if self._pauses == 0:
                self._was_on = gc.isenabled()
                gc.disable()
            self._pauses += 1
        try:
            yield
        finally:
            with self._lock:
                self._pauses -= 1
                if self._pauses == 0 and self._was_on:
                    gc.enable()


_COLLECTOR = _Collector()


def per_topic(
    session: Session,
    codec: Codec[Value],
    pairs: Mapping[str, Pair],
    compute: Callable[[dict[str, Pair]], Mapping[str, Value]],
) -> dict[str, Value]:
    """`codec.kind`'s value of each topic of `pairs`: kept by the process, else stored in the
    database under the same key, else `compute`d for the topics left (every one the first time
    anywhere) and kept in both for the next page.

    `compute` gets the topics to compute with their pairs and must answer each of them.
    """
    now = stamps(session, (a for pair in pairs.values() for a in pair.assignments))
    kept = _kept_of(session)
    keys = {
        topic: key_text(codec, pair, now.get(pair.assignments[0]), now.get(pair.assignments[1]))
        for topic, pair in pairs.items()
    }
    found: dict[str, Value] = {}
    with _LOCK:
        for topic, key in keys.items():
            entry = kept.get((codec.kind, topic))
            if entry is not None and entry[0] == key:
                found[topic] = entry[1]
    missing = {topic: keys[topic] for topic in keys if topic not in found}
    if not missing:
        return found
    with _COLLECTOR.paused():
        stored = _stored(session, codec, missing)
        left = {topic: pairs[topic] for topic in missing if topic not in stored}
        computed = compute(left) if left else {}
    with _LOCK:
        for topic in missing:
            value = stored[topic] if topic in stored else computed[topic]
            kept[(codec.kind, topic)] = (keys[topic], value)
            found[topic] = value
    if computed:
        _store(session, codec, {topic: (keys[topic], computed[topic]) for topic in computed})
    return found


def _stored(session: Session, codec: Codec[Value], keys: Mapping[str, str]) -> dict[str, Value]:
    """The values the database holds for `keys`' topics under the same keys (a row written by
    other code, or that cannot be read back, is left for `compute`)."""
    rows = session.execute(
        select(TopicResult.topic_id, TopicResult.stamps, TopicResult.value).where(
            TopicResult.kind == codec.kind, TopicResult.topic_id.in_(sorted(keys))
        )
    )
    out: dict[str, Value] = {}
    for topic, key, value in rows:
        if key != keys.get(topic):
            continue
        try:
            out[topic] = codec.decode(json.loads(value))
        except (ValueError, TypeError, KeyError, IndexError):  # not this format after all
            continue
    return out


def _store(session: Session, codec: Codec[Value], values: Mapping[str, tuple[str, Value]]) -> None:
    """Keep `values` (topic -> key, value) in the database, in a transaction of its own: the
    page's session stays a reader. Topics in order, so concurrent writers lock rows in the same
    order; a failure is logged, never raised (the page has its answer)."""
    engine = _engine(session)
    if engine.url.get_backend_name() == "sqlite" and engine.url.database in (None, "", ":memory:"):
        return  # one connection's database: nothing to share, and no second transaction
    rows = [
        {
            "topic_id": topic,
            "kind": codec.kind,
            "stamps": key,
            "value": json.dumps(codec.encode(value), separators=(",", ":")),
        }
        for topic, (key, value) in sorted(values.items())
    ]
    try:
        with Session(engine) as writer, writer.begin():
            upsert(writer, TopicResult, rows, key=("topic_id", "kind"))
    except SQLAlchemyError as error:
        _log.warning("kept %s results of %d topics not stored: %s", codec.kind, len(rows), error)
