"""The qrels lines `report.data.judged_articles` reads (every relevant row's passages decoded in
one call) are the lines a row-by-row reading gives, on random campaigns, on SQLite and on
PostgreSQL (where the passages come back as the database's JSON text).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import select

from focal.assessor.campaign.results.report.data import judged_articles
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Collection, Document, Judgement, User
from focal.evaluation.formats import records

from ..conftest import Seeded

ARTICLES = 150


def _row(rng: random.Random, length: int) -> dict[str, Any]:
    """A judgement row's fields: relevant with one passage or several (a BEP given or not),
    relevant without passages, not relevant, or unjudged."""
    status = rng.choice(["relevant", "relevant", "relevant", "nonrelevant", "unjudged"])
    if status != "relevant" or rng.random() < 0.1:
        return {"status": status, "passages": [], "bep": None}
    cuts = sorted(rng.sample(range(length), 2 * rng.choice([1, 1, 2, 3])))
    passages = [[cuts[i], cuts[i + 1]] for i in range(0, len(cuts), 2) if cuts[i] < cuts[i + 1]]
    passages = passages or [[0, length]]
    return {"status": status, "passages": passages, "bep": rng.choice([None, cuts[-1]])}


def _expected(session: Any) -> dict[tuple[int, str], tuple[str, records.Judgement]]:
    """(assignment, article) -> (assessor, line), each row read through the ORM and turned into
    its line one by one: a relevant row with passages keeps them, its characters summed and its
    BEP the first passage's start when none was set; any other judged row is a line of 0."""
    out = {}
    rows = session.execute(
        select(Judgement, Assignment.topic_id, User.name, Document.text_length)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .join(Document, Judgement.article == Document.id)
        .where(Judgement.status != "unjudged")
    )
    for judgement, topic, name, length in rows:
        passages = tuple((start, end) for start, end in judgement.passages or [])
        rel = sum(end - start for start, end in passages) if judgement.status == "relevant" else 0
        if rel:
            bep = passages[0][0] if judgement.bep is None else judgement.bep
            line = records.Judgement(topic, judgement.article, rel, length, bep, passages, 0)
        else:
            line = records.Judgement(topic, judgement.article, 0, length, None, (), 0)
        out[(judgement.assignment_id, judgement.article)] = (name, line)
    return out


@pytest.mark.parametrize("campaign", range(3))
def test_lines_decoded_at_once_are_the_lines_of_each_row(any_seeded: Seeded, campaign: int) -> None:
    rng = random.Random(39031 + campaign)
    assignments = (any_seeded.alice, any_seeded.bob, any_seeded.alice_topic2)
    with db.session_scope(any_seeded.app) as session:
        collection = session.scalars(select(Collection.id)).one()
        for number in range(ARTICLES):
            article, length = f"8{number:04d}", rng.randrange(20, 3000)
            session.add(Document(id=article, collection_id=collection, text_length=length))
            for assignment in assignments:
                if rng.random() < 0.8:
                    row = _row(rng, length)
                    session.add(Judgement(assignment_id=assignment, article=article, **row))
    with db.session_scope(any_seeded.app) as session:
        expected = _expected(session)
        found = judged_articles(session)
        of_bob = judged_articles(session, assessor="bob")
    assert {(j.assignment, j.line.article): (j.assessor, j.line) for j in found} == expected
    assert len(found) == len(expected)
    several = [line for _, line in expected.values() if len(line.passages) > 1]
    assert several and any(line.relevant for _, line in expected.values())
    assert {(j.assignment, j.line.article) for j in of_bob} == {
        key for key, (name, _) in expected.items() if name == "bob"
    }
