"""The demo adjudicated in Chromium: `assessor` judges two articles of topic 9001 against
`assessor2`'s loaded judgements (demo/qrels/assessor2-9001.qrels: 1003 relevant, 1004 not), the
organiser decides both disagreements from the queue, and `focal export-qrels --adjudicated` and
`focal agreement` read the gold. Assessors see neither the queue nor the gold."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, expect

from focal.assessor.cli.main import main
from focal.evaluation.formats.fol.qrels import read_qrels

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
    expect(organiser.locator("#adjudication-topics")).to_contain_text("0 / 2")
    organiser.click(f"#adjudication-topics a:text-is('{TOPIC}')")
    rows = organiser.locator("#adjudication-queue tbody tr")
    expect(rows).to_have_count(2)  # both opposite verdicts: disagreement 1, by article
    assert rows.locator("td:first-child").all_inner_texts() == ["1003", "1004"]
    organiser.click("#next-disagreement")
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}/1003")
    expect(organiser.locator("#adjudication-legend")).to_contain_text(
        "assessor2: relevant, 1 passage; best entry point before “The lighthouse was equipped"
    )
    expect(organiser.locator("#overlay mark.by-b").first).to_be_visible()
    organiser.click("#decisions button[data-decision='b']")  # assessor2's judgement
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}/1004")
    organiser.click("#decisions button[data-decision='intersection']")  # nothing in common
    organiser.wait_for_url(f"**/organiser/adjudicate/{TOPIC}")
    expect(organiser.locator("#adjudication-progress")).to_contain_text("2 of 2 decided")
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

    exported = CliRunner().invoke(main, ["export-qrels", "--adjudicated", "--topic", TOPIC])
    assert exported.exit_code == 0, exported.output
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
    assert pair["char_f1"] == 0.0  # they share no highlighted character
    # gold took assessor2's side where they disagreed and is assessor2's where only assessor2
    # judged (the fallback), plus the 60 characters of 1004 edited by hand
    assert second["both_over_a"] == 1.0 and second["chars_b"] == (second["chars_a"] or 0) + 60
    assert second["alpha_u"] is not None and 0.9 < second["alpha_u"] < 1
    assert first["alpha_u"] is not None and first["alpha_u"] < 0.5
