"""An organiser's day in Chromium, second pass (docs/organising.md; its screenshots are taken
here when FOCAL_SCREENSHOTS is set).

The Pools form opens with the stored pools' settings and a rebuild of existing pools shows what
changes before anything is replaced; the Report page shows headers in words with definitions,
times as m:ss and charts as wide as the page with every label inside; the Import page shows only
the enabled forms and answers beside the form used, warning about articles the collection lacks;
the campaign's settings switch the runs' outline off for the assessors.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ..assess.test_assessing import P1, units
from ..conftest import wait_for
from ..screenshots import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_pools_are_prefilled_previewed_and_rebuilt_only_when_confirmed(ui: Any) -> None:
    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/pools")
    olga.fill("#pool-size", "2")
    olga.click('#pools form button[type="submit"]')  # no topic ticked: every topic
    preview = olga.locator("#pool-preview")
    preview.wait_for()
    assert "Rebuild 1 pool(s) that assessors may be judging?" in preview.inner_text()
    before = len(ui.site.articles)
    # The one run retrieved the astral article only: 1 article after, the others removed.
    cells = preview.locator("tbody tr").first.locator("td").all_inner_texts()
    assert cells == ["1", str(before), "1", "0", str(before - 1), "0"]
    screenshot(olga, "organise-pool-preview")
    olga.goto(f"{ui.site.url}/organiser/pools")  # leaving: nothing was replaced
    assert olga.locator("#stored-pools tbody tr").first.locator("td").nth(4).inner_text() == str(
        before
    )
    olga.fill("#pool-size", "2")
    olga.click('#pools form button[type="submit"]')
    olga.click("#confirm-rebuild")
    outcome = olga.locator("#pools .outcome.info")
    outcome.wait_for()
    assert "Pooled 1 topic(s): 1 articles to judge." in outcome.inner_text()
    olga.goto(f"{ui.site.url}/organiser/pools")
    assert olga.locator("#pool-size").input_value() == "2"  # the stored size, not 500


def test_the_report_speaks_in_words_minutes_and_full_width_charts(ui: Any) -> None:
    alice = ui.log_in("alice")
    ui.open_article(alice, "alice", "astral")
    ui.drag_select(alice, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    ui.wait_saved(alice)
    alice.keyboard.press("j")
    alice.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(alice)
    ui.wait_saved(alice)

    olga = ui.log_in("olga", viewport={"width": 1366, "height": 768})
    olga.goto(f"{ui.site.url}/organiser/report")
    times = olga.locator("#table-times")
    headers = times.locator("thead th").all_inner_texts()
    assert "Time per relevant article" in headers and "relevant_mean_s" not in headers
    row = times.locator("tbody tr").first.locator("td").all_inner_texts()
    column = headers.index("Time per relevant article")
    assert re.fullmatch(r"\d+:\d\d", row[column]), row
    assert (
        "mean time from showing a relevant article" in times.locator("dl.definitions").inner_text()
    )
    # The charts drawn (two bars or more: one bar says nothing the table does not).
    chart = olga.locator("section.report-table figure.chart svg").first
    chart.scroll_into_view_if_needed()
    chart_id = chart.get_attribute("id")
    section = olga.locator(f"section.report-table:has(#{chart_id})").bounding_box()
    drawn = chart.bounding_box()
    assert section is not None and drawn is not None
    assert drawn["width"] >= 0.95 * section["width"], (drawn, section)
    inside: bool = olga.evaluate(
        """(id) => {
            const svg = document.getElementById(id);
            const box = svg.getBoundingClientRect();
            return [...svg.querySelectorAll("text")].every((t) => {
                const r = t.getBoundingClientRect();
                return r.left >= box.left - 1 && r.right <= box.right + 1
                    && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
            });
        }""",
        chart_id,
    )
    assert inside, "a label of the chart is cut"
    screenshot(olga, "organise-report", times)


def test_the_import_page_shows_what_is_enabled_and_answers_beside_the_form(
    ui: Any, tmp_path: Path
) -> None:
    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/import")
    assert olga.locator("#collection-path").count() == 0  # server paths are off on this site
    assert "so its forms are not shown" in olga.locator("#server-paths").inner_text()
    run = tmp_path / "guess.run"
    run.write_text("1 Q0 astral 1 2.0 guess\n1 Q0 nowhere 2 1.0 guess\n", encoding="utf-8")
    olga.set_input_files("#runs-files", str(run))
    olga.locator("section[aria-labelledby='h-runs'] button[type='submit']").first.click()
    answer = olga.locator("section[aria-labelledby='h-runs'] .import-job[data-status='done']")
    answer.wait_for()
    text = answer.inner_text()
    assert "Imported 1 run(s): guess (2 results)." in text
    assert "Warning: articles absent from the collection (guess names 1)" in text
    assert olga.locator("section[aria-labelledby='h-collection'] .import-job").count() == 0
    screenshot(olga, "organise-import-warning", olga.locator("section[aria-labelledby='h-runs']"))


def test_the_runs_outline_is_switched_off_for_the_campaign(ui: Any) -> None:
    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/settings")
    olga.uncheck("input[name='runs_outline']")
    assert olga.is_checked("input[name='merge_across_punctuation']")  # on by default
    olga.click("#settings-form button[type='submit']")
    olga.wait_for_url(f"{ui.site.url}/organiser/settings")
    assert not olga.is_checked("input[name='runs_outline']")
    screenshot(olga, "organise-settings")

    alice = ui.log_in("alice")
    ui.open_article(alice, "alice", "astral")  # the article the run retrieved a passage of
    assert alice.locator("#toggle-runs").count() == 0
    assert "switched the runs' outline off" in alice.locator("#runs-off").inner_text()
    alice.keyboard.press("r")
    outlined = "(CSS.highlights.get('focal-run')?.size ?? 0)"
    wait_for(alice, f"{outlined} === 0")
    assert alice.evaluate(f"() => {outlined}") == 0
