"""An assessor's day in Chromium, second pass: what a person does and what they see
(docs/assessing.md; the screenshots there are taken here when FOCAL_SCREENSHOTS is set).

The status pill stays in view at 1366×768; "Highlight selection" says what it needs; "Done →
next" finishes an article (✓, explained on the pool page, which filters unfinished articles);
Ctrl+Z and Ctrl+Shift+Z undo and redo; t shows the topic's narrative on any article, and the
pool page shows it too; "My topics" continues where the assessor stopped and the last article
leads to the topic's summary; a keyboard selection through a folded header stores no hidden
text. The oracle is the judgement the server stores and Python's `Document.text`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from ..conftest import OUTBOX_OPEN, Browse, wait_for
from ..screenshots import screenshot
from ..test_display_profiles import PLAY_XML, serve
from .test_assessing import P1, P3, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is drawn wholly inside the viewport."""
    inside: bool = page.evaluate(
        """(selector) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.left >= 0
                && r.bottom <= innerHeight && r.right <= innerWidth;
        }""",
        selector,
    )
    return inside


def test_the_save_status_is_a_pill_in_view_at_1366x768(ui: Any) -> None:
    page = ui.log_in("alice", **LAPTOP)
    ui.open_article(page, "alice", "astral")
    pill = page.locator("#action-bar #save-state")
    assert pill.inner_text() == "saved" and in_view(page, "#save-state")
    held: list[Route] = []
    page.route("**/ops", lambda route: route.abort("connectionrefused"))
    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert "retrying" in pill.inner_text() and in_view(page, "#save-state")
    screenshot(page, "assess-status-pill")
    page.unroute("**/ops")
    ui.wait_saved(page)
    assert pill.inner_text() == "saved" and in_view(page, "#save-state") and held == []


def test_highlight_selection_is_disabled_without_a_selection_and_h_says_why(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    button = page.locator('[data-action="highlight"]')
    assert button.inner_text().startswith("Highlight selection") and button.is_disabled()
    page.keyboard.press("h")
    assert page.locator("#save-state").inner_text() == "select relevant text first, then press h"
    assert ui.stored_state(page, "alice", "astral")["status"] == "unjudged"
    # A selection made with the keyboard enables the button, which highlights it.
    page.evaluate("window.scrollTo(0, 0)")
    # The first → shows the cursor before the body's first character (not in the title).
    for _ in range(1 + len("Clef ")):
        page.keyboard.press("ArrowRight")
    for _ in range(len("𝄞𝄞 starts")):
        page.keyboard.press("Shift+ArrowRight")
    expect(button).to_be_enabled()  # as the page hears of the selection change: waited for
    button.click()
    ui.wait_saved(page)
    start = ui.site.document("astral").text.index("𝄞𝄞 starts")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, start + 9]]


def test_done_next_finishes_the_legend_explains_and_unfinished_filters(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    ui.wait_saved(page)
    done = page.locator("#next-link")
    assert done.inner_text().startswith("Done → next")
    done.click()
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["finished"] is True
    page.goto(f"{ui.site.url}/assignments/{ui.site.assignments['alice']}")
    legend = page.locator("#state-legend").inner_text()
    assert "✓ finished" in legend and "Done → next" in legend
    assert "✓" in page.locator("tr[data-article='astral']").inner_text()
    page.check("input[name='status'][value='unfinished']")
    wait_for(page, "!document.querySelector(\"tr[data-article='astral']\")")
    shown = page.locator("tbody tr[data-article]")
    assert "astral" not in [
        shown.nth(i).get_attribute("data-article") for i in range(shown.count())
    ]
    assert shown.count() == len(ui.site.articles) - 1
    screenshot(page, "assess-pool-unfinished")


def test_ctrl_z_undoes_and_ctrl_shift_z_redoes(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    redo = page.locator("#redo-button")
    assert redo.is_disabled()
    ui.drag_select(page, (P3, units("Last 🎵 ")), (P3, units("Last 🎵 paragraph")))
    ui.wait_saved(page)
    highlighted = ui.stored_state(page, "alice", "astral")["passages"]
    assert len(highlighted) == 1
    page.keyboard.press("Control+z")
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == []
    expect(redo).to_be_enabled()
    page.keyboard.press("Control+Shift+z")
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == highlighted
    page.keyboard.press("Control+z")
    ui.wait_saved(page)
    redo.click()
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == highlighted
    expect(redo).to_be_disabled()


def test_the_narrative_is_one_key_away_and_on_the_pool_page(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "plain")  # not the first article: the topic is folded
    narrative = page.locator("#topic-fold dd").last
    assert not narrative.is_visible()
    page.keyboard.press("t")
    assert narrative.is_visible() and narrative.inner_text() == "n"  # conftest's narrative
    page.keyboard.press("t")
    assert not narrative.is_visible()
    page.goto(f"{ui.site.url}/assignments/{ui.site.assignments['alice']}")
    assert page.locator("#topic-narrative").inner_text() == "n"


def test_continue_where_i_stopped_and_the_summary_after_the_last_article(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    page.keyboard.press("x")  # not relevant: finished, on to article 2
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    page.goto(f"{ui.site.url}/topics")
    pool_size = len(ui.site.articles)
    go = page.locator("a.continue")
    assert go.inner_text() == f"Continue (article 2 of {pool_size}) →"
    screenshot(page, "assess-my-topics-continue")
    go.click()
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    last = ui.site.articles[-1]
    ui.open_article(page, "alice", last)
    done = page.locator("#next-link")
    assert done.inner_text().startswith("Done → summary")
    wait_for(page, OUTBOX_OPEN)  # as a person, who reads before judging
    page.keyboard.press("x")
    page.wait_for_url("**/assignments/*?finished=1")
    summary = page.locator("#topic-summary")
    wait_for(page, "document.getElementById('topic-summary')?.textContent.includes('2 of')")
    text = summary.inner_text()
    assert f"2 of {pool_size} articles judged: 0 relevant, 2 not relevant" in text
    assert "Continue with article 2" in text


@pytest.fixture
def own_play(browser: Browser, tmp_path: Path) -> Iterator[Browse]:
    for site in serve(tmp_path, {"lamps": PLAY_XML}):
        yield Browse(browser, site)


def test_a_keyboard_selection_through_the_folded_header_stores_no_hidden_text(
    own_play: Browse,
) -> None:
    ui = own_play
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "lamps")
    document = ui.site.document("lamps")
    hidden = [
        document.span(path) for path in ("/play[1]/head[1]/shortName[1]", "/play[1]/head[1]/tag[1]")
    ]
    assert [document.text[s:e] for s, e in hidden] == ["lamps", "comedy"]
    page.evaluate("window.scrollTo(0, 0)")
    # The first → shows the cursor before the play's text (not in its title); one step back
    # puts it at the end of the title (the folded metadata takes no step), then Shift+↓
    # selects through the folded metadata into the play.
    for key in ("ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    caret = page.evaluate("() => [getSelection().focusNode.data, getSelection().focusOffset]")
    assert caret == ["The Lamplighters", len("The Lamplighters")]
    for _ in range(2):
        page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("h")
    ui.wait_saved(page)
    passages = ui.stored_state(page, "alice", "lamps")["passages"]
    assert passages, "the keyboard selection highlighted nothing"
    for start, end in passages:
        for a, b in hidden:
            assert max(start, a) >= min(end, b), (document.text[start:end], document.text[a:b])
    assert any("Ada" in document.text[s:e] for s, e in passages), passages
