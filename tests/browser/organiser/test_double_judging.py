"""The demo, double-judged in Chromium: `focal demo` gives topic 9001 to two assessors, both
highlight the same article, and `focal agreement --assessors`, the organiser's agreement page and
the overlay of that article all show the same judgements."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page

from focal.assessor.cli.main import main
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.text.document import Document

from ..conftest import DEMO, Browse, LiveSite
from ..conftest import DEMO_TOPIC as TOPIC

pytestmark = [pytest.mark.browser, pytest.mark.slow]

P2 = "/article[1]/bdy[1]/p[2]"
ASSESSORS = {"assessor": "assessor", "assessor2": "assessor2", "organiser": "organiser"}


def log_in(browser: Browser, site: LiveSite, name: str, landing: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{site.url}/login")
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', ASSESSORS[name])
    page.click('button[type="submit"]')
    page.wait_for_url(f"{site.url}{landing}")
    return page


def judge(ui: Browse, page: Page, user: str, article: str, start: int, end: int) -> str:
    """Drag over the second paragraph from UTF-16 unit `start` to `end`; the selected text
    (Alt held: exactly those characters, not grown to whole words)."""
    ui.open_article(page, user, article)
    page.keyboard.down("Alt")
    ui.drag_select(page, (P2, start), (P2, end))
    page.keyboard.up("Alt")
    ui.wait_saved(page)
    selected: str = page.evaluate("window.__range")
    return selected


def test_demo_double_judged_agreement_and_overlay(browser: Browser, demo_site: LiveSite) -> None:
    ui = Browse(browser, demo_site)
    pool = log_in(browser, demo_site, "assessor", "/topics")
    pool.goto(f"{demo_site.url}/assignments/{demo_site.assignments['assessor']}")
    article = pool.locator("a[href*='/articles/']").first.get_attribute("href")
    assert article is not None
    article = article.rsplit("/", 1)[1]
    # Stored without the spaces at either end of the drags (the ATOM rule's trimming).
    first = judge(ui, pool, "assessor", article, 2, 40).strip()
    second_page = log_in(browser, demo_site, "assessor2", "/topics")
    second = judge(ui, second_page, "assessor2", article, 20, 70).strip()
    text = Document.from_file(DEMO / f"{article}.xml").text
    start_a, start_b = text.index(first), text.index(second)
    both = max(0, min(start_a + len(first), start_b + len(second)) - max(start_a, start_b))
    assert both > 0  # the two drags overlap

    tsv = CliRunner().invoke(
        main, ["agreement", "--assessors", "assessor,assessor2", "--format", "tsv"]
    )
    assert tsv.exit_code == 0, tsv.output
    header, row, _all = tsv.stdout.splitlines()
    cells = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    # Both came with judgements of other articles of the topic (demo/qrels)
    loaded = read_qrels(DEMO.parent / "qrels" / "assessor2-9001.qrels")[TOPIC]
    loaded_a = read_qrels(DEMO.parent / "qrels" / "assessor-9001.qrels")[TOPIC]
    assert article not in loaded and article not in loaded_a
    relevant_both = [
        a for a in loaded.keys() & loaded_a if loaded[a].relevant and loaded_a[a].relevant
    ]
    assert cells["topic"] == TOPIC and cells["docs_both"] == str(1 + len(relevant_both))
    preloaded = sum(line.rel_chars for line in loaded.values())
    preloaded_a = sum(line.rel_chars for line in loaded_a.values())
    assert (cells["chars_a"], cells["chars_b"]) == (
        str(len(first) + preloaded_a),
        str(len(second) + preloaded),
    )
    loaded_both = sum(
        max(0, min(end_a, end_b) - max(start_a, start_b))
        for shared in loaded.keys() & loaded_a
        for start_a, end_a in loaded_a[shared].passages
        for start_b, end_b in loaded[shared].passages
    )
    assert cells["chars_both"] == str(both + loaded_both)

    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.goto(f"{demo_site.url}/organiser/agreement")
    table_row = organiser.locator("#agreement-table tbody tr").first
    assert table_row.locator("td").first.inner_text() == TOPIC

    def shown(column: str) -> str:
        return table_row.locator(f'td[data-column="{column}"]').inner_text()

    assert [shown(c) for c in ("chars_a", "chars_b", "chars_both")] == [
        cells["chars_a"],
        cells["chars_b"],
        cells["chars_both"],
    ]
    assert [shown(c) for c in ("both_over_a", "both_over_b", "both_over_union")] == [
        f"{float(cells[c]):.4f}" for c in ("both_over_a", "both_over_b", "both_over_union")
    ]
    assert organiser.locator("#union-chart rect.bar").count() == 1
    csv = organiser.request.get(f"{demo_site.url}/organiser/agreement.csv")
    assert csv.text().replace(",", "\t") == tsv.stdout

    organiser.click(f"#agreement-table a:text-is('{TOPIC}')")
    organiser.click(f"#compared-articles a:text-is('{article}')")
    overlay = organiser.locator("#overlay")
    overlay.wait_for()
    assert overlay.text_content() == text  # exactly the article's text, marks and all
    marked = {
        kind: "".join(overlay.locator(f"mark.by-{kind}").all_text_contents())
        for kind in ("a", "both", "b")
    }
    assert (
        marked["both"]
        == text[max(start_a, start_b) : min(start_a + len(first), start_b + len(second))]
    )
    assert len(marked["a"]) + len(marked["both"]) == len(first)
    assert len(marked["b"]) + len(marked["both"]) == len(second)
