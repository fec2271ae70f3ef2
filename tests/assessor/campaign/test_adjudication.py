"""Adjudication of topic 1, which alice and bob both judge (tests/assessor/conftest.double_judge).

alice: 1001 relevant [5, 25) BEP 5, 1002 not relevant, 1003 relevant [5, 11);
bob:   1001 relevant [9, 35) BEP 12, 1002 relevant [4, 10), 1003 not judged.
Every expected value below is worked from these by hand.
"""

from __future__ import annotations

import doctest
import itertools
import json
import threading

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results import adjudication, gold_qrels, gold_steps
from focal.assessor.campaign.results.highlights import Highlights
from focal.assessor.campaign.results.qrels_export import qrels_text
from focal.assessor.campaign.results.report.assessment_report import build_report
from focal.assessor.cli import support
from focal.assessor.cli.main import main
from focal.assessor.judging import gold_edits
from focal.assessor.judging.gold_edits import StaleGold
from focal.assessor.judging.operations import Conflict
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
        union = gold_steps.decide(session, "1", "1001", "union", olga)
        assert (union.status, union.passages, union.bep) == ("relevant", [[5, 35]], 5)
        both = gold_steps.decide(session, "1", "1001", "intersection", olga)  # replaces it
        # alice's BEP 5 is outside [9, 25), bob's 12 inside
        assert (both.status, both.passages, both.bep) == ("relevant", [[9, 25]], 12)
        bob = gold_steps.decide(session, "1", "1002", "b", olga)
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
            gold_steps.decide(session, "1", "1001", "both", None)
        with pytest.raises(CampaignError, match="not judged by both alice and bob"):
            gold_steps.decide(session, "1", "1003", "a", None)
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
    assert doctest.testmod(gold_steps).failed == 0


def test_export_and_agreement_against_gold_on_the_command_line(
    doubled: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(support, "make_app", lambda migrated=True: doubled.app)
    with db.session_scope(doubled.app) as session:
        gold_steps.decide(session, "1", "1001", "b", None)
        gold_steps.decide(session, "1", "1002", "a", None)
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
        row = gold_steps.edit_gold(session, "1", "1001", ("highlight", 5, 12), None)
        assert (row.status, row.passages, row.bep, row.decision) == (
            "relevant",
            [[5, 12]],
            5,  # no BEP given: the passage's start
            "edited",
        )
        # touching passages merge (H-Rule ATOM), then a hole is cut, then the BEP moves
        row = gold_steps.edit_gold(session, "1", "1001", ("highlight", 12, 20), None)
        assert row.passages == [[5, 20]]
        row = gold_steps.edit_gold(session, "1", "1001", ("unhighlight", 5, 9), None)
        assert (row.passages, row.bep) == ([[9, 20]], 9)  # the BEP fell out: first start
        row = gold_steps.edit_gold(session, "1", "1001", ("bep", 15, 15), None)
        assert row.bep == 15
        row = gold_steps.edit_gold(session, "1", "1001", ("unhighlight", 0, 49), None)
        assert (row.status, row.passages, row.bep) == ("nonrelevant", [], None)
        with pytest.raises(CampaignError, match="not a range of article 1001"):
            gold_steps.edit_gold(session, "1", "1001", ("highlight", 40, 50), None)  # 49 long
        with pytest.raises(CampaignError, match="must be in a gold passage"):
            gold_steps.edit_gold(session, "1", "1001", ("bep", 3, 3), None)
        with pytest.raises(CampaignError, match="unknown edit 'erase'"):
            gold_steps.edit_gold(session, "1", "1001", ("erase", 3, 4), None)


def test_a_stale_decision_is_refused_with_the_current_gold(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        # a page opened before any gold (version 0); then someone edits the gold by hand
        gold_steps.edit_gold(session, "1", "1001", ("highlight", 0, 5), None)
        with pytest.raises(StaleGold, match="changed since you opened it") as refused:
            gold_steps.decide(session, "1", "1001", "b", None, version=0)
        assert refused.value.version == 1 and refused.value.current is not None
        assert refused.value.current.passages == ((0, 5),)
        # nothing was replaced; the version the page now shows is taken
        assert adjudication.gold_of(session, "1", "1001").passages == [[0, 5]]  # type: ignore[union-attr]
        taken = gold_steps.decide(session, "1", "1001", "b", None, version=1)
        assert (taken.decision, taken.passages, taken.version) == ("b", [[9, 35]], 2)


def test_a_step_sent_twice_is_applied_once(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        first = gold_steps.decide(session, "1", "1002", "b", None, op_id="x", version=0)
        again = gold_steps.decide(session, "1", "1002", "b", None, op_id="x", version=0)
        assert first.version == again.version == 1  # the replay is not stale: it is the same
        with pytest.raises(Conflict, match="op_id x was already used"):
            gold_steps.decide(session, "1", "1002", "a", None, op_id="x")
        assert len(gold_edits.history(session, "1", "1002")) == 1


def test_every_step_is_an_event_with_who_what_when_and_the_gold_before(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        olga = session.scalars(select(User.id).where(User.name == "olga")).one()
        gold_steps.decide(session, "1", "1001", "a", olga)  # alice: [5, 25) BEP 5
        gold_steps.edit_gold(session, "1", "1001", ("highlight", 30, 40), olga)
        gold_steps.edit_gold(session, "1", "1001", ("bep", 32, 32), None)
        gold_steps.decide(session, "1", "1001", "intersection", olga)
        steps = gold_edits.history(session, "1", "1001")
    assert [(s.action, s.payload, s.user_name, s.version) for s in steps] == [
        ("a", {}, "olga", 1),
        ("highlight", {"start": 30, "end": 40}, "olga", 2),
        ("bep", {"start": 32, "end": 32}, None, 3),
        ("intersection", {}, "olga", 4),
    ]
    assert steps[0].previous is None
    assert steps[0].gold == {"status": "relevant", "passages": [[5, 25]], "bep": 5, "decision": "a"}
    for before, after in itertools.pairwise(steps):
        assert after.previous == before.gold and after.at >= before.at
    assert steps[2].gold["bep"] == 32 and steps[3].gold["passages"] == [[9, 25]]


THREADS = 8


@pytest.mark.parametrize("kind", ["decisions", "edits"])
def test_concurrent_first_writes_of_a_gold_row(doubled: Seeded, kind: str) -> None:
    """Eight sessions write the gold of an undecided article at once (no version checked): all
    are applied, one after another, on one row."""
    factory = db.session_factory(doubled.app)
    barrier = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def adjudicator(index: int) -> None:
        with factory() as session:
            barrier.wait()
            try:
                if kind == "decisions":
                    gold_steps.decide(session, "1", "1002", ("a", "b")[index % 2], None)
                else:
                    edit = ("highlight", 2 * index, 2 * index + 1)
                    gold_steps.edit_gold(session, "1", "1002", edit, None)
            except BaseException as error:
                failures.append(error)

    threads = [threading.Thread(target=adjudicator, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with factory() as session:
        rows = session.scalars(select(GoldJudgement)).all()
        assert [row.version for row in rows] == [THREADS]
        assert [s.version for s in gold_edits.history(session)] == list(range(1, THREADS + 1))
        if kind == "edits":  # every one-character range kept, none touching another
            assert rows[0].passages == [[2 * i, 2 * i + 1] for i in range(THREADS)]


def test_the_report_lists_every_step(doubled: Seeded) -> None:
    with db.session_scope(doubled.app) as session:
        gold_steps.decide(session, "1", "1001", "union", None)
        gold_steps.edit_gold(session, "1", "1001", ("unhighlight", 5, 9), None)
        table = build_report(session).table("adjudication")
    # the union [5, 35) = 30 characters, then [9, 35) = 26
    assert [row[3:6] + row[8:] for row in table.rows] == [
        ("union", "relevant", 30, "-", "-", "-"),
        ("unhighlight", "relevant", 26, "5-9", "relevant", 30),
    ]
