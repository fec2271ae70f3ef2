"""Keyword marks in Chromium: whole words, a style of their own, and a switch to hide them.

The astral article (tests/browser/conftest.py) has "the" as a word twice ("starts the staff",
"of the 🎶 article") and inside "then" once; the counts below were read off ASTRAL_XML.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ..conftest import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MARKED = "() => [...(CSS.highlights.get('focal-keyword') || [])].map((r) => r.toString())"

# The declarations of the page's ::highlight(focal-keyword) rule, from its style sheets.
KEYWORD_RULE = """() => {
    for (const sheet of document.styleSheets) {
        for (const rule of sheet.cssRules) {
            if (rule.selectorText === "::highlight(focal-keyword)") {
                const s = rule.style;
                return {color: s.color, background: s.backgroundColor,
                        decoration: s.textDecoration.split(" ")};
            }
        }
    }
    return null;
}"""


def add_keyword(page: Any, word: str) -> None:
    page.fill("#keyword-input", word)
    page.click("#keywords button[type=submit]:text('Add')")
    page.wait_for_selector(f"#keywords li:has-text('{word}')")


def test_keywords_match_whole_words_and_can_be_hidden(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    text = ui.site.document("astral").text
    assert len(re.findall(r"\bthe\b", text)) == 2 and text.count("the") == 3  # "then"

    add_keyword(page, "The")
    wait_for(page, "CSS.highlights.get('focal-keyword')?.size > 0")
    assert page.evaluate(MARKED) == ["the", "the"]

    # A trailing * matches word beginnings: "art*" finds "article", plain "art" nothing.
    add_keyword(page, "art")
    assert page.evaluate(MARKED) == ["the", "the"]
    add_keyword(page, "art*")
    assert sorted(page.evaluate(MARKED)) == ["art", "the", "the"]

    # Neither a link (coloured, solid underline) nor a highlight (a fill).
    rule = page.evaluate(KEYWORD_RULE)
    assert rule is not None and rule["color"] == "" and rule["background"] == ""
    assert "dotted" in rule["decoration"] and "overline" in rule["decoration"]

    page.uncheck("#toggle-keywords")
    assert page.evaluate(MARKED) == []
    page.reload()  # the choice is remembered
    ui.ready(page)
    assert page.evaluate(MARKED) == [] and not page.locator("#toggle-keywords").is_checked()
    page.keyboard.press("w")
    assert len(page.evaluate(MARKED)) == 3
