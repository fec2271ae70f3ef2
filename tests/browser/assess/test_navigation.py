"""Next and Previous with the mouse, the next article prefetched, and the pool's progress.

What the server answered is recorded on the server side (Flask's `request_finished` signal), so
"prefetched" is checked where it matters: the next article's page is requested (as a prefetch,
with the session) before the assessor goes there, and going there does not request it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response, request, request_finished

from ...conftest import wait_until
from ..conftest import wait_for
from .test_assessing import P1, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def served(live_site: Any) -> Iterator[list[str]]:
    """The path of every request the live server answered, in order; a prefetch (header
    `Sec-Purpose: prefetch`) answered 200 is also recorded as "prefetched PATH"."""
    paths: list[str] = []

    def record(sender: Flask, response: Response, **_: Any) -> None:
        paths.append(request.path)
        if request.headers.get("Sec-Purpose", "").startswith("prefetch"):
            paths.append(f"prefetched {request.path} {response.status_code}")

    request_finished.connect(record, live_site.app)
    yield paths
    request_finished.disconnect(record, live_site.app)


# Run before the page's scripts: records every request htmx starts (synchronously, in the event
# that triggers it) and when pageshow, the event the lists once refreshed on, has been dispatched.
HTMX_WATCH = """
window.__htmxRequests = [];
document.addEventListener("htmx:beforeRequest", (e) => window.__htmxRequests.push(e.detail.elt.id));
window.addEventListener("pageshow", () => { window.__shown = true; });
"""


def progress(page: Any) -> tuple[int, int]:
    found = page.locator("#progress")
    return int(found.get_attribute("data-judged")), int(found.get_attribute("data-pool-size"))


def test_next_and_previous_buttons_prefetch_and_progress(ui: Any, served: list[str]) -> None:
    site = ui.site
    astral, plain = site.article_url("alice", "astral"), site.article_url("alice", "plain")
    astral_path, plain_path = (url.removeprefix(site.url) for url in (astral, plain))
    page = ui.log_in("alice")
    page.click(f"a[href='/assignments/{site.assignments['alice']}']")
    page.wait_for_url(f"{site.url}/assignments/{site.assignments['alice']}")
    assert progress(page) == (0, len(site.articles))

    page.click("text=Judge the first article not judged yet")
    page.wait_for_url(astral)
    ui.ready(page)
    rules = json.loads(page.locator("script[type=speculationrules]").inner_text())
    assert rules == {"prefetch": [{"source": "list", "urls": [plain_path]}]}
    wait_until(lambda: f"prefetched {plain_path} 200" in served)  # ahead, with the session
    assert served.count(plain_path) == 1

    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    ui.wait_saved(page)
    page.click("#next-link")  # the button, not the key: finishes the article, goes on
    page.wait_for_url(plain)
    ui.ready(page)
    ui.wait_saved(page)
    assert served.count(plain_path) == 1  # the page came from the prefetch
    delivery = "performance.getEntriesByType('navigation')[0].deliveryType"
    assert page.evaluate(delivery) == "navigational-prefetch"
    state = ui.stored_state(page, "alice", "astral")
    assert state["status"] == "relevant" and state["finished"] is True
    assert page.locator("#status-text").inner_text() == "not judged yet"

    page.click("a[rel=prev]")
    page.wait_for_url(astral)
    ui.ready(page)
    assert page.locator("#status-text").inner_text() == "relevant"

    page.click(".actions >> text=Pool")
    page.wait_for_url(f"{site.url}/assignments/{site.assignments['alice']}")
    assert progress(page) == (1, len(site.articles))
    astral_row = page.locator("tr[data-article='astral']")
    assert "relevant" in astral_row.inner_text() and "✓" in astral_row.inner_text()

    # The back button after judging: the pool page shows the new counts, not a kept copy.
    page.click("tr[data-article='plain'] a")
    page.wait_for_url(plain)
    ui.ready(page)
    page.keyboard.press("x")
    page.wait_for_url(lambda url: url != plain)
    ui.ready(page)
    ui.wait_saved(page)
    page.go_back()
    page.wait_for_url(plain)
    page.go_back()
    page.wait_for_url(f"{site.url}/assignments/{site.assignments['alice']}")
    wait_for(page, "document.getElementById('progress').dataset.judged === '2'")
    assert progress(page) == (2, len(site.articles))
    assert astral_path in served


def test_the_lists_load_once_and_never_ask_for_eval(ui: Any, served: list[str]) -> None:
    """My topics and a pool are requested once per visit: no hx-trigger filter, which htmx
    would need eval for (refused by the site's htmx configuration, and then taken as true)."""
    page = ui.log_in("alice")
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text))
    page.add_init_script(HTMX_WATCH)
    pool = f"/assignments/{ui.site.assignments['alice']}"
    for path in ("/topics", pool):
        before = served.count(path)
        page.goto(ui.site.url + path)
        # pageshow has been dispatched (htmx's listeners ran: a trigger on it asks at once) and
        # no request htmx made is still waiting for its answer.
        wait_for(page, "window.__shown && window.htmx && !document.querySelector('.htmx-request')")
        assert page.evaluate("window.__htmxRequests") == []
        assert served.count(path) == before + 1, served
    assert not [text for text in errors if "evalDisallowed" in text], errors
