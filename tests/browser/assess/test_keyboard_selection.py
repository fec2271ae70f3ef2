"""Selecting and highlighting with the keyboard alone (no mouse event at all).

Chromium moves no caret through text that is not editable, so the page moves the selection
(`Selection.modify`); the oracle is Python's text of the article and the DOM's own text of the
selection, not the page script's offsets.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TITLE = "Symbols 𝄞 and 😀"  # the first text of the astral article (conftest)


def selected(page: Any) -> str:
    text: str = page.evaluate("getSelection().rangeCount ? getSelection().getRangeAt(0) + '' : ''")
    return text


WORD = re.compile(r"[\w'’]")  # the page's word characters (static/assess/words.js)


def on_word_boundaries(text: str, start: int, end: int) -> bool:
    """Whether [start, end) of `text` neither starts nor ends inside a word."""
    inside_start = start > 0 and bool(WORD.match(text[start - 1])) and bool(WORD.match(text[start]))
    inside_end = end < len(text) and bool(WORD.match(text[end - 1])) and bool(WORD.match(text[end]))
    return not (inside_start or inside_end)


def test_keyboard_only_selection_highlight_and_best_entry_point(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    text = ui.site.document("astral").text
    assert text.startswith(TITLE)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#caret-marker").is_hidden()

    # The first → shows the cursor before the first character of the body text in view (the
    # title, a heading, is skipped): Shift+→ then selects the body's first letter.
    page.keyboard.press("ArrowRight")
    assert page.locator("#caret-marker").is_visible()
    assert selected(page) == ""
    page.keyboard.press("Shift+ArrowRight")
    assert selected(page) == "C"
    # h highlights in whole words, as a mouse selection does: "C" becomes "Clef".
    page.keyboard.press("h")
    ui.wait_saved(page)
    start = text.index("Clef")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, start + 4]]

    # The cursor waits at the end of the highlight: Shift+↓ selects on into the next line,
    # which ends wherever the line below is; h grows it to the end of that word, and the
    # touching passages merge.
    page.keyboard.press("Shift+ArrowDown")
    more = selected(page)
    assert len(more) > 9 and text[start + 4 :].startswith(more)
    page.keyboard.press("h")
    ui.wait_saved(page)
    [[first, end]] = ui.stored_state(page, "alice", "astral")["passages"]
    assert first == start and end >= start + 4 + len(more.rstrip())
    assert on_word_boundaries(text, first, end) and text[end - 1] != " "
    assert end - (start + 4 + len(more.rstrip())) < 12  # grown to a word's end, no further

    page.keyboard.press("b")  # the best entry point at the cursor: the passage's end
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["bep"] == end

    # Alt+h keeps exactly the characters selected: two letters inside the last word.
    last = text.index("article", end)
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("Control+ArrowRight")  # by words from the cursor, to the last word
    while page.evaluate(CARET_OFFSET) < last + 2:
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    assert selected(page) == text[last + 2 : last + 4]
    page.keyboard.press("Alt+h")
    ui.wait_saved(page)
    assert [last + 2, last + 4] in ui.stored_state(page, "alice", "astral")["passages"]

    page.keyboard.press("?")
    help_text = page.locator("dialog#help").inner_text()
    assert "Shift" in help_text and "select from the cursor" in help_text
    assert "Alt" in help_text and "exactly the selected characters" in help_text


# JavaScript: the caret's offset in the article's text, in code points (Python's `str`), from
# the DOM: the text of a range from the start of #document to the caret.
CARET_OFFSET = """() => {
    const s = getSelection();
    const range = new Range();
    range.setStart(document.getElementById("document"), 0);
    range.setEnd(s.focusNode, s.focusOffset);
    return [...range.toString()].length;
}"""
