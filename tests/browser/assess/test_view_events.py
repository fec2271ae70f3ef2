"""The assessment page in Chromium reports when its article is shown and when it is left."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import ViewEvent

from ...conftest import wait_until
from ..conftest import Browse, LiveSite

pytestmark = pytest.mark.browser


def stored(site: LiveSite, count: int) -> list[tuple[str, str]]:
    """The (article, kind) view events, once there are `count` of them (30 s at most)."""

    def rows() -> list[tuple[str, str]] | None:
        with db.session_scope(site.app) as session:
            found = session.execute(
                select(ViewEvent.article, ViewEvent.kind).order_by(ViewEvent.id)
            ).all()
        return [(article, kind) for article, kind in found] if len(found) >= count else None

    return wait_until(rows, 30, f"{count} view events")


def test_views_reported_on_show_and_leave(ui: Browse, live_site: LiveSite) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    assert stored(live_site, 1) == [("astral", "shown")]
    page.goto(live_site.article_url("alice", "plain"))  # leaving the page reports `left`
    ui.ready(page)
    assert stored(live_site, 3) == [("astral", "shown"), ("astral", "left"), ("plain", "shown")]
