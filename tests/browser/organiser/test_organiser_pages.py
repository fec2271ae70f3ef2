"""The organiser's pages of the demo in Chromium, as an organiser uses them on first opening:
the double judgement the demo comes with on Agreement and Adjudication, the Agreement table's
headline numbers in view at 1280 px, the Report's contents, and users' roles and log-in changed
on the Users page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import Event
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.records import Judgement

from ..conftest import DEMO, LiveSite
from ..conftest import DEMO_TOPIC as TOPIC
from .test_double_judging import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QRELS = DEMO.parent / "qrels"


def loaded(name: str) -> dict[str, Judgement]:
    """What `focal demo` loads as `name`'s judgements of the first topic."""
    return read_qrels(QRELS / f"{name}-{TOPIC}.qrels")[TOPIC]


def differ(a: Judgement, b: Judgement) -> bool:
    return a.relevant != b.relevant or a.passages != b.passages


def test_agreement_and_adjudication_show_the_demos_double_judgement(
    browser: Browser, demo_site: LiveSite
) -> None:
    first, second = loaded("assessor"), loaded("assessor2")
    both = sorted(first.keys() & second.keys())
    disagreeing = [article for article in both if differ(first[article], second[article])]
    assert both and disagreeing and len(disagreeing) < len(both)  # some agree, some do not
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.click("header nav >> text=Agreement")
    row = organiser.locator("#agreement-table tbody tr").first
    expect(row.locator("td").first).to_have_text(TOPIC)
    relevant_both = sum(1 for a in both if first[a].relevant and second[a].relevant)
    expect(row.locator('td[data-column="docs_both"]')).to_have_text(str(relevant_both))
    organiser.click(f"#agreement-table a:text-is('{TOPIC}')")
    listed = organiser.locator("#compared-articles tbody tr")
    expect(listed).to_have_count(len(first.keys() | second.keys()))
    for article in both:
        cells = organiser.locator(f"#compared-articles tr:has(a:text-is('{article}')) td")
        expect(cells.last).to_have_text("yes" if article in disagreeing else "")
    organiser.click("header nav >> text=Adjudication")
    expect(organiser.locator("#adjudication-topics")).to_contain_text(f"0 / {len(disagreeing)}")
    organiser.click(f"#adjudication-topics a:text-is('{TOPIC}')")
    queued = organiser.locator("#adjudication-queue tbody tr td:first-child")
    expect(queued).to_have_count(len(disagreeing))
    assert sorted(queued.all_inner_texts()) == sorted(disagreeing)


def test_the_agreement_headline_numbers_are_in_view_at_1280_px(
    browser: Browser, demo_site: LiveSite
) -> None:
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.set_viewport_size({"width": 1280, "height": 800})
    organiser.goto(f"{demo_site.url}/organiser/agreement")
    table = organiser.locator("#agreement-table")
    table.wait_for()
    for column in ("char_f1", "alpha_u"):
        for cell in (
            table.locator(f'th[data-column="{column}"]'),
            table.locator(f'tbody tr:first-child td[data-column="{column}"]'),
        ):
            box = cell.bounding_box()
            assert box is not None and box["width"] > 0
            # Seen without scrolling sideways: within the viewport's width as the page opens.
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, (column, box)
            assert cell.inner_text().strip()
    assert organiser.evaluate("document.querySelector('.scroll').scrollLeft") == 0


def bars_per_chart(page: Page) -> list[int]:
    counts: list[int] = page.locator("main figure.chart svg").evaluate_all(
        "charts => charts.map(svg => svg.querySelectorAll('rect.bar').length)"
    )
    return counts


def test_the_report_has_contents_sections_and_no_single_bar_chart(
    browser: Browser, demo_site: LiveSite
) -> None:
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.click("header nav >> text=Report")
    contents = organiser.locator("#report-contents a")
    sections = organiser.locator("main section[id]")
    expect(sections.first).to_be_visible()
    targets = contents.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    ids = sections.evaluate_all("sections => sections.map(s => '#' + s.id)")
    assert targets == ids and len(ids) > 5  # one entry per section, in order
    last = targets[-1]
    organiser.click(f"#report-contents a[href='{last}']")
    expect(organiser.locator(last)).to_be_in_viewport()
    expect(organiser.locator(last)).to_contain_text("Piwowarski, Trotman & Lalmas (2008)")
    charts = bars_per_chart(organiser)
    assert charts and all(count >= 2 for count in charts), charts


def account_events(site: LiveSite) -> list[dict[str, str]]:
    with db.session_scope(site.app) as session:
        rows = session.scalars(select(Event).where(Event.kind == "account").order_by(Event.id))
        return [dict(row.payload) for row in rows]


def test_the_organiser_changes_roles_and_disables_a_user(
    browser: Browser, demo_site: LiveSite
) -> None:
    organiser = log_in(browser, demo_site, "organiser", "/organiser/progress")
    organiser.click("header nav >> text=Users")
    outcome = organiser.locator("#accounts .outcome")
    # The only organiser can be neither disabled nor made an assessor.
    organiser.click("button[aria-label='Disable organiser']")
    expect(outcome).to_contain_text("organiser is the last organiser who can log in")
    organiser.select_option("#users tr#user-organiser select[name=role]", "assessor")
    organiser.click("button[aria-label='Change the role of organiser']")
    expect(outcome).to_contain_text("the last organiser who can log in")
    expect(organiser.locator("#users tr#user-organiser select[name=role]")).to_have_value(
        "organiser"
    )
    # assessor2 becomes an organiser; assessor is disabled and can no longer log in.
    organiser.select_option("#users tr#user-assessor2 select[name=role]", "organiser")
    organiser.click("button[aria-label='Change the role of assessor2']")
    expect(outcome).to_have_text("assessor2 is now organiser; their sessions ended.")
    organiser.click("button[aria-label='Disable assessor']")
    expect(organiser.locator("#users tr#user-assessor")).to_contain_text("(disabled)")
    assert account_events(demo_site) == [
        {"user": "assessor2", "change": "role", "before": "assessor", "after": "organiser"},
        {"user": "assessor", "change": "log-in", "before": "enabled", "after": "disabled"},
    ]
    refused = browser.new_context().new_page()
    refused.goto(f"{demo_site.url}/login")
    refused.fill('input[name="name"]', "assessor")
    refused.fill('input[name="password"]', "assessor")
    refused.click('button[type="submit"]')
    expect(refused.locator("body")).to_contain_text("Unknown name or wrong password.")
    assert refused.url.endswith("/login")
    # assessor2 logs in as an organiser now.
    promoted = log_in(browser, demo_site, "assessor2", "/organiser/progress")
    expect(promoted.locator("header nav")).to_contain_text("Adjudication")
