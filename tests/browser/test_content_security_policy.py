"""The Content-Security-Policy in Chromium: no page of the app trips it, and no other origin
can frame a logged-in page.

Every page an assessor and an organiser reach is opened while listening for the browser's
`securitypolicyviolation` events and console reports; htmx (loaded from static/, configured by
its meta tag) and the article screen's scripts (static/assess/) must work without inline script
or `eval`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import PASSWORDS, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECORD_VIOLATIONS = """() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation",
        (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
}"""


def _watch(page: Page) -> list[str]:
    """Console messages that report a blocked resource or a policy violation."""
    reports: list[str] = []
    page.on(
        "console",
        lambda message: (
            reports.append(message.text)
            if "Content Security Policy" in message.text or "Refused" in message.text
            else None
        ),
    )
    page.add_init_script(f"({RECORD_VIOLATIONS})()")
    return reports


def test_no_page_trips_the_policy(ui: Any) -> None:
    alice = ui.log_in("alice")
    reports = _watch(alice)
    ui.open_article(alice, "alice", "astral")
    alice.keyboard.press("x")  # "no relevant text": the page posts it, then opens the next
    alice.wait_for_url("**/articles/plain")
    ui.ready(alice)
    ui.wait_saved(alice)  # the judgement travels in the outbox: the next page delivers it
    assert ui.stored_state(alice, "alice", "astral")["status"] == "nonrelevant"
    ui.open_article(alice, "alice", "astral")
    alice.click("#keyword-input")
    alice.fill("#keyword-input", "clef")
    alice.keyboard.press("Enter")  # the keyword form: an htmx swap
    alice.wait_for_selector("#keywords li:has-text('clef')")
    assert alice.evaluate("window.__violations") == []
    alice.goto(f"{ui.site.url}/topics")
    assert alice.evaluate("window.__violations") == []
    olga = ui.browser.new_context().new_page()
    reports += _watch(olga)
    olga.goto(f"{ui.site.url}/login")
    olga.fill('input[name="name"]', "olga")
    olga.fill('input[name="password"]', PASSWORDS["olga"])
    olga.click('button[type="submit"]')
    olga.wait_for_selector("header nav")
    for link in ("Progress", "Topics", "Assignments", "Export", "Modes"):
        olga.click(f"header nav >> text={link}")
        olga.wait_for_load_state()
        assert olga.evaluate("window.__violations") == [], link
    assert reports == []


class _Framer(BaseHTTPRequestHandler):
    target = ""

    def do_GET(self) -> None:
        body = (
            f'<iframe id="f" src="{self.target}" width="600" height="400"'
            " onload=\"document.body.dataset.framed = 'done'\"></iframe>"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def framer(ui: Any) -> Iterator[str]:
    """Another origin (another port) whose page frames the assessor's article page."""
    _Framer.target = ui.site.article_url("alice", "astral")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Framer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def test_another_origin_cannot_frame_a_logged_in_page(ui: Any, framer: str) -> None:
    page = ui.log_in("alice")
    page.goto(framer)
    wait_for(page, "document.body.dataset.framed === 'done'")  # the frame's load: shown or refused
    frame = page.frame_locator("#f")
    assert frame.locator("#document").count() == 0  # the article never rendered in the frame
