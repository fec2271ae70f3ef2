"""Flag and note in Chromium: a failed save keeps the text, a saved one survives a reload, and
the pool list's "flagged" filter finds the article (tests/browser/conftest.py's live site)."""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTE = "Is the clef relevant?\nSecond line, kept as typed."
# Whether leaving the page now would ask first (the page's beforeunload handler cancels it).
LEAVING_ASKS = """() => {
    const event = new Event("beforeunload", {cancelable: true});
    window.dispatchEvent(event);
    return event.defaultPrevented;
}"""


def test_an_assessor_flags_an_article_writes_a_note_and_finds_it_in_the_pool(ui: Any) -> None:
    page = ui.log_in("alice")
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    ui.open_article(page, "alice", "astral")
    article_url = page.url

    page.check("#note-flag")
    page.fill("#note-input", NOTE)
    page.press("#note-input", "j")  # typing in the note never triggers a shortcut
    page.press("#note-input", "Backspace")
    assert page.url == article_url
    wait_for(page, "document.getElementById('note-status').dataset.state === 'dirty'")

    # The network fails: the panel says so and the text stays where it was typed.
    page.route("**/note", lambda route: route.abort())
    page.click("#note-save")
    wait_for(page, "document.getElementById('note-status').dataset.state === 'error'")
    assert "Not saved" in page.inner_text("#note-status")
    assert page.input_value("#note-input") == NOTE and page.is_checked("#note-flag")
    assert page.evaluate(LEAVING_ASKS)

    page.unroute("**/note")
    page.press("#note-input", "Control+Enter")
    wait_for(page, "document.getElementById('note-status').dataset.state === 'saved'")
    assert not page.evaluate(LEAVING_ASKS)

    page.reload()
    ui.ready(page)
    assert page.is_checked("#note-flag")
    assert page.input_value("#note-input") == NOTE

    page.goto(f"{ui.site.url}/assignments/{ui.site.assignments['alice']}")
    assert page.locator("tr[data-article]").count() == len(ui.site.articles)
    page.check("input[name=status][value=flagged]")  # htmx swaps the list, no reload
    wait_for(page, "document.querySelectorAll('tr[data-article]').length === 1")
    row = page.locator("tr[data-article]")
    assert row.get_attribute("data-article") == "astral"
    assert "Symbols 𝄞 and 😀" in row.inner_text() and "flagged" in row.inner_text()
    assert "status=flagged" in page.url  # the filter is in the address, for back and reload
    assert refused == []
