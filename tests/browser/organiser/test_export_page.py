"""The organiser's export in Chromium, for a topic judged by two assessors.

Alice marks the astral article not relevant, bob highlights a passage of it (real gestures);
olga then exports: without a choice the banner says which topic and who, in words (no CLI flag);
choosing bob downloads bob's qrels; the assessor-column download holds both. The expected lines
are built from Python's `Document.text` lengths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

P1 = "/article[1]/bdy[1]/p[1]"


def downloaded(page: Page, selector: str) -> str:
    with page.expect_download() as info:
        page.click(selector)
    return Path(info.value.path()).read_text(encoding="utf-8")


def test_export_of_a_topic_judged_by_two_assessors(ui: Any) -> None:
    alice = ui.log_in("alice")
    ui.open_article(alice, "alice", "astral")
    alice.keyboard.press("x")
    alice.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(alice)
    ui.wait_saved(alice)

    bob = ui.log_in("bob")
    ui.open_article(bob, "bob", "astral")
    ui.drag_select(bob, (P1, len("Clef ")), (P1, len("Clef 𝄞𝄞 starts".encode("utf-16-le")) // 2))
    ui.wait_saved(bob)
    passages = ui.stored_state(bob, "bob", "astral")["passages"]
    (start, end), length = passages[0], len(ui.site.document("astral").text)

    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/export")
    row = olga.locator("tr", has_text="1: symbols in text")
    assert "alice (1), bob (1)" in row.inner_text()

    # No choice made: nothing is downloaded, the banner says what to do without a CLI flag.
    olga.click("#export-form button[type=submit]")
    banner = olga.locator(".flashes li.error")
    banner.wait_for()
    text = banner.inner_text()
    assert "Topic 1 was judged by alice and bob" in text and "choose" in text
    assert "--" not in text

    olga.select_option("select[aria-label='Assessor for topic 1']", label="bob")
    bob_line = f"astral {end - start} {length} {start} {start}:{end - start}\n"
    assert downloaded(olga, "#export-form button[type=submit]") == f"1 Q0 {bob_line}"
    assert downloaded(olga, "#export-with-assessors") == (
        f"1 alice astral 0 {length}\n1 bob {bob_line}"
    )
