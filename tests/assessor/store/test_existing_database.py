"""A database written by an earlier Focal still opens, upgrades in place and serves its work.

`data/before_reshape.sql` is the SQL dump (sqlite3 `iterdump`) of a database that Focal made
before its modules moved into `focal/assessor/store|judging|campaign|web|cli`: `focal demo`
material, then, through the judging API of that time, article 1001 of topic 9001 highlighted at [10,
40) and [40, 60) (merged by ATOM into [10, 60)), its BEP set at 12 and finished; article 1002 judged
not relevant; a keyword, an API token, the topic switched to the 2005 mode (automatic too small
under 55 characters) and `/article[1]` given exhaustivity 1. Document files were recorded as
absolute paths; the dump writes the demo collection's folder as `@COLLECTION@`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from flask import Flask

from focal.assessor.campaign.people.assignments import keywords
from focal.assessor.campaign.results.qrels_export import collect_qrels, qrels_text
from focal.assessor.judging import judgements
from focal.assessor.judging.elements import load_values, topic_mode
from focal.assessor.store import db, migrate, texts
from focal.assessor.store.models import Assignment, Document
from focal.assessor.web.app import create_app

from ..conftest import login

DUMP = Path(__file__).with_name("data") / "before_reshape.sql"
COLLECTION = Path(__file__).resolve().parents[3] / "demo" / "collection"
REVISION_THEN = "0003_text_optional"


@pytest.fixture
def old_app(tmp_path: Path) -> Flask:
    path = tmp_path / "before.sqlite"
    script = DUMP.read_text(encoding="utf-8").replace("@COLLECTION@", str(COLLECTION))
    with sqlite3.connect(path) as connection:
        connection.executescript(script)
    texts.clear_cache()
    return create_app({"DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "test"})


@pytest.fixture
def upgraded_app(old_app: Flask) -> Flask:
    migrate.upgrade(db.engine_of(old_app))
    return old_app


def test_the_old_database_upgrades_to_head_and_then_matches_the_models(old_app: Flask) -> None:
    engine = db.engine_of(old_app)
    head = ScriptDirectory.from_config(migrate.alembic_config(engine)).get_current_head()
    assert migrate.current_revision(engine) == REVISION_THEN != head
    migrate.upgrade(engine)  # the account columns and the view events table are added
    assert migrate.current_revision(engine) == head
    assert migrate.schema_differences(engine) == []
    migrate.upgrade(engine)  # a second run changes nothing
    assert migrate.current_revision(engine) == head


def test_the_old_judgements_read_back_through_the_new_modules(upgraded_app: Flask) -> None:
    with db.session_scope(upgraded_app) as session:
        assignment = session.get(Assignment, 1)
        assert assignment is not None and assignment.topic_id == "9001"
        state = judgements.get_state(session, assignment, "1001")
        assert (state.status, state.passages, state.bep, state.finished, state.version) == (
            "relevant",
            ((10, 60),),
            12,
            True,
            4,
        )
        assert judgements.get_state(session, assignment, "1002").status == "nonrelevant"
        assert keywords(session, assignment) == ["pre-reshape keyword"]
        mode = topic_mode(session, "9001")
        assert (mode.mode, mode.too_small_below) == ("2005", 55)
        values = {v.path: (v.value, v.source) for v in load_values(session, 1, "1001")}
        assert values["/article[1]"] == ("1", "assessor")
        document = session.get(Document, "1001")
        assert document is not None
        text = texts.text_of(document)  # the file still matches the stored hash
        other = session.get(Document, "1002")
        assert other is not None
        qrels = qrels_text(collect_qrels(session, "9001", "assessor"))
    assert qrels.splitlines() == [
        f"9001 Q0 1001 50 {len(text)} 12 10:50",
        f"9001 Q0 1002 0 {other.text_length}",
    ]


def test_an_old_user_logs_in_and_sees_the_judged_article(upgraded_app: Flask) -> None:
    client = upgraded_app.test_client()
    login(client, "assessor", "assessor")  # the demo password, hashed before the move
    page = client.get("/assignments/1/articles/1001")
    assert page.status_code == 200
    assert 'data-path="/article[1]"' in page.get_data(as_text=True)
