"""An organiser sets up a campaign in Chromium from an empty database, without a terminal:
uploads the demo collection, topics and runs, builds a pool, adds two assessors and gives one
topic to both (tests/browser/campaign_steps.py holds the steps)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import func, select

from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Document, Pool, Run, Topic, User

from ..campaign_steps import (
    add_user,
    assign,
    build_pools,
    empty_campaign,
    log_in,
    upload_collection,
    upload_runs,
    upload_topics,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_an_organiser_sets_up_a_campaign_in_the_browser(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with empty_campaign(tmp_path, monkeypatch) as campaign:
        page = log_in(browser, campaign, campaign.organiser, campaign.password)
        blocked: list[str] = []  # the Content-Security-Policy holds on every screen
        page.on(
            "console",
            lambda message: (
                blocked.append(message.text)
                if "Content Security Policy" in message.text or "Refused" in message.text
                else None
            ),
        )
        assert "Imported 44 documents into the collection uploaded." in upload_collection(
            page, campaign
        )
        assert page.url.endswith("/organiser/import")  # htmx polled the job on the page
        assert "Imported 5 topics." in upload_topics(page, campaign)
        assert "Imported 4 run(s)" in upload_runs(page, campaign)
        assert "Pooled 1 topic(s)" in build_pools(page, campaign, size=20, topics=["9001"])
        expect(page.locator("#pool-runs tbody tr")).to_have_count(4)  # contribution per run
        add_user(page, campaign, "ann", "assessor", "ann's password")
        add_user(page, campaign, "ben", "assessor", "ben's password")
        assign(page, campaign, "9001", "ann")
        assign(page, campaign, "9001", "ben")
        expect(page.locator("#matrix tbody tr").first).to_contain_text("(2 assessors)")

        assert blocked == []

        ann = log_in(browser, campaign, "ann", "ann's password")
        expect(ann.locator("main")).to_contain_text("9001")
        refused = ann.goto(f"{campaign.url}/organiser/import")
        assert refused is not None and refused.status == 403

        with db.session_scope(campaign.app) as session:
            counts = [
                session.scalar(select(func.count()).select_from(model))
                for model in (Document, Topic, Run, Pool)
            ]
            assigned = session.scalars(
                select(User.name).join(Assignment).where(Assignment.topic_id == "9001")
            ).all()
        assert counts == [44, 5, 4, 1]
        assert sorted(assigned) == ["ann", "ben"]
