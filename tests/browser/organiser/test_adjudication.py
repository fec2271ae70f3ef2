"""The demo adjudicated in Chromium: `assessor` judges two articles of topic 9001 against
`assessor2`'s loaded judgements (demo/qrels/assessor2-9001.qrels: 1003 relevant, 1004 not), the
organiser decides both disagreements from the queue, and `focal export-qrels --adjudicated` and
`focal agreement` read the gold. Assessors see neither the queue nor the gold."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect

from focal.assessor.cli.main import main
from focal.evaluation.formats.fol.qrels import read_qrels

from ..accessibility import violations
from ..conftest import DEMO, Browse, LiveSite
from ..conftest import DEMO_TOPIC as TOPIC
from .test_double_judging import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GOLD_POINTS = """([opening, start, end]) => {
    const walker = document.createTreeWalker(
        document.getElementById("gold-overlay"), NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && !node.data.startsWith(opening)) node = walker.nextNode();
    node.parentElement.scrollIntoView({block: "center"});
    const points = [start, end].map((units) => {
        const range = new Range();
        range.setStart(node, units);
        range.setEnd(node, units + 1);
        const rect = range.getClientRects()[0];
        return {x: rect.left + 1, y: rect.top + rect.height / 2};
    });
    return [...points, node.data];
}"""
"""Where characters `start` and `end` of the gold view's text node opening with `opening` are
on screen, and that node's text (the gold view has the article's text nodes verbatim)."""
OPENING = "A lightvessel has no engine"
"""The opening of 1004's /article[1]/bdy[1]/sec[1]/p[1], a long text node."""
P1 = "/article[1]/bdy[1]/sec[1]/p[1]"  # a long text node first: offsets 20-80 fall in it


def decide(page: Page, key: str, warning: str | None = None) -> None:
    """Preview decision `key` (checking its warning, or that there is none when `warning` is
    ""), then save it, as an organiser does."""
    page.click(f"#decisions button[data-decision='{key}']")
    expect(page.locator("#preview-summary")).to_contain_text("The gold would be")
    if warning:
        expect(page.locator("#preview-warning")).to_contain_text(warning)
        assert violations(page) == []  # the preview with its warning, at WCAG 2.2 AA
    elif warning == "":
        expect(page.locator("#preview-warning")).to_have_count(0)
    page.click("#save-decision")


def test_an_organiser_adjudicates_every_disagreement(browser: Browser, demo_site: LiveSite) -> None:
    ui = Browse(browser, demo_site)
    assessor = log_in(browser, demo_site, "assessor", "/topics")
    ui.open_article(assessor, "assessor", "1004")  # assessor2: not relevant
    assessor.keyboard.down("Alt")
    ui.drag_select(assessor, (P1, 20), (P1, 80))
    assessor.keyboard.up("Alt")
    ui.wait_saved(assessor)
    ui.open_article(assessor, "assessor", "1003")  # assessor2: relevant
    assessor.keyboard.press("x")  # not relevant, then the next article
    assessor.wait_for_url("**/articles/1004")
    ui.ready(assessor)
    ui.wait_saved(assessor)
    for path in ("/organiser/adjudicate", f"/organiser/adjudicate/{TOPIC}/1003"):
        assert assessor.request.get(f"{demo_site.url}{path}").status == 403

    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.click("nav >> text=Adjudication")
    expect(organiser.locator("#adjudication-topics")).to_contain_text("0 / 4")
    organiser.click(f"#adjudication-topics a:text-is('{TOPIC}')")
    rows = organiser.locator("#adjudication-queue tbody tr")
    # Opposite verdicts first (disagreement 1, by article: the two judged here and 1006 of the
    # demo's own double judgement), then 1005, where the loaded passages partly agree.
    expect(rows).to_have_count(4)
    assert rows.locator("td:first-child").all_inner_texts() == ["1003", "1004", "1006", "1005"]
    organiser.click("#next-disagreement")
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}/1003")
    expect(organiser.locator("#adjudication-legend")).to_contain_text(
        "assessor2: relevant, 1 passage; best entry point before “The lighthouse was equipped"
    )
    expect(organiser.locator("#overlay mark.by-b").first).to_be_visible()
    decide(organiser, "b", warning="")  # assessor2's judgement: relevant, no warning
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}/1004")
    expect(organiser.locator(".flashes")).to_contain_text(
        "Article 1003 decided: assessor2's judgement."
    )
    # nothing in common: the intersection turns assessor's relevant article not relevant
    decide(organiser, "intersection", "assessor judged article 1004 relevant: this gold makes")
    for article in ("1006", "1005"):  # the demo's own disagreements: assessor2's judgement
        organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}/{article}")
        decide(organiser, "b")
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}")
    expect(organiser.locator("#adjudication-progress")).to_contain_text("4 of 4 decided")
    organiser.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}/1003")
    expect(organiser.locator("#gold-summary")).to_contain_text("Decided by organiser")
    expect(organiser.locator("#gold-overlay mark.by-a").first).to_be_visible()

    # 1004's gold (the empty intersection) edited by hand: an exact drag over characters
    # 20-80 of the paragraph, as on the assessment screen
    organiser.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}/1004")
    begin, finish, paragraph = organiser.evaluate(GOLD_POINTS, [OPENING, 20, 80])
    organiser.keyboard.down("Alt")
    organiser.mouse.move(begin["x"], begin["y"])
    organiser.mouse.down()
    organiser.mouse.move(finish["x"], finish["y"], steps=12)
    organiser.mouse.up()
    organiser.keyboard.up("Alt")
    expect(organiser.locator("#gold-summary")).to_contain_text("edited by hand: relevant")
    edited = "".join(organiser.locator("#gold-overlay mark.by-a").all_text_contents())
    assert edited == paragraph[20:80]
    history = organiser.locator("#gold-history tbody tr")
    expect(history).to_have_count(2)
    steps = history.locator("td:nth-child(3)").all_inner_texts()
    assert steps[0] == "decided: only what both highlighted (intersection)"
    drawn = re.fullmatch(r"highlighted characters (\d+)–(\d+)", steps[1])
    assert drawn is not None and int(drawn[2]) - int(drawn[1]) == 60
    assert history.locator("td:nth-child(2)").all_inner_texts() == ["organiser", "organiser"]
    assert violations(organiser) == []  # the article page with its history
    organiser.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}")
    gold_cell = organiser.locator("#adjudication-queue tr:has(a:text-is('1004')) td:last-child")
    expect(gold_cell).to_have_text("edited by hand: relevant, 1 passage (60 characters)")
    assert violations(organiser) == []

    # the adjudicated qrels from the Export page, as the adjudication page links to them
    organiser.goto(f"{demo_site.url}/organiser/adjudicate/{TOPIC}/1004")
    organiser.click("text=Export the adjudicated qrels")
    organiser.select_option("#adjudicated-topic", TOPIC)
    with organiser.expect_download() as download:
        organiser.click("#export-adjudicated button")
    downloaded = Path(download.value.path()).read_text(encoding="utf-8")

    exported = CliRunner().invoke(main, ["export-qrels", "--adjudicated", "--topic", TOPIC])
    assert exported.exit_code == 0, exported.output
    assert downloaded == exported.stdout
    lines = {line.split()[2]: line for line in exported.stdout.splitlines()}
    loaded = read_qrels(DEMO.parent / "qrels" / "assessor2-9001.qrels")[TOPIC]
    # 1003: assessor2's passage; 1004: intersection of a passage and nothing: not relevant
    assert lines["1003"].split()[3:] == [
        str(loaded["1003"].rel_chars),
        str(loaded["1003"].article_chars),
        str(loaded["1003"].bep),
        f"{loaded['1003'].passages[0][0]}:{loaded['1003'].rel_chars}",
    ]
    # 1004: the gold edited by hand, 60 characters
    assert lines["1004"].split()[3] == "60"

    def agreement(*args: str) -> dict[str, float | None]:
        result = CliRunner().invoke(main, ["agreement", "--format", "json", "--gamma", *args])
        assert result.exit_code == 0, result.output
        row: dict[str, float | None] = json.loads(result.stdout)["rows"][0]
        return row

    pair = agreement("--assessors", "assessor,assessor2")
    first, second = (
        agreement("--assessors", "assessor", "--gold"),
        agreement("--assessors", "assessor2", "--gold"),
    )
    for row in (pair, first, second):
        assert {"alpha_u", "gamma", "char_f1"} <= row.keys()
    assert pair["char_f1"] is not None and 0 < pair["char_f1"] < 1  # they share 1005's part
    # gold took assessor2's side where they disagreed and is assessor2's where only assessor2
    # judged (the fallback), plus the 60 characters of 1004 edited by hand
    assert second["both_over_a"] == 1.0 and second["chars_b"] == (second["chars_a"] or 0) + 60
    assert second["alpha_u"] is not None and 0.9 < second["alpha_u"] < 1
    assert first["alpha_u"] is not None and first["alpha_u"] < 0.5
