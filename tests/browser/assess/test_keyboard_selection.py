"""Selecting and highlighting with the keyboard alone (no mouse event at all).

Chromium moves no caret through text that is not editable, so the page moves the selection
(`Selection.modify`); the oracle is Python's text of the article and the DOM's own text of the
selection, not the page script's offsets.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TITLE = "Symbols 𝄞 and 😀"  # the first text of the astral article (conftest)


def selected(page: Any) -> str:
    text: str = page.evaluate("getSelection().rangeCount ? getSelection().getRangeAt(0) + '' : ''")
    return text


def test_keyboard_only_selection_highlight_and_best_entry_point(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    text = ui.site.document("astral").text
    assert text.startswith(TITLE)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#caret-marker").is_hidden()

    # The cursor starts at the top of the body text in view: the title, a heading, is skipped.
    for _ in range(len("Clef ")):
        page.keyboard.press("ArrowRight")
    assert page.locator("#caret-marker").is_visible()
    assert selected(page) == ""
    for _ in range(len("𝄞𝄞 starts")):  # one step over each astral character (two UTF-16 units)
        page.keyboard.press("Shift+ArrowRight")
    assert selected(page) == "𝄞𝄞 starts"
    page.keyboard.press("h")
    ui.wait_saved(page)
    start = text.index("𝄞𝄞 starts")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, start + 9]]

    # The cursor waits at the end of the highlight: Shift+↓ selects on into the next line,
    # and the touching passages merge.
    page.keyboard.press("Shift+ArrowDown")
    more = selected(page)
    assert len(more) > 9 and text[start + 9 :].startswith(more)
    page.keyboard.press("h")
    ui.wait_saved(page)
    caret = start + 9 + len(more)
    end = start + 9 + len(more.rstrip())  # a passage never ends with a space
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end]]

    page.keyboard.press("b")  # the best entry point at the cursor
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["bep"] == caret

    page.keyboard.press("?")
    help_text = page.locator("dialog#help").inner_text()
    assert "Shift" in help_text and "select from the cursor" in help_text
