"""The outbox in Chromium: unsent operations outlive their tab, answers are told apart.

The server is made unreachable, or made to answer a given refusal, with Playwright's request
interception; the oracle is the judgement the server stores (read through the API) and the
text the page shows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from .conftest import OUTBOX_OPEN, screen_module, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

P1, P3 = "/article[1]/bdy[1]/p[1]", "/article[1]/bdy[1]/p[3]"
QUEUE = screen_module("queue.js")  # the page's queue: readQueue(), localState()


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class Unreachable:
    """WSGI middleware: while `down`, operations get 502, as from a proxy whose server is gone.

    In the server rather than in the browser's request interception, which a `keepalive`
    request sent by a closing tab escapes.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.down = False
        self.refused = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.down and environ["PATH_INFO"].endswith("/ops"):
            self.refused += 1
            start_response("502 Bad Gateway", [("Content-Type", "text/plain")])
            return [b"the server is unreachable"]
        return self.app(environ, start_response)


def highlight_while_unreachable(ui: Any, page: Page) -> tuple[Unreachable, list[int]]:
    """Take the server's operations endpoint down, then highlight "starts the staff," in the
    astral article; returns the switch and the [start, end) the server must end up with."""
    wait_for(page, OUTBOX_OPEN)
    server = Unreachable(ui.site.app.wsgi_app)
    ui.site.app.wsgi_app = server
    server.down = True
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" then")])))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    base = document.span(P1)[0]
    return server, [base + len("Clef "), base + p1.index(" then")]


def test_a_judgement_made_offline_survives_closing_the_tab(ui: Any) -> None:
    page = ui.log_in("alice")
    context = page.context
    ui.open_article(page, "alice", "astral")
    server, passage = highlight_while_unreachable(ui, page)
    assert "1 unsaved" in page.locator("#save-state").inner_text()
    page.close()  # pagehide tries once more with keepalive: refused too
    assert ui.stored_state(context.new_page(), "alice", "astral")["status"] == "unjudged"
    assert server.refused >= 1

    server.down = False
    again = context.new_page()  # any page of the site sends what the outbox holds
    ui.open_article(again, "alice", "plain")
    ui.wait_saved(again)
    state = ui.stored_state(again, "alice", "astral")
    assert state["passages"] == [passage] and state["status"] == "relevant"


def test_my_topics_sends_what_a_closed_tab_left_unsent(ui: Any) -> None:
    """An assessor comes back on My topics, not on the article: the list sends the outbox and
    shows the judgement in its progress."""
    page = ui.log_in("alice")
    context = page.context
    ui.open_article(page, "alice", "astral")
    server, passage = highlight_while_unreachable(ui, page)
    page.close()
    topics = context.new_page()
    topics.goto(f"{ui.site.url}/topics")  # still unreachable: the list says what waits
    expect(topics.locator("#outbox-state")).to_contain_text("1 unsaved change not sent yet")
    assert ui.stored_state(topics, "alice", "astral")["status"] == "unjudged"

    server.down = False
    topics.reload()
    left = len(ui.site.articles) - 1  # astral judged: the others are left
    expect(topics.locator("#assignments tbody tr").first).to_contain_text(
        f"{left} of {len(ui.site.articles)} not judged yet"
    )
    expect(topics.locator("#outbox-state")).to_be_hidden()
    assert ui.stored_state(topics, "alice", "astral")["passages"] == [passage]


def test_an_article_tab_shows_what_my_topics_sent(ui: Any) -> None:
    """A tab on the article that cannot reach the server itself learns from My topics, in
    another tab, that the operation it holds was saved."""
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    wait_for(page, OUTBOX_OPEN)
    page.route("**/ops", lambda route: route.abort())  # this tab's requests fail
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" then")])))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    topics = page.context.new_page()
    topics.goto(f"{ui.site.url}/topics")
    left = len(ui.site.articles) - 1  # astral judged: the others are left
    expect(topics.locator("#assignments tbody tr").first).to_contain_text(f"{left} of ")
    wait_for(page, f"{QUEUE}.readQueue().length === 0")
    start = document.span(P1)[0] + len("Clef ")
    end = document.span(P1)[0] + p1.index(" then")
    assert page.evaluate(f"async () => {QUEUE}.localState().passages") == [[start, end]]
    assert page.locator("#other-tab").is_visible()


def refuse_once(code: str, status: int, sent: list[dict[str, Any]]) -> Any:
    def handler(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        if len(sent) == 1:
            body = json.dumps({"error": f"refused: {code}", "code": code})
            route.fulfill(status=status, body=body, content_type="application/json")
        else:
            route.continue_()

    return handler


def test_busy_is_retried_and_a_taken_op_id_is_renewed(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    for code, status in (("busy", 503), ("op_id_reused", 409)):
        sent: list[dict[str, Any]] = []
        page.route("**/ops", refuse_once(code, status, sent))
        word = "Clef" if code == "busy" else "starts"
        at = p1.index(word)
        ui.drag_select(page, (P1, units(p1[:at])), (P1, units(p1[: at + len(word)])))
        ui.wait_saved(page)
        page.unroute("**/ops")
        assert len(sent) == 2 and sent[0]["start"] == sent[1]["start"]
        # busy: the same op_id again; op_id_reused: the same operation under a new id
        assert (sent[0]["op_id"] == sent[1]["op_id"]) == (code == "busy")
    base = document.span(P1)[0]
    starts = p1.index("starts")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [
        [base, base + 4],
        [base + starts, base + starts + len("starts")],
    ]
    assert page.locator("#conflict").is_hidden()


def test_a_real_conflict_is_told_plainly_and_not_retried(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p3 = document.text[slice(*document.span(P3))]
    sent: list[dict[str, Any]] = []
    page.route("**/ops", refuse_once("exact_mismatch", 409, sent))
    ui.drag_select(page, (P3, units("Last ")), (P3, units(p3[: p3.index(" paragraph")])))
    conflict = page.locator("#conflict")
    conflict.wait_for(state="visible")
    text = conflict.inner_text()
    assert "was not saved" in text and "Reload the page" in text and "text" in text
    assert "highlight of “🎵”" in text  # says which highlight
    wait_for(page, f"{QUEUE}.readQueue().length === 0")
    assert len(sent) == 1  # dropped, not retried
    assert ui.stored_state(page, "alice", "astral")["status"] == "unjudged"
    assert page.evaluate('[...(CSS.highlights.get("focal-passage") || [])].length') == 0
    page.click("#conflict-dismiss")
    assert conflict.is_hidden()


def test_a_second_tab_on_the_same_article_follows_the_first(ui: Any) -> None:
    first = ui.log_in("alice")
    ui.open_article(first, "alice", "astral")
    second = first.context.new_page()
    ui.open_article(second, "alice", "astral")
    wait_for(second, OUTBOX_OPEN)
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(first, (P1, units("Clef ")), (P1, units(p1[: p1.index(" then")])))
    ui.wait_saved(first)
    start = document.span(P1)[0] + len("Clef ")
    end = document.span(P1)[0] + p1.index(" then")
    wait_for(second, f"{QUEUE}.localState().passages[0]?.[1] === {end}")
    assert second.evaluate(f"async () => {QUEUE}.localState().passages") == [[start, end]]
    assert second.locator("#other-tab").is_visible()
    painted = second.evaluate('[...CSS.highlights.get("focal-passage")].map((r) => r.toString())')
    assert painted == [document.text[start:end]]


def test_a_stale_session_token_keeps_the_operation_until_the_page_is_reloaded(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    wait_for(page, OUTBOX_OPEN)
    sent: list[dict[str, Any]] = []

    def stale(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        body = json.dumps({"error": "missing or wrong CSRF token; reload the page and try again"})
        route.fulfill(status=400, body=body, content_type="application/json")

    page.route("**/ops", stale)
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" then")])))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    assert "reload the page" in page.locator("#save-state").inner_text()
    assert page.evaluate(f"async () => {QUEUE}.readQueue().length") == 1
    assert page.locator("#conflict").is_hidden()
    page.unroute("**/ops")
    page.reload()
    ui.ready(page)
    ui.wait_saved(page)
    start = document.span(P1)[0] + len("Clef ")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [
        [start, document.span(P1)[0] + p1.index(" then")]
    ]
