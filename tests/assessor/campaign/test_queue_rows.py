"""The adjudication queues built without the articles both assessors judged identically
(`highlights.pair_highlights(identical=False)`, what `adjudication` computes them from) are the
queues built from every article, on random campaigns, on SQLite and on PostgreSQL (where the
passages come back as the database's JSON text).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import select

from focal.assessor.campaign.results import adjudication
from focal.assessor.campaign.results.topic_cache import compared_pairs
from focal.assessor.store import db
from focal.assessor.store.models import Collection, Document, Judgement

from ..conftest import Seeded

ARTICLES = 120
CAMPAIGNS = 4


def _judgement(rng: random.Random, length: int) -> dict[str, Any]:
    """A random judgement row's fields: relevant with passages and maybe a BEP, not relevant,
    or unjudged (a row the assessor opened)."""
    status = rng.choice(["relevant", "relevant", "nonrelevant", "nonrelevant", "unjudged"])
    if status != "relevant":
        return {"status": status, "passages": [], "bep": None}
    cuts = sorted(rng.sample(range(length), 2 * rng.randrange(1, 4)))
    passages = [[cuts[i], cuts[i + 1]] for i in range(0, len(cuts), 2) if cuts[i] < cuts[i + 1]]
    passages = passages or [[0, length]]
    bep = rng.choice([None, passages[0][0], rng.randrange(length)])
    return {"status": status, "passages": passages, "bep": bep}


def _other(rng: random.Random, first: dict[str, Any], length: int) -> dict[str, Any]:
    """The second assessor's row: the same as the first mostly, else a BEP moved, passages
    changed, or a judgement of its own."""
    change = rng.choice(["same", "same", "same", "bep", "passages", "own"])
    if change == "same":
        return dict(first)
    if change == "bep" and first["status"] == "relevant":
        return {**first, "bep": rng.randrange(length)}
    if change == "passages" and first["status"] == "relevant":
        start, end = first["passages"][0]
        return {**first, "passages": [[start, max(start + 1, (start + end) // 2)]]}
    return _judgement(rng, length)


@pytest.mark.parametrize("campaign", range(CAMPAIGNS))
def test_queues_without_identical_articles_are_the_queues_of_every_article(
    any_seeded: Seeded, monkeypatch: pytest.MonkeyPatch, campaign: int
) -> None:
    rng = random.Random(2010 + campaign)
    with db.session_scope(any_seeded.app) as session:
        collection = session.scalars(select(Collection.id)).one()
        for number in range(ARTICLES):
            article, length = f"9{number:04d}", rng.randrange(50, 2000)
            session.add(Document(id=article, collection_id=collection, text_length=length))
            first = _judgement(rng, length)
            second = _other(rng, first, length)
            sides = {any_seeded.alice: first, any_seeded.bob: second}
            for assignment, row in sides.items():
                if rng.random() < 0.9:  # else: only the other assessor has a row
                    session.add(Judgement(assignment_id=assignment, article=article, **row))
    with db.session_scope(any_seeded.app) as session:
        pairs = compared_pairs(session)
        assert set(pairs) == {"1"}
        queues = adjudication._disagreements(session, pairs)
        every = adjudication.pair_highlights

        def with_identical(*args: Any, **_kwargs: Any) -> Any:
            return every(*args, identical=True)

        monkeypatch.setattr(adjudication, "pair_highlights", with_identical)
        expected = adjudication._disagreements(session, pairs)
    assert queues == expected
    assert 0 < len(queues["1"]) < ARTICLES, "some articles differ, others do not"
