"""The assessment report (spec section 10) on a small event log written by hand.

Alice assesses topic 1 (articles of tests/assessor/conftest.py):

    1001 "Alpha" [0,5) | p1 "The quick brown fox." [5,25) | p2 [25,49), "over" in <b>
    1003 "G𝔸mma" [0,5) | p "Astral 😀 here." [5,19)

    09:00:00 1001 shown          09:02:00 1002 shown           09:30:00 1003 shown
    09:00:40 1001 highlight      09:20:00 1002 not relevant    09:31:00 1003 left (tab hidden)
    09:01:00 1001 set_bep        09:20:05 1002 finish          09:45:00 1003 shown
    09:01:10 1001 left                                         09:45:30 1003 highlight
                                                               09:46:00 1003 finish
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from focal.assessor.campaign.results.report.assessment_report import build_report
from focal.assessor.campaign.results.timing import ArticleTime, article_time
from focal.assessor.cli import support
from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.models import Event, Judgement, ViewEvent

from ..conftest import Seeded


def at(clock: str) -> datetime:
    return datetime.fromisoformat(f"2026-11-23T{clock}")


VIEWS = [
    ("1001", "shown", "09:00:00"),
    ("1001", "left", "09:01:10"),
    ("1002", "shown", "09:02:00"),
    ("1003", "shown", "09:30:00"),
    ("1003", "left", "09:31:00"),
    ("1003", "shown", "09:45:00"),
]
OPERATIONS = [
    ("1001", "highlight", "09:00:40"),
    ("1001", "set_bep", "09:01:00"),
    ("1002", "mark_nonrelevant", "09:20:00"),
    ("1002", "finish", "09:20:05"),
    ("1003", "highlight", "09:45:30"),
    ("1003", "finish", "09:46:00"),
]


@pytest.fixture
def logged(any_seeded: Seeded) -> Seeded:
    """The log above on SQLite and on PostgreSQL."""
    seeded = any_seeded
    with db.session_scope(seeded.app) as session:
        judged = {
            "1001": ("relevant", [[5, 25]], 5),
            "1002": ("nonrelevant", [], None),
            "1003": ("relevant", [[5, 7], [9, 11]], 10),
        }
        for article, (status, passages, bep) in judged.items():
            session.add(
                Judgement(
                    assignment_id=seeded.alice,
                    article=article,
                    status=status,
                    passages=passages,
                    bep=bep,
                    finished=True,
                    version=2,
                )
            )
        for number, (article, kind, clock) in enumerate(VIEWS):
            session.add(
                ViewEvent(
                    assignment_id=seeded.alice,
                    article=article,
                    kind=kind,
                    event_id=f"v{number}",
                    client_time=at(clock),
                )
            )
        for number, (article, kind, clock) in enumerate(OPERATIONS):
            session.add(
                Event(
                    assignment_id=seeded.alice,
                    article=article,
                    kind=kind,
                    op_id=f"o{number}",
                    client_time=at(clock),
                )
            )
    return seeded


def test_article_time_leaves_out_idle_gaps_and_time_off_screen() -> None:
    # 1001: shown -> highlight 40 s, -> set_bep 20 s; `left` after the last operation: 60 s
    events_1001 = [(at(c), "op" if k != "shown" and k != "left" else k) for a, k, c in
                   VIEWS + OPERATIONS if a == "1001"]  # fmt: skip
    assert article_time(events_1001) == ArticleTime(60.0, 0, 0.0)
    # 1002: shown 09:02:00 -> 09:20:00 is 1080 s > 600: an idle gap; then 5 s
    assert article_time([(at("09:02:00"), "shown"), (at("09:20:00"), "op"),
                         (at("09:20:05"), "op")]) == ArticleTime(5.0, 1, 1080.0)  # fmt: skip
    # with the threshold above 1080 s the pause is assessment time: 1085 s
    assert article_time(
        [(at("09:02:00"), "shown"), (at("09:20:00"), "op"), (at("09:20:05"), "op")], idle=2000
    ) == ArticleTime(1085.0, 0, 0.0)
    # shown only: no assessment; operations only: timed from the first operation
    assert article_time([(at("09:00:00"), "shown")]) is None
    assert article_time([(at("09:00:00"), "op"), (at("09:00:09"), "op")]) == ArticleTime(9.0, 0, 0)


def test_times_on_the_hand_written_log(logged: Seeded) -> None:
    with db.session_scope(logged.app) as session:
        table = build_report(session).table("times")
    # 1001: 60 s; 1002: 5 s (+ one idle gap of 1080 s); 1003: 60 s on screen, 14 min hidden
    # (not counted), 30 + 30 s after it came back: 120 s. Relevant mean (60 + 120)/2 = 90 s,
    # not relevant 5 s, the topic 60 + 5 + 120 = 185 s.
    expected = (2, 90.0, 1, 5.0, 185.0, 1, 1080.0)
    assert table.rows == [("1", "alice", *expected), ("all", "", *expected)]


def test_passages_beps_elements_and_specificity(logged: Seeded) -> None:
    with db.session_scope(logged.app) as session:
        report = build_report(session)
    # 1001 has one passage, 1003 two
    assert report.table("passages").rows == [(1, 1, 0.5), (2, 1, 0.5)]
    # BEP 5 at the start of 1001's passage; in 1003, BEP 10 is 5 from the first (and largest,
    # the first of two of length 2) passage start 5 and 1 from the nearest start 9
    assert report.table("bep_distance").rows == [("0-99", 2, 2, 2)]
    # [5, 25) is exactly p1 of 1001: elemental; 1003's [5,7) and [9,11) are inside p: not
    assert report.table("elemental").rows == [("1", 1, 2, 3, 1 / 3), ("all", 1, 2, 3, 1 / 3)]
    # relevant elements: 1001 article 20/49, bdy 20/44, p1 1; 1003 article 4/19, bdy 4/14,
    # p 4/14. Ranges [0.2, 0.3): 4/19, 4/14, 4/14; [0.4, 0.5): 20/49, 20/44; 1 apart.
    rows = {row[0]: row[1] for row in report.table("specificity").rows}
    assert (rows["[0.2, 0.3)"], rows["[0.4, 0.5)"], rows["1"]) == (3, 2, 1)
    assert sum(rows.values()) == 6
    categories = {row[0]: row[1:] for row in report.table("specificity_by_category").rows}
    paragraph = (1 + 4 / 14) / 2
    assert categories["article"] == pytest.approx(
        (2, (20 / 49 + 4 / 19) / 2, (20 / 49 + 4 / 19) / 2 / paragraph)
    )
    assert categories["body"][:2] == pytest.approx((2, (20 / 44 + 4 / 14) / 2))
    assert categories["section"] == (0, None, None)
    assert categories["paragraph"] == pytest.approx((2, paragraph, 1.0))
    # no 2005 topic, no imported runs: those tables are empty and say why
    assert "too small" in (report.table("too_small").empty or "")
    assert "pooled top-n" in (report.table("pooling_rounds").empty or "")


def test_a_topic_nobody_judged_gives_empty_tables_that_say_why(logged: Seeded) -> None:
    with db.session_scope(logged.app) as session:
        report = build_report(session, topic="2")
    assert all(not table.rows for table in report.tables)
    assert {table.empty for table in report.tables} == {"no article has been judged here yet"}


def focal(seeded: Seeded, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.setattr(support, "make_app", lambda migrated=True: seeded.app)
    return CliRunner().invoke(main, list(args))


def test_focal_report(logged: Seeded, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tsv = focal(logged, monkeypatch, "report", "--format", "tsv", "--plots", str(tmp_path))
    assert tsv.exit_code == 0, tsv.output
    lines = tsv.stdout.splitlines()
    times = lines.index("# times")
    assert lines[times + 2] == "1\talice\t2\t90.0\t1\t5.0\t185.0\t1\t1080.0"
    plots = sorted(path.name for path in tmp_path.glob("*.svg"))
    assert "times-topic_s.svg" in plots and "passages-articles.svg" in plots
    assert (tmp_path / "passages-articles.svg").read_text().lstrip().startswith("<?xml")
    empty = focal(logged, monkeypatch, "report", "--topic", "2")
    assert empty.exit_code == 0
    assert "(empty: no article has been judged here yet)" in empty.stdout
    for option, name in (("--topic", "99"), ("--assessor", "zoe")):
        refused = focal(logged, monkeypatch, "report", option, name)
        assert refused.exit_code == 2 and refused.stdout == ""
        assert len(refused.stderr.strip().splitlines()) == 1 and name in refused.stderr


moments = st.lists(
    st.tuples(st.integers(0, 5000), st.sampled_from(["shown", "left", "op"])), max_size=12
)


@given(moments, st.floats(1, 3000))
def test_article_time_never_counts_more_than_the_stretch(
    events: list[tuple[int, str]], idle: float
) -> None:
    timeline = [(at("09:00:00") + timedelta(seconds=s), kind) for s, kind in events]
    result = article_time(timeline, idle)
    operations = [s for s, kind in events if kind == "op"]
    if not operations:
        assert result is None
        return
    assert result is not None
    shown = [s for s, kind in sorted(events) if kind == "shown"]
    start = min([*shown[:1], min(operations)])
    stretch = max(operations) - start
    assert 0 <= result.seconds + result.idle_seconds <= stretch
    assert result.idle_seconds == 0 or result.idle_seconds > idle * result.idle_gaps - 1e-9
    if "left" not in {kind for _s, kind in events}:
        # always on screen: every second of the stretch is either assessment or idle
        assert result.seconds + result.idle_seconds == pytest.approx(stretch)
