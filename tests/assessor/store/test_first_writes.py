"""First writes of the tables with one row per key, raced by real threads on SQLite and on a
real PostgreSQL server: every writer succeeds and the row exists once (`store.upserts`).

Each case starts `WRITERS` threads at one barrier, each with its own session (its own
connection), all writing the first row of the same key; the row is removed between rounds so
that each round races a first write again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.people import adjudicators, assignments, notes, users
from focal.assessor.judging import elements, judgements
from focal.assessor.store import db
from focal.assessor.store.event_log import EventKind
from focal.assessor.store.gold import TopicAdjudicator
from focal.assessor.store.models import (
    ArticleNote,
    Assignment,
    ElementValueRow,
    Event,
    Judgement,
    Keyword,
    TopicMode,
    TopicResult,
)
from focal.assessor.store.settings import CampaignSettings, CampaignSettingsRow, save_settings
from focal.assessor.store.upserts import upsert
from focal.evaluation.relevance.twophase_records import ElementValue

from ..conftest import Seeded

WRITERS = 8
ROUNDS = 3


@dataclass(frozen=True)
class FirstWrite:
    """One table's first write: what each writer does (its number given), and the rows of the
    raced key (a SELECT of them)."""

    table: type
    write: Callable[[Session, Seeded, int], object]
    rows: Callable[[Seeded], object]


def _alice(session: Session, seeded: Seeded) -> Assignment:
    return session.get_one(Assignment, seeded.alice)


CASES = {
    "campaign_settings": FirstWrite(
        CampaignSettingsRow,
        lambda s, _, n: save_settings(s, CampaignSettings(merge_across_punctuation=n % 2 == 0)),
        lambda _: select(CampaignSettingsRow),
    ),
    "article_notes": FirstWrite(
        ArticleNote,
        lambda s, seeded, n: notes.save_note(s, _alice(s, seeded), "1001", True, f"note {n}"),
        lambda seeded: select(ArticleNote).where(ArticleNote.assignment_id == seeded.alice),
    ),
    "topic_modes": FirstWrite(
        TopicMode,
        lambda s, _, n: elements.set_topic_mode(s, "1", "2005", n + 1),
        lambda _: select(TopicMode).where(TopicMode.topic_id == "1"),
    ),
    "keywords": FirstWrite(
        Keyword,
        lambda s, seeded, _: assignments.add_keyword(s, _alice(s, seeded), "fox"),
        lambda seeded: select(Keyword).where(Keyword.assignment_id == seeded.alice),
    ),
    "topic_adjudicators": FirstWrite(
        TopicAdjudicator,
        lambda s, _, __: adjudicators.add_adjudicator(s, "2", "bob"),
        lambda _: select(TopicAdjudicator).where(TopicAdjudicator.topic_id == "2"),
    ),
    "assignments": FirstWrite(
        Assignment,
        lambda s, _, __: users.assign_topic(s, "2", "bob"),
        lambda _: select(Assignment).where(Assignment.topic_id == "2", Assignment.user_id == 2),
    ),
    "element_values": FirstWrite(
        ElementValueRow,
        lambda s, seeded, n: elements.save_values(
            s, seeded.alice, "1001", [ElementValue("/article[1]", "12"[n % 2], "assessor")]
        ),
        lambda seeded: select(ElementValueRow).where(ElementValueRow.assignment_id == seeded.alice),
    ),
    "topic_results": FirstWrite(  # the statement `campaign.results.topic_cache` stores with
        TopicResult,
        lambda s, _, n: upsert(
            s,
            TopicResult,
            [{"topic_id": "1", "kind": "queue", "stamps": f"[{n}]", "value": "[]"}],
            key=("topic_id", "kind"),
        ),
        lambda _: select(TopicResult).where(TopicResult.topic_id == "1"),
    ),
    "judgements": FirstWrite(
        Judgement,
        lambda s, seeded, n: judgements.highlight(
            s, _alice(s, seeded), "1002", f"race-{n}", 4, 10, "Second"
        ),
        lambda seeded: select(Judgement).where(
            Judgement.assignment_id == seeded.alice, Judgement.article == "1002"
        ),
    ),
}


def _race(seeded: Seeded, case: FirstWrite) -> list[BaseException]:
    """Every writer at once, each in its own session; the errors they raised."""
    factory = db.session_factory(seeded.app)
    barrier = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def writer(number: int) -> None:
        with factory() as session:
            try:
                barrier.wait(timeout=60)
                case.write(session, seeded, number)
                session.commit()
            except BaseException as error:  # reported by the test, in the main thread
                errors.append(error)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer did not finish"
    return errors


@pytest.mark.parametrize("name", sorted(CASES))
def test_concurrent_first_writes_all_succeed_and_store_one_row(
    any_seeded: Seeded, name: str
) -> None:
    case = CASES[name]
    factory = db.session_factory(any_seeded.app)
    for _round in range(ROUNDS):
        with factory() as session:
            session.execute(delete(Event))
            session.execute(delete(case.table))
            session.commit()
        errors = _race(any_seeded, case)
        assert errors == [], f"{name}: {len(errors)} writers failed, first: {errors[:1]!r}"
        with factory() as session:
            rows = session.scalars(case.rows(any_seeded)).all()  # type: ignore[call-overload]
            assert len(rows) == 1, f"{name}: {len(rows)} rows for one key"
            if name == "keywords":  # logged once, by the writer that inserted it
                kind = Event.kind == EventKind.ADD_KEYWORD.value
                assert session.scalar(select(func.count()).where(kind)) == 1
            if name == "judgements":  # every operation applied, none lost
                assert len(rows[0].passages) == 1 and rows[0].version == WRITERS
