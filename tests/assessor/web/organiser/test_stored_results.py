"""What the database keeps of the agreement and adjudication pages (`store.topic_results`,
written by `campaign.results.topic_cache`): another process finds it instead of computing, never
finds it stale or written by other code, and page views storing it beside assessors' saves, on
SQLite and on PostgreSQL, lose no acknowledged save.

The campaign is this folder's conftest.py's (`doubled`); each "process" is a new app on the same
database, with its own engine, as a gunicorn worker has.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select, update

from focal.assessor.campaign.results import adjudication, agreement_overview, topic_cache
from focal.assessor.campaign.results.adjudication import QueueItem
from focal.assessor.campaign.results.highlights import Highlights
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Event, Judgement, TopicResult
from focal.evaluation.statistics.agreement.assessors import TopicAgreement
from focal.evaluation.statistics.agreement.unitizing import Continuum

from ...conftest import Seeded

RATIOS = ("docs_agreement", "kappa", "both_over_a", "both_over_b", "both_over_union", "char_f1")
RATIOS += ("alpha_u", "alpha")
WRITES = 12
"""Saves of each assessor while the pages are viewed in the concurrency test."""


def _stored(seeded: Seeded) -> dict[tuple[str, str], str]:
    with db.session_scope(seeded.app) as session:
        rows = session.execute(select(TopicResult.kind, TopicResult.topic_id, TopicResult.stamps))
        return {(kind, topic): key for kind, topic, key in rows}


def test_another_process_finds_what_one_computed_and_computes_nothing(
    doubled: Seeded,
    other_process: Callable[[], dict[str, str]],
    fresh: Callable[[], dict[str, str]],
    computed: dict[str, list[set[str]]],
) -> None:
    first = fresh()
    assert computed == {"agreement": [{"1", "2"}], "queue": [{"1", "2"}]}
    assert set(_stored(doubled)) == {(k, t) for k in ("agreement", "queue") for t in ("1", "2")}
    computed["agreement"].clear()
    computed["queue"].clear()
    assert other_process() == first
    assert computed == {"agreement": [], "queue": []}, "found in the database, not computed"

    with db.session_scope(doubled.app) as session:
        bob = session.get_one(Assignment, doubled.bob)
        judgements.mark_nonrelevant(session, bob, "1002", "b9")
    changed = other_process()
    assert computed == {"agreement": [{"1"}], "queue": [{"1"}]}, "only the changed topic"
    assert other_process() == changed
    assert computed == {"agreement": [{"1"}], "queue": [{"1"}]}, "the third process computes none"
    assert changed == fresh() and changed != first


@pytest.mark.parametrize("spoil", ["another format", "another release", "unreadable value"])
def test_a_row_written_by_other_code_is_computed_again(
    doubled: Seeded,
    other_process: Callable[[], dict[str, str]],
    fresh: Callable[[], dict[str, str]],
    computed: dict[str, list[set[str]]],
    monkeypatch: pytest.MonkeyPatch,
    spoil: str,
) -> None:
    """A row whose value would be shown wrongly: a zeroed row under another format's or another
    release's key (the stamps as they are), or a value that does not decode."""
    expected = fresh()
    if spoil == "another format":
        monkeypatch.setattr(agreement_overview, "CODEC", _raised(agreement_overview.CODEC))
        monkeypatch.setattr(adjudication, "CODEC", _raised(adjudication.CODEC))
    elif spoil == "another release":
        monkeypatch.setattr(topic_cache, "__version__", "0.0.0-other")
    unreadable = {"agreement": "{}", "queue": '[["1001"]]'}
    with db.session_scope(doubled.app) as session:
        for kind, topic in _stored(doubled):
            value = unreadable[kind] if spoil == "unreadable value" else json.dumps(_zeroed(kind))
            session.execute(
                update(TopicResult)
                .where(TopicResult.kind == kind, TopicResult.topic_id == topic)
                .values(value=value)
            )
    computed["agreement"].clear()
    computed["queue"].clear()
    assert other_process() == expected
    assert computed == {"agreement": [{"1", "2"}], "queue": [{"1", "2"}]}


def _raised(codec: topic_cache.Codec[Any]) -> topic_cache.Codec[Any]:
    return topic_cache.Codec(codec.kind, codec.version + 1, codec.encode, codec.decode)


def _zeroed(kind: str) -> object:
    """A value of `kind` that decodes but is wrong for every topic of the campaign."""
    if kind == "queue":
        return []
    return {
        "row": None,
        "passages": {"observers": None, "length": 0, "observed": 0, "units": [], "gaps": []},
    }


def test_values_come_back_from_the_database_exactly() -> None:
    """Random rows, continua and queues, through JSON text and back: equal, every float bit."""
    rng = random.Random(20101)

    def number() -> float | None:
        return rng.choice([None, rng.random(), -rng.random() * 1e-9, 1 / 3, 2.0])

    for _ in range(300):
        counts = {name: rng.randrange(10**9) for name in ("docs_a", "docs_b", "docs_both")}
        chars = {name: rng.randrange(10**12) for name in ("chars_a", "chars_b", "chars_both")}
        ratios = {name: number() for name in RATIOS}
        row = TopicAgreement(
            topic=str(rng.randrange(1000)),
            judged_both=rng.randrange(5000),
            **counts,
            **chars,
            **ratios,
        )
        lengths = tuple(rng.randrange(1, 10**6) for _ in range(rng.randrange(40)))
        passages = Continuum(
            rng.choice([None, 2, 3]),
            rng.randrange(10**8),
            rng.randrange(10**15),
            lengths,
            lengths[::-1],
        )
        found = agreement_overview._TopicRow(rng.choice([None, row]), passages)
        codec = agreement_overview.CODEC
        assert codec.decode(json.loads(json.dumps(codec.encode(found)))) == found

        def side(name: str) -> Highlights:
            spans = [
                (start, start + rng.randrange(1, 50)) for start in range(0, rng.randrange(300), 60)
            ]
            status = rng.choice(["relevant", "nonrelevant", "unjudged"])
            return Highlights(name, status, spans, rng.choice([None, rng.randrange(300)]))

        items = tuple(
            QueueItem(
                str(rng.randrange(10**7)),
                rng.choice([1.0, rng.random()]),
                None,
                (side("a"), side("b")),
            )
            for _ in range(rng.randrange(20))
        )
        queue = adjudication.CODEC
        assert queue.decode(json.loads(json.dumps(queue.encode(items)))) == items


def test_page_views_storing_results_lose_no_acknowledged_save(
    doubled: Seeded,
    other_process: Callable[[], dict[str, str]],
    fresh: Callable[[], dict[str, str]],
) -> None:
    """Alice and Bob save best entry points (each save acknowledged when its transaction has
    committed) while two other processes view the pages over and over, each view storing the
    topics it computed. Every acknowledged save is in the database, and the pages of a process
    that finds what the others stored are those computed from the judgements alone."""
    saves = {
        "alice": (doubled.alice, range(5, 5 + WRITES)),
        "bob": (doubled.bob, range(9, 9 + WRITES)),
    }
    acknowledged: dict[str, list[str]] = {name: [] for name in saves}
    errors: list[BaseException] = []
    start = threading.Barrier(len(saves) + 2)
    writing = threading.Event()
    views = [0, 0]

    def save(name: str) -> None:
        assignment, offsets = saves[name]
        try:
            start.wait()
            for number, offset in enumerate(offsets):
                op_id = f"{name}-race-{number}"
                with db.session_scope(doubled.app) as session:
                    mine = session.get_one(Assignment, assignment)
                    judgements.set_bep(session, mine, "1001", op_id, offset)
                acknowledged[name].append(op_id)
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    def view(number: int) -> None:
        try:
            start.wait()
            while writing.is_set() or views[number] == 0:
                other_process()
                views[number] += 1
        except BaseException as error:
            errors.append(error)

    writing.set()
    writers = [threading.Thread(target=save, args=(name,)) for name in saves]
    viewers = [threading.Thread(target=view, args=(number,)) for number in range(2)]
    for thread in [*writers, *viewers]:
        thread.start()
    for thread in writers:
        thread.join(timeout=300)
    writing.clear()
    for thread in viewers:
        thread.join(timeout=300)
    assert not errors, errors
    assert all(not thread.is_alive() for thread in [*writers, *viewers])
    assert min(views) >= 1
    with db.session_scope(doubled.app) as session:
        for name, (assignment, offsets) in saves.items():
            assert acknowledged[name] == [f"{name}-race-{n}" for n in range(WRITES)]
            logged = session.scalar(
                select(func.count()).where(
                    Event.assignment_id == assignment, Event.op_id.in_(acknowledged[name])
                )
            )
            assert logged == WRITES, f"every save of {name} is logged"
            bep = session.scalar(
                select(Judgement.bep).where(
                    Judgement.assignment_id == assignment, Judgement.article == "1001"
                )
            )
            assert bep == offsets[-1], f"{name}'s last acknowledged save is the stored one"
    assert other_process() == fresh()
