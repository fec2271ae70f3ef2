"""The article screen without a mouse, on a laptop and on a phone, and what it costs to load.

- The keyboard-only walk: log in, Continue, skip to the article, highlight two passages that
  begin and end on word boundaries, set the best entry point, Done → next; no mouse event.
- Grips moved with keys, each change announced in words (a live region).
- The judgement panel in view at 1366 × 768 with the narrative open; on a phone the bar stays
  under 80 px, the panel is one tap away and the best entry point's feedback shows; My topics
  fits 390 px; axe-core finds no WCAG 2.2 AA violation (`target-size` included).
- Static files under content-hashed URLs, kept immutable: a later article page asks for none.

The oracles are the stored judgements (the API), Python's text of the article, element boxes
and the requests the server answered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, Response, request, request_finished
from playwright.sync_api import Page, expect

from ..accessibility import violations
from ..conftest import PASSWORDS, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORD = re.compile(r"[\w'’]")  # the page's word characters (static/assess/words.js)
LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}


def on_word_boundaries(text: str, start: int, end: int) -> bool:
    def inside(at: int) -> bool:
        return 0 < at < len(text) and bool(WORD.match(text[at - 1]) and WORD.match(text[at]))

    return not inside(start) and not inside(end)


def tab_to(page: Page, selector: str, limit: int = 60, key: str = "Tab") -> int:
    """Press Tab (or `key`) until the focused element matches `selector`; how many presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press(key)
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return presses
    raise AssertionError(f"{selector} not reached in {limit} Tab presses")


def test_the_keyboard_only_walk(ui: Any) -> None:
    page = ui.browser.new_context(**LAPTOP).new_page()
    page.add_init_script(
        "for (const kind of ['mousedown', 'pointerdown', 'click']) addEventListener(kind, (e) =>"
        " { if (e.detail > 0 || e.pointerType) (window.__mouse ??= []).push(kind); }, true);"
    )
    page.goto(f"{ui.site.url}/login")
    page.keyboard.type("alice")  # the name field has the focus
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORDS["alice"])
    page.keyboard.press("Enter")
    page.wait_for_url(f"{ui.site.url}/topics")
    tab_to(page, "a.continue")
    page.keyboard.press("Enter")
    page.wait_for_url(ui.site.article_url("alice", "astral"))
    ui.ready(page)

    # "Not relevant → next" comes early in the Tab order; the first Tab stop skips to the
    # article (the page again, as it opens: Shift+Tab back to its start).
    assert tab_to(page, "[data-action='nonrelevant']") <= 6
    tab_to(page, ".skip-link", key="Shift+Tab")
    page.keyboard.press("Enter")
    wait_for(page, "document.activeElement?.id === 'document'")

    text = ui.site.document("astral").text
    page.keyboard.press("ArrowRight")  # the cursor, before the body's first character
    for _ in range(3):
        page.keyboard.press("Shift+ArrowRight")  # "Cle"
    page.keyboard.press("h")  # grown to the word: "Clef"
    for _ in range(5):
        page.keyboard.press("Control+ArrowRight")  # by words, towards "smiles"
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("h")
    page.keyboard.press("b")
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert len(state["passages"]) == 2, state
    for start, end in state["passages"]:
        assert on_word_boundaries(text, start, end), text[start:end]
    assert text[slice(*state["passages"][0])] == "Clef"
    assert state["bep"] == state["passages"][1][1]  # at the cursor, after the second passage

    page.keyboard.press("j")
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    done = ui.stored_state(page, "alice", "astral")
    assert (done["status"], done["finished"]) == ("relevant", True)
    assert page.evaluate("window.__mouse ?? []") == []  # no mouse event at all


def test_grips_move_with_keys_and_each_change_is_announced(ui: Any) -> None:
    page = ui.log_in("alice", **LAPTOP)
    ui.open_article(page, "alice", "astral")
    text = ui.site.document("astral").text
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Control+Shift+ArrowRight")
    page.keyboard.press("h")
    ui.wait_saved(page)
    announcer = page.locator("#announcer")
    expect(announcer).to_have_text("Passage added: ‘Clef’")

    tab_to(page, "#passage-list .passage-go")
    page.keyboard.press("Enter")  # selects the passage and takes the focus to its start grip
    wait_for(page, "document.activeElement?.id === 'grip-start'")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "grip-end"
    page.keyboard.press("ArrowRight")  # the end, one word on: "Clef 𝄞𝄞 starts"
    ui.wait_saved(page)
    start = text.index("Clef")
    end = text.index("starts") + len("starts")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end]]
    expect(announcer).to_have_text("Passage added: ‘𝄞𝄞 starts’")
    page.keyboard.press("Alt+ArrowLeft")  # one character back
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end - 1]]
    expect(announcer).to_have_text("Removed from a passage: ‘s’")
    assert page.evaluate("document.activeElement.id") == "grip-end"
    assert page.locator("#grip-end").get_attribute("aria-valuenow") == str(end - 1)


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


def with_a_passage(ui: Any, page: Page) -> None:
    """The first word of the body highlighted with the keys, saved."""
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Control+Shift+ArrowRight")
    page.keyboard.press("h")
    ui.wait_saved(page)


def test_the_judgement_in_view_on_a_laptop_and_a_phone(ui: Any) -> None:
    laptop = ui.log_in("alice", **LAPTOP)
    assert violations(laptop) == []  # My topics
    ui.open_article(laptop, "alice", "astral")  # the first article: the topic is open
    assert laptop.locator("#topic-fold").get_attribute("open") is not None
    with_a_passage(ui, laptop)
    for shown in ("#status-text", "#passage-count", "#bep-text", "#passage-list li"):
        assert in_view(laptop, shown), shown
    assert violations(laptop) == []
    assert violations(laptop, ["target-size"]) == []

    phone = ui.log_in("alice", **PHONE)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"My topics is {width} px wide"
    assert in_view(phone, "a.continue")
    assert violations(phone) == []
    ui.open_article(phone, "alice", "astral")
    bar = phone.locator("#action-bar").bounding_box()
    assert bar is not None and bar["height"] <= 80, bar
    phone.locator("[data-action='bep']").tap()  # accepts the suggested entry point
    ui.wait_saved(phone)
    assert ui.stored_state(phone, "alice", "astral")["bep"] is not None
    expect(phone.locator("#bar-bep")).not_to_have_text("none")
    assert in_view(phone, "#bar-bep") and in_view(phone, "#announcer")
    phone.locator("#bar-summary").tap()  # the panel, one tap away
    wait_for(
        phone, "document.getElementById('state-panel').getBoundingClientRect().top < innerHeight"
    )
    assert in_view(phone, "#status-text")
    assert violations(phone, ["target-size"]) == []


@pytest.fixture
def served(live_site: Any) -> Iterator[list[tuple[str, str]]]:
    """(path, Cache-Control) of every response the live server sent, in order."""
    answered: list[tuple[str, str]] = []

    def record(sender: Flask, response: Response, **_: Any) -> None:
        answered.append((request.path, response.headers.get("Cache-Control", "")))

    request_finished.connect(record, live_site.app)
    yield answered
    request_finished.disconnect(record, live_site.app)


def test_static_files_are_hashed_and_a_later_page_asks_for_none(
    ui: Any, served: list[tuple[str, str]]
) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    first = [(path, cache) for path, cache in served if "/static/" in path]
    assert len(first) >= 10  # the screen's modules, once
    assert all(path.startswith("/v/") and "immutable" in cache for path, cache in first), first
    served.clear()
    page.keyboard.press("x")
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    # Chromium's favicon service fetches the icon on its own, outside the page's HTTP cache
    # (it asked again here on a busy machine, once with a conditional request): not the page's
    assets = [path for path, _ in served if "/static/" in path]
    assert [path for path in assets if not path.endswith("/favicon.svg")] == []
    pages = [entry for entry in served if not entry[0].endswith("/favicon.svg")]
    assert len(pages) <= 8, served  # the page, its state, the operation, the view events
