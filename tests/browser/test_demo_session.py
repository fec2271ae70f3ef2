"""The whole assessment loop, end to end: the demo, judged with the mouse and the keyboard in
Chromium, exported by `focal export-qrels` as exactly the passages that were selected."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page

from focal.assessor.cli.main import main
from focal.evaluation.text.document import Document

from .conftest import DEMO, Browse, LiveSite
from .conftest import DEMO_TOPIC as TOPIC

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOLD = "/article[1]/bdy[1]/p[1]/b[1]"  # "lighthouse" in the first paragraph
P2 = "/article[1]/bdy[1]/p[2]"
WORD = re.compile(r"[\w'’]")  # word characters as the page snaps to them (static/assess/words.js)


def log_in_as_demo_assessor(browser: Browser, site: LiveSite) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{site.url}/login")
    page.fill('input[name="name"]', "assessor")
    page.fill('input[name="password"]', "assessor")
    page.click('button[type="submit"]')
    page.wait_for_url(f"{site.url}/topics")
    return page


def test_demo_judged_in_the_browser_exports_exactly_those_passages(
    browser: Browser, demo_site: LiveSite
) -> None:
    ui = Browse(browser, demo_site)
    page = log_in_as_demo_assessor(browser, demo_site)
    assignment = f"/assignments/{demo_site.assignments['assessor']}"
    page.click(f"a[href='{assignment}']")
    # The click only starts the navigation: read the links once the assignment's page shows them.
    page.wait_for_url(f"{demo_site.url}{assignment}")
    page.locator("a[href*='/articles/']").first.wait_for()
    first, second = [
        href.rsplit("/", 1)[1]
        for href in page.locator("a[href*='/articles/']").evaluate_all(
            "links => [...new Set(links.map(a => a.getAttribute('href')))]"
        )[:2]
    ]
    ui.open_article(page, "assessor", first)

    # Mouse: drag from inside a bold word of the first paragraph into the second paragraph;
    # the page stores the passage on mouse-up, grown to whole words.
    ui.drag_select(page, (BOLD, 2), (P2, 30))
    ui.wait_saved(page)
    selected = page.evaluate("window.__range")
    assert len(selected) > 20
    # Keyboard: j finishes the article (BEP suggested at the passage start) and goes on;
    # x marks the second article not relevant and goes on again.
    page.keyboard.press("j")
    page.wait_for_url(demo_site.article_url("assessor", second))
    ui.ready(page)
    page.keyboard.press("x")
    page.wait_for_url(lambda url: url != demo_site.article_url("assessor", second))
    ui.ready(page)
    ui.wait_saved(page)

    exported = CliRunner().invoke(
        main, ["export-qrels", "--topic", TOPIC, "--assessor", "assessor"]
    )
    assert exported.exit_code == 0, exported.output
    text = Document.from_file(DEMO / f"{first}.xml").text
    start = text.index(selected)
    assert text.count(selected) == 1 and "\n" in selected  # one place, across two paragraphs
    # The ends that fell inside words move to the words' ends (the drag began in "lighthouse").
    end = start + len(selected)
    while start > 0 and WORD.match(text[start - 1]) and WORD.match(text[start]):
        start -= 1
    while end < len(text) and WORD.match(text[end - 1]) and WORD.match(text[end]):
        end += 1
    assert text[start:end].startswith("lighthouse")
    selected = text[start:end]
    length_of_second = len(Document.from_file(DEMO / f"{second}.xml").text)
    # The demo came with judgements of articles further down the pool (demo/qrels): these two
    # are the ones judged here.
    judged_here = [
        line for line in exported.output.splitlines() if line.split()[2] in (first, second)
    ]
    assert judged_here == [
        f"{TOPIC} Q0 {first} {len(selected)} {len(text)} {start} {start}:{len(selected)}",
        f"{TOPIC} Q0 {second} 0 {length_of_second}",
    ]
