"""Adjudication of topic 1, which alice and bob both judge (tests/assessor/conftest.double_judge).

alice: 1001 relevant [5, 25) BEP 5, 1002 not relevant, 1003 relevant [5, 11);
bob:   1001 relevant [9, 35) BEP 12, 1002 relevant [4, 10), 1003 not judged.
Every expected value below is worked from these by hand.
"""

from __future__ import annotations

import doctest
import json

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results import adjudication, gold_qrels
from focal.assessor.campaign.results.agreement import Highlights
from focal.assessor.campaign.results.qrels_export import qrels_text
from focal.assessor.cli import support
from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.gold import GoldJudgement
from focal.assessor.store.models import User

from ..conftest import Seeded, double_judge


@pytest.fixture
def doubled(any_seeded: Seeded) -> Seeded:
    double_judge(any_seeded)
    return any_seeded


def test_the_queue_is_ordered_by_disagreement(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        found = adjudication.queue(session, "1")
    assert found.names == ("alice", "bob")
    # 1002: opposite verdicts → 1; 1001: ∩ [9, 25) = 16, ∪ [5, 35) = 30 → 1 − 16/30;
    # 1003: bob has not judged it, so it waits
    assert [(item.article, item.disagreement) for item in found.items] == [
        ("1002", 1.0),
        ("1001", pytest.approx(1 - 16 / 30)),
    ]
    assert found.decided == 0 and found.next_open() == "1002"
    assert found.next_open("1002") == "1001"


def test_decisions_make_gold_with_who_and_when(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        olga = session.scalars(select(User.id).where(User.name == "olga")).one()
        union = adjudication.decide(session, "1", "1001", "union", olga)
        assert (union.status, union.passages, union.bep) == ("relevant", [[5, 35]], 5)
        both = adjudication.decide(session, "1", "1001", "intersection", olga)  # replaces it
        # alice's BEP 5 is outside [9, 25), bob's 12 inside
        assert (both.status, both.passages, both.bep) == ("relevant", [[9, 25]], 12)
        bob = adjudication.decide(session, "1", "1002", "b", olga)
        assert (bob.status, bob.passages, bob.bep) == ("relevant", [[4, 10]], 4)  # no BEP set
        session.commit()
    with db.session_scope(doubled.app) as session:
        rows = session.scalars(select(GoldJudgement).order_by(GoldJudgement.article)).all()
        assert [(r.article, r.decision, r.decided_by is not None) for r in rows] == [
            ("1001", "intersection", True),
            ("1002", "b", True),
        ]
        assert all(r.decided_at is not None for r in rows)
        found = adjudication.queue(session, "1")
        assert found.decided == 2 and found.next_open() is None
        gold = qrels_text(gold_qrels.gold_qrels(session))
        # 1001: 16 characters at 9, BEP 12; 1002: 6 characters at 4 (lengths 49 and 24)
        assert gold == "1 Q0 1001 16 49 12 9:16\n1 Q0 1002 6 24 4 4:6\n"
        text = qrels_text(gold_qrels.adjudicated_qrels(session))
    # gold where decided; alice's (first by name) for 1003; topic 2 has no judgement yet
    assert text == "1 Q0 1001 16 49 12 9:16\n1 Q0 1002 6 24 4 4:6\n1 Q0 1003 6 19 5 5:6\n"


def test_bad_decisions_are_refused(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        with pytest.raises(CampaignError, match="unknown decision 'both'"):
            adjudication.decide(session, "1", "1001", "both", None)
        with pytest.raises(CampaignError, match="not judged by both alice and bob"):
            adjudication.decide(session, "1", "1003", "a", None)
        with pytest.raises(CampaignError, match="topic 2 is not judged by two assessors"):
            adjudication.queue(session, "2")


def test_combinations_worked_by_hand() -> None:
    a = Highlights("a", "relevant", [(0, 10), (20, 30)], 20)
    b = Highlights("b", "relevant", [(25, 40)], None)
    no = Highlights("c", "nonrelevant", [], None)
    assert adjudication.combine("union", a, b) == ("relevant", [(0, 10), (20, 40)], 20)
    assert adjudication.combine("intersection", a, b) == ("relevant", [(25, 30)], 25)
    assert adjudication.combine("intersection", a, no) == ("nonrelevant", [], None)
    assert adjudication.combine("union", no, b) == ("relevant", [(25, 40)], 25)
    assert adjudication.combine("a", no, b) == ("nonrelevant", [], None)
    assert not adjudication.differ(a, a)
    assert adjudication.differ(a, Highlights("b", "relevant", a.passages, 0))  # BEP only
    assert adjudication.disagreement(a, Highlights("b", "relevant", a.passages, 0)) == 0.0


def test_docstrings() -> None:
    assert doctest.testmod(adjudication).failed == 0


def test_export_and_agreement_against_gold_on_the_command_line(
    doubled: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(support, "make_app", lambda migrated=True: doubled.app)
    with db.session_scope(doubled.app) as session:
        adjudication.decide(session, "1", "1001", "b", None)
        adjudication.decide(session, "1", "1002", "a", None)
        session.commit()
    exported = CliRunner().invoke(main, ["export-qrels", "--adjudicated"])
    assert exported.exit_code == 0, exported.output
    # 1001 bob's [9, 35) BEP 12; 1002 alice's "not relevant"; 1003 alice's (the fallback)
    assert exported.stdout == "1 Q0 1001 26 49 12 9:26\n1 Q0 1002 0 24\n1 Q0 1003 6 19 5 5:6\n"
    refused = CliRunner().invoke(main, ["export-qrels", "--adjudicated", "--format", "trec"])
    assert refused.exit_code == 2 and "--adjudicated writes FOL" in refused.output
    for name, chars_both in (("alice", 16), ("bob", 26)):
        result = CliRunner().invoke(
            main, ["agreement", "--assessors", name, "--gold", "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        assert document["assessors"] == [name, "gold"]
        # alice ∩ gold: [9, 25) of 1001 = 16 (her 1003 is gold's too, 6 more); bob = gold on
        # 1001 (26) and never judged 1003
        row = document["rows"][0]
        assert row["chars_both"] == chars_both + (6 if name == "alice" else 0)
        if name == "bob":
            assert row["alpha_u"] is not None and row["char_f1"] < 1  # 1002: bob relevant
    report = CliRunner().invoke(main, ["report", "--format", "json"])
    assert report.exit_code == 0, report.output
    tables = {table["name"]: table for table in json.loads(report.stdout)["tables"]}
    events = tables["adjudication"]["rows"]
    # decided in that order, by nobody registered (user None): bob's 1001 has 26 characters
    assert [row[:7] for row in events] == [
        ["1", "1001", "alice / bob", "b", "relevant", 26, "-"],
        ["1", "1002", "alice / bob", "a", "nonrelevant", 0, "-"],
    ]
    usage = CliRunner().invoke(main, ["agreement", "--gold"])
    assert usage.exit_code == 2 and "give --assessors A" in usage.output


def test_gold_edited_by_hand(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        # no gold yet: the edits start from nothing highlighted
        row = adjudication.edit_gold(session, "1", "1001", ("highlight", 5, 12), None)
        assert (row.status, row.passages, row.bep, row.decision) == (
            "relevant",
            [[5, 12]],
            5,  # no BEP given: the passage's start
            "edited",
        )
        # touching passages merge (H-Rule ATOM), then a hole is cut, then the BEP moves
        row = adjudication.edit_gold(session, "1", "1001", ("highlight", 12, 20), None)
        assert row.passages == [[5, 20]]
        row = adjudication.edit_gold(session, "1", "1001", ("unhighlight", 5, 9), None)
        assert (row.passages, row.bep) == ([[9, 20]], 9)  # the BEP fell out: first start
        row = adjudication.edit_gold(session, "1", "1001", ("bep", 15, 15), None)
        assert row.bep == 15
        row = adjudication.edit_gold(session, "1", "1001", ("unhighlight", 0, 49), None)
        assert (row.status, row.passages, row.bep) == ("nonrelevant", [], None)
        with pytest.raises(CampaignError, match="not a range of article 1001"):
            adjudication.edit_gold(session, "1", "1001", ("highlight", 40, 50), None)  # 49 long
        with pytest.raises(CampaignError, match="must be in a gold passage"):
            adjudication.edit_gold(session, "1", "1001", ("bep", 3, 3), None)
        with pytest.raises(CampaignError, match="unknown edit 'erase'"):
            adjudication.edit_gold(session, "1", "1001", ("erase", 3, 4), None)
