"""What the pages say in Chromium: no bare number without its meaning."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from focal.evaluation.text.document import Document

from .conftest import DEMO, Browse, LiveSite, screen_module
from .organiser.test_double_judging import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_modes_page_says_what_the_threshold_is(ui: Any) -> None:
    page = ui.log_in("olga")
    page.click("header nav >> text=Modes")
    field = page.locator('#modes tr[data-topic="1"] input[name="too_small_below"]')
    # Its visible label reads as a sentence around the field, with the unit.
    label = page.locator('#modes tr[data-topic="1"] label:has(input[name="too_small_below"])')
    assert label.inner_text().split() == [
        "elements",
        "shorter",
        "than",
        "characters",
        "are",
        "too",
        "small",
    ]
    placeholder = field.get_attribute("placeholder") or ""
    assert placeholder == "none" and not placeholder.isdigit()
    intro = page.locator("main > p").first.inner_text()
    assert "too-small threshold" in intro and "INEX 2005 used" in intro and "characters" in intro


def test_titles_name_topic_and_article_and_the_site_has_an_icon(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    size = len(ui.site.articles)  # 3 with the shared eLife article, else 2
    assert page.title() == f"astral (1 of {size}) · topic 1: symbols in text · Focal"
    icon = page.locator("link[rel=icon]").get_attribute("href") or ""
    response = page.request.get(ui.site.url + icon)
    assert response.ok and response.headers["content-type"].startswith("image/svg+xml")
    assert response.text().startswith("<svg")
    page.goto(f"{ui.site.url}/assignments/{ui.site.assignments['alice']}")
    assert page.title() == "Topic 1: symbols in text · Focal"
    # `?` opens the list of keys on the article page, Escape closes it.
    ui.open_article(page, "alice", "plain")
    page.keyboard.press("?")
    help_dialog = page.locator("dialog#help")
    assert help_dialog.is_visible() and "Shift" in help_dialog.inner_text()
    page.keyboard.press("Escape")
    assert help_dialog.is_hidden()


def test_an_entry_point_in_a_subsection_is_said_without_repeating_a_word(
    browser: Browser, demo_site: LiveSite
) -> None:
    ui = Browse(browser, demo_site)
    page = log_in(browser, demo_site, "assessor", "/topics")
    article = "1001"  # its second section holds a section of its own
    ui.open_article(page, "assessor", article)
    document = Document.from_file(DEMO / f"{article}.xml")
    path = "/article[1]/bdy[1]/sec[2]/sec[1]/p[1]"
    target = document.element(path)
    offset = next(o for o in range(target.start, target.end) if document.innermost(o) == target)
    panel = screen_module("panel.js")
    described = page.evaluate(f"async () => {panel}.describePoint({offset})")
    assert described == "section 2, subsection 1, paragraph 1"
    words = described.replace(",", "").split()
    assert [w for w in words if not w.isdigit()] == ["section", "subsection", "paragraph"]
