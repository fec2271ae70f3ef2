"""The adjudication overlay in Chromium tells assessor A, B and both apart without colour: each
kind of mark has its own underline style, the legend shows the same styles beside the names."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from ..conftest import DEMO_TOPIC as TOPIC
from ..conftest import LiveSite
from .test_double_judging import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KINDS = ("a", "b", "both")
STYLE = """(selector) => {
    const style = getComputedStyle(document.querySelector(selector));
    return [style.textDecorationLine, style.textDecorationStyle].join(" ");
}"""


def test_a_b_and_both_differ_by_more_than_colour(browser: Browser, demo_site: LiveSite) -> None:
    # 1005 of the demo's double-judged topic: both relevant, the first assessor's passage inside
    # the second's (marks by-b and by-both); 1006: only the first assessor's (by-a).
    page = log_in(browser, demo_site, "organiser", "/organiser/progress")
    page.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}/1005")
    legend = {kind: page.evaluate(STYLE, f"#adjudication-legend mark.by-{kind}") for kind in KINDS}
    assert all(style.startswith("underline") for style in legend.values()), legend
    assert len(set(legend.values())) == 3, legend  # three patterns, not three colours only
    shown = {}
    for article, kinds in (("1005", ("b", "both")), ("1006", ("a",))):
        page.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}/{article}")
        for kind in kinds:
            expect(page.locator(f"#overlay mark.by-{kind}").first).to_be_visible()
            shown[kind] = page.evaluate(STYLE, f"#overlay mark.by-{kind}")
    assert shown == legend  # the article's marks look as the legend says
