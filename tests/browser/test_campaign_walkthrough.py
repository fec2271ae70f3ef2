"""A whole campaign in Chromium, as a new organiser and two new assessors would go through it.

The organiser starts from an empty database (`focal init-db` and one organiser account) and
uses the browser only: uploads the demo collection, topics and runs, builds a pool, creates two
assessors and gives both the same topic. One assessor judges on a desktop window with the
mouse, the other on a phone with touch: highlights, a partial unhighlight, a passage trimmed
with its grip, a best entry point moved with Shift+click, an article not relevant. The desktop
assessor closes the tab while the server is unreachable, with an operation unsent, and loses
nothing. The organiser exports the double-judged topic's qrels on the Export page; the lines
must say what each assessor did, in offsets from Python's `Document.text`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .assessor_steps import DESKTOP, PHONE, Assessor, Judged
from .campaign_steps import (
    Campaign,
    add_user,
    assign,
    build_pools,
    empty_campaign,
    log_in,
    upload_collection,
    upload_runs,
    upload_topics,
)
from .conftest import OUTBOX_OPEN, Browse, screen_module, wait_for
from .test_outbox import Unreachable

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOPIC = "9001"
POOL_SIZE = 20  # articles pooled for the topic
ASSESSORS = {"ann": "ann's password", "ben": "ben's password"}


def set_up_a_double_judged_topic(page: Page, campaign: Campaign) -> None:
    """Import by upload, pool the topic, add both assessors and tick both matrix cells."""
    assert "Imported 44 documents" in upload_collection(page, campaign)
    assert "Imported 5 topics." in upload_topics(page, campaign)
    assert "Imported 4 run(s)" in upload_runs(page, campaign)
    assert "Pooled 1 topic(s)" in build_pools(page, campaign, size=POOL_SIZE, topics=[TOPIC])
    for name, password in ASSESSORS.items():
        add_user(page, campaign, name, "assessor", password)
    for name in ASSESSORS:
        assign(page, campaign, TOPIC, name)


def judge_with_every_gesture(assessor: Assessor, words_from: int) -> None:
    """On the topic's first article: two highlights, words taken out of the first, the second
    trimmed with its end grip, the entry point set and moved with Shift+click; then the next
    article is marked not relevant. Each step is checked against the server's judgement; the
    words chosen start at word `words_from` of each paragraph, so that assessors differ."""
    article = assessor.open_topic(TOPIC)
    first, second = assessor.paragraphs()[:2]
    w = words_from
    whole = assessor.highlight(first, w, w + 9)
    assert assessor.stored()["passages"] == [whole]
    gap = assessor.remove(first, w + 3, w + 5)
    # The words' neighbouring spaces go with them: passages never end with whitespace.
    split = [
        first.without_edge_spaces(whole[0], gap[0]),
        first.without_edge_spaces(gap[1], whole[1]),
    ]
    assert assessor.stored()["passages"] == split
    other = assessor.highlight(second, w + 1, w + 8)
    trimmed = [other[0], assessor.trim_end(second, w + 4)]
    assert trimmed[1] < other[1] and assessor.stored()["passages"] == [*split, trimmed]
    assert assessor.shift_click(first, w + 1) == assessor.stored()["bep"]
    bep = assessor.shift_click(second, w + 2)
    state = assessor.stored()
    assert state["bep"] == bep and state["passages"] == [*split, trimmed]
    assessor.judged[article] = Judged([*split, trimmed], bep)

    following = assessor.leave("next")
    assert following != article
    assessor.judged[following] = Judged()
    after = assessor.leave("nonrelevant")
    # The page leaves once the operation is answered or after a second, the outbox keeping it
    # (static/assess/actions.js `goTo`): on a busy machine the next page sends it.
    Browse.wait_saved(assessor.page)
    assert assessor.stored(following)["status"] == "nonrelevant" and after != following


def close_the_tab_with_an_operation_unsent(assessor: Assessor, campaign: Campaign) -> None:
    """A highlight made while the server is unreachable; the tab is closed with it unsent. A
    tab opened later on My topics, where the assessor lands, sends it: the server holds it and
    the progress counts it."""
    page, article = assessor.page, assessor.article
    # What an earlier page left in the shared outbox (an operation sent with keepalive as the
    # page was left, whose removal from IndexedDB did not finish) is replayed by this page; it
    # is idempotent, but let it be answered first, so that only the new highlight waits.
    queue = screen_module("queue.js")
    wait_for(page, f"{OUTBOX_OPEN} && {queue}.readQueue().length === 0")
    server = Unreachable(campaign.app.wsgi_app)
    campaign.app.wsgi_app = server
    server.down = True
    paragraph = assessor.paragraphs()[0]
    passage = assessor.highlight(paragraph, 2, 6, wait_saved=False)
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    assert "1 unsaved" in page.locator("#save-state").inner_text()
    judged = len(assessor.judged)
    page.close()
    assert server.refused >= 1 and assessor.stored(article)["status"] == "unjudged"

    server.down = False
    assessor.page = page.context.new_page()
    assessor.page.goto(f"{campaign.url}/topics")
    row = assessor.page.locator("#assignments tr", has_text=TOPIC)
    expect(row.locator("progress")).to_have_attribute(
        "aria-label", f"{judged + 1} of {POOL_SIZE} judged"
    )
    state = assessor.stored(article)
    assert state["passages"] == [passage] and state["status"] == "relevant"
    assessor.judged[article] = Judged([passage], passage[0])


def progress_on_the_matrix(page: Page, campaign: Campaign) -> dict[str, int]:
    """The articles each assessor judged, as the matrix cells of the topic show them."""
    page.goto(f"{campaign.url}/organiser/matrix")
    judged = {}
    for name in ASSESSORS:
        cell = page.locator(f'button[data-topic="{TOPIC}"][data-assessor="{name}"] + small')
        count, size = cell.inner_text().split(" / ")
        assert int(size) == POOL_SIZE
        judged[name] = int(count)
    return judged


def qrels_lines(assessor: Assessor, column: str = "Q0") -> list[str]:
    """The FOL qrels lines (docs/assessor.md) of what `assessor` did, from the documents' text:
    `topic Q0 article rel_chars article_chars bep off:len …`, or `… 0 article_chars`."""
    lines = []
    for article, judged in sorted(assessor.judged.items(), key=lambda item: int(item[0])):
        length = len(assessor.document(article).text)
        fields = [TOPIC, column, article]
        if judged.passages:
            rel = sum(end - start for start, end in judged.passages)
            spans = [f"{start}:{end - start}" for start, end in judged.passages]
            fields += [str(rel), str(length), str(judged.bep), *spans]
        else:
            fields += ["0", str(length)]
        lines.append(" ".join(fields))
    return lines


def downloaded(page: Page, selector: str) -> list[str]:
    with page.expect_download() as info:
        page.click(selector)
    return Path(info.value.path()).read_text(encoding="utf-8").splitlines()


def test_a_campaign_from_an_empty_database_to_the_exported_qrels(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with empty_campaign(tmp_path, monkeypatch) as campaign:
        organiser = log_in(browser, campaign, campaign.organiser, campaign.password, **DESKTOP)
        set_up_a_double_judged_topic(organiser, campaign)

        ann = Assessor.log_in(browser, campaign, "ann", ASSESSORS["ann"], DESKTOP)
        judge_with_every_gesture(ann, words_from=0)
        close_the_tab_with_an_operation_unsent(ann, campaign)
        ben = Assessor.log_in(browser, campaign, "ben", ASSESSORS["ben"], PHONE)
        judge_with_every_gesture(ben, words_from=2)

        assert progress_on_the_matrix(organiser, campaign) == {"ann": 3, "ben": 2}
        organiser.goto(f"{campaign.url}/organiser/export")
        row = organiser.locator("#export-form tr", has_text=f"{TOPIC}: ")
        expect(row).to_contain_text("ann (3), ben (2)")
        organiser.select_option(f"select[aria-label='Assessor for topic {TOPIC}']", label="ben")
        assert downloaded(organiser, "#export-form button[type=submit]") == qrels_lines(ben)
        everyone = downloaded(organiser, "#export-with-assessors")
        assert everyone == qrels_lines(ann, "ann") + qrels_lines(ben, "ben")
