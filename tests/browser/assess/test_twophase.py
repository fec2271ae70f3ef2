"""The 2005 two-phase screen in Chromium: from a highlight across elements to exported values.

The oracle for which elements need a value, and for the exported sizes, is Python's element
table of the article (`Document.elements`); the values are the INEX 2005 rules applied by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import Page

from focal.assessor.cli.main import main

from ..conftest import PASSWORDS, wait_for
from .test_assessing import P1, P2, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTICLE = "/article[1]"
BDY = "/article[1]/bdy[1]"


def set_topic_mode(ui: Any, mode: str) -> None:
    """The organiser chooses the mode on the modes screen (an htmx form)."""
    page = ui.browser.new_context().new_page()
    page.goto(f"{ui.site.url}/login")
    page.fill('input[name="name"]', "olga")
    page.fill('input[name="password"]', PASSWORDS["olga"])
    page.click('button[type="submit"]')
    page.click("header nav >> text=Modes")
    row = page.locator('#modes tr[data-topic="1"]')
    row.locator('select[name="mode"]').select_option(mode)
    row.locator("button[type=submit]").click()
    page.wait_for_selector(f'#modes tr[data-topic="1"][data-mode="{mode}"]')
    page.context.close()


def rows(page: Page) -> dict[str, str]:
    """path -> value of every element listed on the two-phase screen."""
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("#twophase tr[data-path]")]
            .map((tr) => [tr.dataset.path, tr.dataset.value]))"""
    )
    return found


def give(page: Page, path: str, value: str) -> None:
    """Click a value button of one element and wait for htmx to swap the screen."""
    page.evaluate("document.getElementById('twophase').dataset.old = 'yes'")
    page.locator(f'#twophase tr[data-path="{path}"] button[value="{value}"]').click()
    wait_for(page, "document.getElementById('twophase').dataset.old === undefined")


def test_two_phase_from_highlight_to_exported_values(
    ui: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    assert page.locator("#two-phase-link").count() == 0  # the 2006 scale needs no second phase
    set_topic_mode(ui, "2005")
    page.reload()
    ui.ready(page)
    document = ui.site.document("astral")
    p1_text = document.text[slice(*document.span(P1))]
    # From "starts" in the first paragraph to just after "More 𝌆 " in the second.
    ui.drag_select(page, (P1, units(p1_text[: p1_text.index("starts")])), (P2, units("More 𝌆 ")))
    ui.wait_saved(page)
    start = document.span(P1)[0] + p1_text.index("starts")
    end = document.span(P2)[0] + len("More 𝌆")  # the space after the drag's end is trimmed
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end]]
    intersecting = {e.path for e in document.elements if e.start < end and start < e.end}
    assert intersecting == {ARTICLE, BDY, P1, P2}  # not the title, p[3] or the italic

    page.keyboard.press("e")  # to the two-phase screen, once the highlight is saved
    page.wait_for_url(f"{ui.site.url}/twophase/assignments/{ui.site.assignments['alice']}/astral")
    page.evaluate("window.__same_page = true")  # gone if a button reloaded the page
    assert rows(page) == {path: "" for path in intersecting}
    assert page.locator("#needs-value").get_attribute("data-count") == "4"
    assert page.locator("#twophase tr.needs-value").count() == 4

    give(page, P2, "2")  # 2 propagates to every ancestor
    assert rows(page) == {ARTICLE: "2", BDY: "2", P1: "", P2: "2"}
    assert "2 propagates to ancestors" in page.locator("#twophase .changes").inner_text()
    assert page.locator("#needs-value").get_attribute("data-count") == "1"

    give(page, P1, "1")
    assert rows(page) == {ARTICLE: "2", BDY: "2", P1: "1", P2: "2"}
    assert "Every element that intersects a highlight has a value" in page.inner_text("#twophase")

    give(page, BDY, "0")  # less than its children: GAIN resets bdy and flags it
    assert rows(page) == {ARTICLE: "2", BDY: "", P1: "1", P2: "2"}
    flagged = page.locator(f'#twophase tr.flagged[data-path="{BDY}"] .flag')
    assert flagged.is_visible() and "S-Rule GAIN" in flagged.inner_text()
    gain = page.locator('#twophase li[data-rule="S-Rule GAIN"]')
    assert gain.get_attribute("class") == "open" and "1 element(s) flagged" in gain.inner_text()

    give(page, BDY, "2")
    assert rows(page) == {ARTICLE: "2", BDY: "2", P1: "1", P2: "2"}
    assert page.locator("#twophase tr.flagged").count() == 0
    assert page.locator('#twophase li[data-rule="S-Rule GAIN"]').get_attribute("class") == "ok"
    assert page.evaluate("window.__same_page") is True

    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'live.sqlite'}")
    exported = CliRunner().invoke(main, ["export-qrels", "--format", "elements", "--topic", "1"])
    assert exported.exit_code == 0, exported.output
    given = {ARTICLE: "2", BDY: "2", P1: "1", P2: "2"}
    lines = [line.split("\t") for line in exported.output.splitlines()]
    assert {line[2] for line in lines} == intersecting
    for topic, article, path, exhaustivity, specificity, rsize, size in lines:
        element = document.element(path)
        overlap = min(end, element.end) - max(start, element.start)
        assert (topic, article, exhaustivity) == ("1", "astral", given[path])
        assert (int(rsize), int(size)) == (overlap, element.size)
        assert float(specificity) == pytest.approx(overlap / element.size)


def test_a_refused_value_is_shown_where_the_assessor_clicked(ui: Any) -> None:
    """The organiser switches the topic back to 2006 while the screen is open: the click is
    refused (422) and htmx shows why, instead of doing nothing."""
    set_topic_mode(ui, "2005")
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    ui.wait_saved(page)
    page.click("#two-phase-link")
    page.wait_for_selector("#twophase tr[data-path] button[value='1']")
    set_topic_mode(ui, "2006")
    give(page, P1, "1")
    assert "assessed on the 2006 scale" in page.locator("#twophase [role=alert]").inner_text()
    assert "uses the 2006 scale" in page.inner_text("#twophase")
    assert page.locator("#twophase button[name=value]").count() == 0
    assert set(rows(page).values()) == {""}
