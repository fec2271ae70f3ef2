"""Every page of the demo in Chromium, as its users reach it: the organiser follows every link of
the navigation (and, from them, a topic's agreement, an article compared, the adjudication queue
and an article to decide), an assessor follows My topics to a pool and an article. axe-core finds
no WCAG 2.2 A/AA violation on any of them, and the organiser's pages speak the organiser's words:
no developers' identifiers, command lines, environment variables or bare paper citations
(docs/assessing.md, "Glossary: the words on the pages")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

from ..accessibility import violations
from ..conftest import DEMO_TOPIC as TOPIC
from ..conftest import LiveSite
from .test_double_judging import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FORBIDDEN = [
    (re.compile(r"\bseeds? 0\d\d\b"), "a paper cited by its seed number (cite author and year)"),
    (re.compile(r"\bspec(?:ification)? (?:section|§)", re.IGNORECASE), "the design document"),
    (re.compile(r"\bFOCAL_[A-Z_]+"), "an environment variable"),
    (re.compile(r"\bfocal [a-z][a-z-]+"), "a command line"),
    (re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"), "a raw column or field name"),
    (
        re.compile(r"\bunjudged\b", re.IGNORECASE),
        "'unjudged' (the interface says 'not judged yet')",
    ),
    # "Leave it not judged" is an action, not a state.
    (
        re.compile(r"(?<!leave it )\bnot judged\b(?! yet)", re.IGNORECASE),
        "'not judged' without 'yet'",
    ),
    (re.compile(r"\bnon-?relevant\b", re.IGNORECASE), "'nonrelevant' (say 'not relevant')"),
    (re.compile(r"\bthompson-ns\b"), "a policy's code name"),
    (re.compile(r"treat the runs as arms"), "the bandit's jargon"),
]
"""What an organiser page must not say, with why."""
VOCABULARY = [rule for rule in FORBIDDEN if "'" in rule[1]]
"""The judgement states in the interface's one vocabulary: every page, the assessor's too."""
RAW_HEADERS = {"what", "of"}
"""Column headers that are field names, not words: forbidden as a whole header cell."""


def nav_links(page: Page) -> list[str]:
    hrefs: list[str] = page.locator("header nav a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    return list(dict.fromkeys(hrefs))


SAYS = """() => {
    const copy = document.body.cloneNode(true);
    copy.querySelectorAll("script, .overlay, #document").forEach((part) => part.remove());
    return copy.textContent;
}"""
"""Everything the page says but the articles' own text (an overlay of two assessors' passages)."""


def wording(page: Page, rules: list[tuple[re.Pattern[str], str]] = FORBIDDEN) -> list[str]:
    """What the page says that the organiser's words exclude, one line per finding."""
    text: str = page.evaluate(SAYS)
    found = [
        f"{page.url}: {why}: {match.group(0)!r}"
        for pattern, why in rules
        for match in pattern.finditer(text)
    ]
    headers = page.locator("th").all_inner_texts()
    found += [
        f"{page.url}: raw column header {h!r}" for h in headers if h.strip().lower() in RAW_HEADERS
    ]
    return found


def visit(page: Page, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("load")
    return [f"{url}: {line}" for line in violations(page)]


def test_every_organiser_page_is_accessible_and_in_the_organisers_words(
    browser: Browser, demo_site: LiveSite
) -> None:
    page = log_in(browser, demo_site, "organiser", "/organiser/progress")
    links = nav_links(page)
    assert len(links) >= 12  # every organiser page is in the navigation
    found: list[str] = []
    words: list[str] = []
    for href in links:
        found += visit(page, demo_site.url + href)
        words += wording(page)
    # The pages the navigation leads to: a topic's agreement, an article of it, the queue.
    page.goto(f"{demo_site.url}/organiser/agreement")
    page.click(f"#agreement-table a:text-is('{TOPIC}')")
    page.wait_for_url(f"**/organiser/agreement/{TOPIC}**")
    found += visit(page, page.url)
    words += wording(page)
    page.locator("#compared-articles a").first.click()
    page.locator("#overlay").wait_for()
    found += visit(page, page.url)
    words += wording(page)
    page.goto(f"{demo_site.url}/organiser/adjudicate")
    page.click(f"#adjudication-topics a:text-is('{TOPIC}')")
    page.locator("#adjudication-queue").wait_for()
    found += visit(page, page.url)
    words += wording(page)
    page.click("#next-disagreement")
    page.locator("#decisions").wait_for()
    found += visit(page, page.url)
    words += wording(page)
    assert not found + words, "\n".join(found + words)


def test_every_assessor_page_is_accessible_and_in_one_vocabulary(
    browser: Browser, demo_site: LiveSite
) -> None:
    page = log_in(browser, demo_site, "assessor", "/topics")
    found = visit(page, page.url) + wording(page, VOCABULARY)
    for href in nav_links(page):
        found += visit(page, demo_site.url + href) + wording(page, VOCABULARY)
    page.goto(f"{demo_site.url}/assignments/{demo_site.assignments['assessor']}")
    found += visit(page, page.url) + wording(page, VOCABULARY)
    page.locator("a[href*='/articles/']").first.click()
    page.wait_for_url("**/articles/*")
    page.wait_for_function("document.body.dataset.outbox !== undefined")
    found += visit(page, page.url) + wording(page, VOCABULARY)
    assert not found, "\n".join(found)
