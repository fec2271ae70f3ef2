"""The organiser's lists and the removal of an assignment, as use cases (no Flask)."""

from __future__ import annotations

import pytest

from focal.assessor.campaign.people import roster
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import article_summaries, set_topic_mode, topic_modes
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Topic

from ..conftest import Seeded


def test_topics_people_and_progress(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        session.add(Topic(id="10", title="ten", description="d", narrative="n"))
        session.flush()
        alice = session.get_one(Assignment, seeded.alice)
        judgements.highlight(session, alice, "1001", "a1", 5, 25, "The quick brown fox.")
        rows = roster.topic_rows(session)
        assert [(r.topic.id, r.pool_size, r.assessors) for r in rows] == [
            ("1", 3, ["alice", "bob"]),
            ("10", 0, []),
            ("2", 3, ["alice"]),
        ]
        assert roster.topic_ids(session) == ["1", "10", "2"]
        assert roster.topic_ids_in_natural_order(session) == ["1", "2", "10"]
        assert [t.id for t in roster.topics_in_natural_order(session)] == ["1", "2", "10"]
        assert roster.assessor_names(session) == ["alice", "bob"]  # not the organiser olga
        assert [u.name for u in roster.users(session)] == ["alice", "bob", "olga"]
        assert roster.has_user(session, "olga") and not roster.has_user(session, "eve")
        assert roster.has_topic(session, "2") and not roster.has_topic(session, "3")
        progress = {(a.topic_id, a.user.name): p for a, p in roster.assignments_progress(session)}
        assert list(progress) == [("1", "alice"), ("1", "bob"), ("2", "alice")]
        assert (progress["1", "alice"].judged, progress["1", "alice"].relevant) == (1, 1)
        assert progress["1", "bob"].judged == 0 and progress["1", "bob"].pool_size == 3


def test_only_an_unjudged_assignment_is_removed(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        alice = session.get_one(Assignment, seeded.alice)
        judgements.mark_nonrelevant(session, alice, "1002", "a1")  # judged, if not relevant
        with pytest.raises(roster.JudgedAssignment, match="alice has judged 1 article") as error:
            roster.remove_unjudged_assignment(session, seeded.alice)
        assert (error.value.topic, error.value.judged) == ("1", 1)
        assert roster.remove_unjudged_assignment(session, seeded.bob) == ("1", "bob")
        session.commit()
        assert session.get(Assignment, seeded.bob) is None
        assert session.get(Assignment, seeded.alice) is not None
        with pytest.raises(LookupError):
            roster.remove_unjudged_assignment(session, seeded.bob)


def test_topic_modes_and_two_phase_summaries(seeded: Seeded) -> None:
    with db.session_scope(seeded.app) as session:
        assert [(t.id, m.mode) for t, m in topic_modes(session)] == [("1", "2006"), ("2", "2006")]
        set_topic_mode(session, "2", "2005", 20)
        session.commit()
        modes = {t.id: (m.mode, m.too_small_below) for t, m in topic_modes(session)}
        assert modes == {"1": ("2006", None), "2": ("2005", 20)}
        own = session.get_one(Assignment, seeded.alice_topic2)
        judgements.highlight(session, own, "1001", "a1", 5, 25, "The quick brown fox.")
        judgements.mark_nonrelevant(session, own, "1002", "a2")
        (summary,) = article_summaries(session, own)  # the relevant article only
        assert summary.article == "1001" and summary.error is None
        assert summary.needs_value > 0
