"""Seed 003 Table IV and §5.1.2 in the report, on the hand-written log of test_report.py with
alice's highlights and 2005 values added to article 1001 (paths of tests/assessor/conftest.py:
/article[1]/bdy[1] holds p[1] "The quick brown fox." and p[2] "Jumps over the lazy dog.")."""

from __future__ import annotations

from focal.assessor.campaign.results.report.assessment_report import build_report
from focal.assessor.store import db
from focal.assessor.store.models import Event

from ..conftest import Seeded
from .test_report import logged

__all__ = ["logged"]  # the fixture, used by name

# After the log's own highlight (no offsets: not placed): highlights starting at 25, 5 and 30,
# values on bdy then p[2], a highlight at 40, a value on p[1].
STEPS = [
    ("highlight", {"start": 25, "end": 30}),
    ("highlight", {"start": 5, "end": 9}),
    ("highlight", {"start": 30, "end": 35}),
    ("element-value", {"path": "/article[1]/bdy[1]", "value": "2"}),
    ("element-value", {"path": "/article[1]/bdy[1]/p[2]", "value": "1"}),
    ("highlight", {"start": 40, "end": 45}),
    ("element-value", {"path": "/article[1]/bdy[1]/p[1]", "value": "1"}),
]


def test_relevant_elements_and_assessor_behaviour(logged: Seeded) -> None:
    with db.session_scope(logged.app) as session:
        for number, (kind, payload) in enumerate(STEPS):
            session.add(Event(assignment_id=logged.alice, article="1001", kind=kind,
                              op_id=f"b{number}", payload=payload))  # fmt: skip
    with db.session_scope(logged.app) as session:
        report = build_report(session)
    # Table IV: relevant elements 1001 article, bdy, p[1] and 1003 article, bdy, p (6); passages
    # 1 in 1001 and 2 in 1003
    assert report.table("relevant_elements").rows == [("1", 6, 3), ("all", 6.0, 3.0)]
    rows = {row[0]: row[1:] for row in report.table("behaviour").rows}
    # starts 25, 5, 30, 40: 5 after 25 no, 30 after 5 yes, 40 after 30 yes
    assert rows["highlights after the previous one"] == (2, 3, 2 / 3)
    # h h h h v v h v: two runs of values in the one article given values
    assert rows["highlight-then-assess cycles"] == (2, 1, 2.0)
    # bdy -> p[2] further down (and inside bdy); p[2] -> p[1] back up
    assert rows["values further down the document"] == (1, 2, 0.5)
    assert rows["of those, a contained element"] == (1, 1, 1.0)
    # Fig 2 in passages: no runs were imported, so the rounds table says why, with its columns
    assert report.table("pooling_rounds").columns[-2:] == ("passages", "passages_share_so_far")


def test_doctests() -> None:
    import doctest

    from focal.assessor.campaign.results.report import behaviour as report_behaviour

    failures, tried = doctest.testmod(report_behaviour)
    assert failures == 0 and tried > 0


def test_pooling_rounds_count_passages_as_seed_003_fig_2(logged: Seeded) -> None:
    """Two imported runs pooled top-3 again: round 1 brings 1001 (one passage) and 1003 (two),
    both relevant; round 2 brings 1002 (not relevant), and the pool holds 3."""
    from sqlalchemy import select

    from focal.assessor.store.models import Pool, Run, RunResult

    with db.session_scope(logged.app) as session:
        for name, articles in (("r1", ["1001", "1002"]), ("r2", ["1003", "1002"])):
            run = Run(name=name, file=f"{name}.run", kind="article")
            session.add(run)
            session.flush()
            for rank, article in enumerate(articles, start=1):
                session.add(RunResult(run_id=run.id, topic_id="1", article=article, rank=rank,
                                      score=1 / rank))  # fmt: skip
        pool = session.scalars(select(Pool).where(Pool.topic_id == "1")).first()
        if pool is None:
            session.add(Pool(topic_id="1", method="topn", parameters={"size": 3}))
        else:
            pool.method, pool.parameters = "topn", {"size": 3}
    with db.session_scope(logged.app) as session:
        rows = build_report(session).table("pooling_rounds").rows
    assert rows == [(1, 2, 2, 1.0, 3, 1.0), (2, 1, 0, 1.0, 0, 1.0)]
