"""The assessment screen's gestures in Chromium: word snapping, partial removal, passage grips,
the passage list and outline, the sticky action bar, the folded topic, and the phone layout
with touch selection (docs/assessor.md, "The assessment screen: gestures").

The oracle is the judgement the server stores (through the API) and Python's `Document.text`
(code points), never the page script's arithmetic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from focal.assessor.store import db
from focal.assessor.store.models import Topic

from ..assessor_steps import MOUSEUP, SELECT
from ..conftest import wait_for
from .test_assessing import P1, P3, passages_painted, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def span(ui: Any, path: str, before: str, text: str) -> list[int]:
    """[start, end) in code points of `text`, which follows `before` in the element at `path`."""
    document = ui.site.document("astral")
    base = document.span(path)[0]
    whole = document.text[slice(*document.span(path))]
    assert whole.startswith(before + text), whole
    return [base + len(before), base + len(before) + len(text)]


def passages(ui: Any, page: Page) -> list[list[int]]:
    ui.wait_saved(page)
    found: list[list[int]] = ui.stored_state(page, "alice", "astral")["passages"]
    return found


def test_mouse_selection_grows_to_whole_words_and_alt_keeps_characters(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    # From inside "starts" to inside "staff": the highlight is "starts the staff".
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 st")), (P1, units("Clef 𝄞𝄞 starts the sta")))
    words = span(ui, P1, "Clef 𝄞𝄞 ", "starts the staff")
    assert passages(ui, page) == [words]
    # With Alt held: exactly the characters dragged over, after two astral characters.
    page.keyboard.down("Alt")
    ui.drag_select(page, (P3, units("Last 🎵 pa")), (P3, units("Last 🎵 paragr")))
    page.keyboard.up("Alt")
    assert passages(ui, page) == [words, span(ui, P3, "Last 🎵 pa", "ragr")]


def test_drag_inside_a_passage_and_delete_removes_just_that_text(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 ")), (P1, units("Clef 𝄞𝄞 starts the staff, then")))
    whole = span(ui, P1, "Clef 𝄞𝄞 ", "starts the staff, then")
    assert passages(ui, page) == [whole]
    # A drag inside the passage highlights nothing; it offers the removal of that text.
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 starts t")), (P1, units("Clef 𝄞𝄞 starts the st")))
    assert page.locator("#bar-remove-text").is_visible()
    assert passages(ui, page) == [whole]
    page.keyboard.press("Delete")
    removed = span(ui, P1, "Clef 𝄞𝄞 starts ", "the staff")
    # "starts " loses its space; ", then" starts with a comma, which stays.
    left, right = [whole[0], removed[0] - 1], [removed[1], whole[1]]
    assert passages(ui, page) == [left, right]
    assert passages_painted(page) == [left, right]
    page.keyboard.press("u")  # one action: undone at once
    assert passages(ui, page) == [whole]
    page.keyboard.press("?")  # the key list names the new keys
    keys = page.locator("dialog#help").inner_text()
    assert "remove the selected text from a highlight" in keys and "Alt+drag" in keys


def test_programmatic_selection_inside_a_passage_and_the_remove_button(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    p3 = "Last 🎵 paragraph of the 🎶 article."
    page.evaluate(SELECT, [P3, units("Last 🎵 "), units(p3[: p3.index(".")])])
    page.evaluate(MOUSEUP)
    whole = span(ui, P3, "Last 🎵 ", "paragraph of the 🎶 article")
    assert passages(ui, page) == [whole]
    page.evaluate(SELECT, [P3, units("Last 🎵 paragraph "), units("Last 🎵 paragraph of the")])
    page.evaluate(MOUSEUP)
    page.click("#bar-remove-text")
    gap = span(ui, P3, "Last 🎵 paragraph ", "of the")
    # "paragraph " and " 🎶 article" lose the spaces beside the removed words.
    assert passages(ui, page) == [[whole[0], gap[0] - 1], [gap[1] + 1, whole[1]]]


def grip_drag(ui: Any, page: Page, grip: str, to: tuple[str, int]) -> None:
    box = page.locator(grip).bounding_box()
    assert box is not None
    (target,) = ui.char_points(page, to)
    box = page.locator(grip).bounding_box()  # char_points scrolls the page
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"], target["y"], steps=8)
    page.mouse.up()


def test_grips_extend_and_trim_the_selected_passage(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 starts ")), (P1, units("Clef 𝄞𝄞 starts the staff")))
    assert passages(ui, page) == [span(ui, P1, "Clef 𝄞𝄞 starts ", "the staff")]
    # The end grip dragged past ", then": the passage grows to the end of "then".
    grip_drag(ui, page, "#grip-end", (P1, units("Clef 𝄞𝄞 starts the staff, then")))
    assert passages(ui, page) == [span(ui, P1, "Clef 𝄞𝄞 starts ", "the staff, then")]
    # The start grip dragged into "staff": snapped to the word, "the " is left out.
    grip_drag(ui, page, "#grip-start", (P1, units("Clef 𝄞𝄞 starts the st")))
    assert passages(ui, page) == [span(ui, P1, "Clef 𝄞𝄞 starts the ", "staff, then")]
    page.keyboard.press("u")
    assert passages(ui, page) == [span(ui, P1, "Clef 𝄞𝄞 starts ", "the staff, then")]


def test_passage_list_shows_scrolls_to_and_removes_passages(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 ")), (P1, units("Clef 𝄞𝄞 starts the staff")))
    ui.drag_select(page, (P3, units("Last 🎵 ")), (P3, units("Last 🎵 paragraph")))
    first = span(ui, P1, "Clef 𝄞𝄞 ", "starts the staff")
    second = span(ui, P3, "Last 🎵 ", "paragraph")
    assert passages(ui, page) == [first, second]
    items = page.locator("#passage-list li")
    assert items.count() == 2
    assert items.nth(0).locator(".passage-go").inner_text() == "starts the staff"
    assert items.nth(0).locator(".passage-length").inner_text() == "16 ch"
    assert items.nth(1).locator(".passage-length").inner_text() == "9 ch"
    # One line per passage: where it starts is the tooltip, not a line of its own.
    assert items.nth(0).get_attribute("title") == "paragraph 1: 16 characters"
    for i in range(2):
        line = items.nth(i).locator(".passage-length").bounding_box()
        whole = items.nth(i).bounding_box()
        assert line is not None and whole is not None
        assert whole["height"] < 2 * line["height"], (whole, line)
    items.nth(1).locator(".passage-go").click()  # selects it: its grips show
    assert page.locator("#bar-remove-passage").is_visible()
    page.click('[aria-label="Remove passage 2"]')
    assert passages(ui, page) == [first]
    assert page.locator("#passage-list li").count() == 1
    page.keyboard.press("u")
    assert passages(ui, page) == [first, second]
    assert page.locator("#passage-list li").count() == 2


def test_outline_lists_the_sections_and_jumps_to_them(ui: Any, shared_collections: Path) -> None:
    assert "elife00240" in ui.site.articles
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "elife00240")
    entries = page.locator("#outline .outline-go")
    labels = [entries.nth(i).inner_text() for i in range(entries.count())]
    # The article's abstract, its box and its references, named by their heading if any.
    assert labels == ["abstract 1", "box 1", "references 1: References"], labels
    assert page.evaluate("window.scrollY") == 0
    entries.nth(2).click()
    top = page.evaluate(
        """() => document.querySelector('#document [data-path$="/ref-list[1]"]')
            .getBoundingClientRect().top"""
    )
    bar = page.locator("#action-bar").bounding_box()
    # In view, below the sticky action bar (the last section cannot reach the top of the view).
    assert bar is not None and bar["y"] + bar["height"] <= top < page.viewport_size["height"] / 2
    assert page.evaluate("window.scrollY") > 0


def test_action_bar_stays_in_view_on_desktop_and_phone(ui: Any) -> None:
    for context in ({"viewport": {"width": 1440, "height": 900}}, PHONE):
        page = ui.log_in("alice", **context)
        ui.open_article(page, "alice", "astral")
        # A long article: the text is made tall (its text unchanged) and scrolled far down.
        page.evaluate("document.getElementById('document').style.minHeight = '6000px'")
        page.evaluate("window.scrollTo(0, 4000)")
        assert page.evaluate("window.scrollY") > 3000
        box = page.locator("#action-bar").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 300, box
        for name in ("nonrelevant", "next", "undo", "highlight"):
            assert page.locator(f'#action-bar [data-action="{name}"]').is_visible(), name


def test_topic_is_open_on_the_first_article_only(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")  # the first article of the pool
    assert page.locator("#topic-fold").get_attribute("open") is not None
    ui.open_article(page, "alice", "plain")
    assert page.locator("#topic-fold").get_attribute("open") is None
    assert page.locator("#topic-heading").is_visible()  # "Topic 1: …" stays, folded
    page.click("#topic-fold summary")  # the assessor's choice is remembered
    ui.open_article(page, "alice", "plain")
    assert page.locator("#topic-fold").get_attribute("open") is not None


def test_phone_shows_the_text_first_and_touch_selection_highlights(ui: Any) -> None:
    page = ui.log_in("alice", **PHONE)
    ui.open_article(page, "alice", "astral")
    top = page.evaluate("document.getElementById('document').getBoundingClientRect().top")
    assert top < 844, top
    # A touch selection (long press, then the native handles) ends inside "staff"; no mouse-up
    # follows it, so the selection bar offers "Highlight", which grows it to whole words.
    page.evaluate(SELECT, [P1, units("Clef 𝄞𝄞 "), units("Clef 𝄞𝄞 starts the st")])
    page.evaluate("document.dispatchEvent(new Event('selectionchange'))")
    button = page.locator("#bar-highlight")
    wait_for(page, "!document.getElementById('selection-bar').hidden")
    button.tap()
    assert passages(ui, page) == [span(ui, P1, "Clef 𝄞𝄞 ", "starts the staff")]


def test_phone_keeps_a_long_topic_folded_so_the_text_starts_on_the_first_screen(ui: Any) -> None:
    # A narrative as long as the demo's (about 900 characters) pushed the text below the first
    # screen of a 390x844 phone when the topic was open on the first article.
    with db.session_scope(ui.site.app) as session:
        session.get(Topic, "1").narrative = "Relevant are passages that explain the staff. " * 20
    page = ui.log_in("alice", **PHONE)
    ui.open_article(page, "alice", "astral")  # the first article of the pool
    assert page.locator("#topic-fold").get_attribute("open") is None
    top = page.evaluate("document.getElementById('document').getBoundingClientRect().top")
    assert top < 600, top
    page.locator("#topic-fold summary").tap()  # the title is the summary; a tap opens it
    assert page.locator("#topic-fold").get_attribute("open") is not None
    ui.open_article(page, "alice", "plain")  # and the choice is remembered
    assert page.locator("#topic-fold").get_attribute("open") is not None
