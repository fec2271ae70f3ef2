"""What the pages say in Chromium: no bare number without its meaning."""

from __future__ import annotations

from typing import Any

import pytest

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
