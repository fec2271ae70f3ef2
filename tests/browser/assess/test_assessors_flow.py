"""The assessor's flow in Chromium: "Done" is always a decision, "Continue" and "next" follow
the topic's judging order, what is left is said truthfully, undo survives a reload and says what
it undid, and the runs' outline is off unless the organiser switches it on.

The oracles are the server's stored judgements and events (read through the API or the
database) and Python's own suggestion of the judging order, never the page script.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import func, select

from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.pools import ordering
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Event

from ..conftest import DEMO_TOPIC, Browse, LiveSite, wait_for
from ..test_demo_session import log_in_as_demo_assessor
from .test_assessing import P1, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_done_without_a_passage_asks_and_never_leaves_it_unjudged(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "plain")
    asked = page.locator("dialog#done-empty")
    page.keyboard.press("j")
    expect(asked).to_be_visible()
    assert "No passage highlighted: mark it not relevant?" in asked.inner_text()
    page.keyboard.press("Escape")  # stay: the article stays where it was, and so does the page
    expect(asked).to_be_hidden()
    assert page.url == ui.site.article_url("alice", "plain")
    assert ui.stored_state(page, "alice", "plain")["status"] == "unjudged"

    page.click("#next-link")  # the button asks too
    expect(asked).to_be_visible()
    page.click("dialog#done-empty button[value='nonrelevant']")
    page.wait_for_url(lambda url: url != ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "plain")
    assert (state["status"], state["finished"]) == ("nonrelevant", True)


def test_the_organiser_makes_done_mark_it_not_relevant(ui: Any) -> None:
    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/settings")
    assert olga.is_checked("input[name='done_without_passage'][value='ask']")  # the default
    olga.check("input[name='done_without_passage'][value='not_relevant']")
    olga.click("#settings-form button[type='submit']")
    olga.wait_for_url(f"{ui.site.url}/organiser/settings")
    assert olga.is_checked("input[name='done_without_passage'][value='not_relevant']")

    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    page.keyboard.press("j")
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["status"] == "nonrelevant"
    assert page.locator("dialog#done-empty").is_hidden()


def suggestion_events(site: LiveSite) -> int:
    with db.session_scope(site.app) as session:
        return session.scalar(select(func.count(Event.id)).where(Event.kind == "suggest")) or 0


def suggested_now(site: LiveSite) -> tuple[str | None, int, int]:
    """Python's answer: the article the order offers the demo assessor, and how many of the
    topic's pool are not judged yet, of how many."""
    with db.session_scope(site.app) as session:
        assignment = session.get_one(Assignment, site.assignments["assessor"])
        choice = ordering.suggestion(session, assignment)
        progress = assignments.progress(session, assignment)
    assert choice is not None
    return choice.article, progress.pool_size - progress.judged, progress.pool_size


def test_continue_and_next_follow_the_judging_order(browser: Browser, demo_site: LiveSite) -> None:
    with db.session_scope(demo_site.app) as session:
        ordering.set_order(session, "thompson", [DEMO_TOPIC], seed=7, budget=12)
    ui = Browse(browser, demo_site)
    page = log_in_as_demo_assessor(browser, demo_site)
    assignment = demo_site.assignments["assessor"]
    article, left, size = suggested_now(demo_site)
    assert article is not None
    row = page.locator(f"tr[data-assignment='{assignment}']")
    assert f"{left} of {size} not judged yet" in row.inner_text()

    # Asking is free: 50 GETs of "next" and of the topic pages add no event.
    before = suggestion_events(demo_site)
    for _ in range(25):
        assert page.request.get(f"{demo_site.url}/assignments/{assignment}/next").ok
        assert page.request.get(f"{demo_site.url}/topics").ok
    assert suggestion_events(demo_site) == before

    # Continue opens the article the order suggests (the pool page's suggestion), logged once.
    row.locator("a.continue").click()
    page.wait_for_url(lambda url: f"/articles/{article}" in url)
    ui.ready(page)
    wait_for(page, f"location.pathname.endsWith('/articles/{article}')")  # mark dropped
    pool = page.request.get(f"{demo_site.url}/assignments/{assignment}").text()
    assert f"Judge the suggested next article ({article})" in pool
    wait_until_events(demo_site, before + 1)

    # Not relevant → next goes where the order points after this judgement.
    page.keyboard.press("x")
    page.wait_for_url(lambda url: f"/articles/{article}" not in url)
    ui.ready(page)
    ui.wait_saved(page)
    following, left_after, _ = suggested_now(demo_site)
    page_article = page.locator("#document").get_attribute("data-article")
    assert page_article == following and left_after == left - 1
    wait_until_events(demo_site, before + 2)
    summary = page.request.get(f"{demo_site.url}/assignments/{assignment}?finished=1").text()
    assert f"{left_after} of {size} not judged yet" in summary and "is done" not in summary


def wait_until_events(site: LiveSite, count: int) -> None:
    from ...conftest import wait_until

    wait_until(lambda: suggestion_events(site) == count, 15, f"{count} suggestion events", 0.05)


def test_undo_survives_a_reload_and_says_what_it_undid(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    ui.wait_saved(page)
    announcer = page.locator("#announcer")
    expect(announcer).to_contain_text("Passage added: ‘𝄞𝄞 starts’")
    page.reload()
    ui.ready(page)
    ui.wait_saved(page)
    page.keyboard.press("u")
    expect(announcer).to_have_text("Undid: passage ‘𝄞𝄞 starts’ added")
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == []


def test_the_runs_outline_is_off_unless_the_organiser_switches_it_on(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")  # a run retrieved a passage of it
    assert page.locator("#toggle-runs").count() == 0
    page.keyboard.press("r")
    assert page.evaluate("CSS.highlights.get('focal-run')?.size ?? 0") == 0

    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/settings")
    assert not olga.is_checked("input[name='runs_outline']")
    olga.check("input[name='runs_outline']")
    olga.click("#settings-form button[type='submit']")
    olga.wait_for_url(f"{ui.site.url}/organiser/settings")
    ui.open_article(page, "alice", "astral")
    page.keyboard.press("r")
    wait_for(page, "CSS.highlights.get('focal-run')?.size === 1")
    assert page.locator("#toggle-runs").is_checked()
