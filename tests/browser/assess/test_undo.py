"""Undo (`u`) in Chromium goes back to the exact previous judgement, also after x and j.

The expected states are the ones the server held before each action (read through the API),
so the oracle is the stored state, not the page script.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import screen_module
from .test_assessing import P3, passages_painted, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]

UNJUDGED = {"status": "unjudged", "passages": [], "bep": None, "finished": False}


def judgement(state: dict[str, Any]) -> dict[str, Any]:
    return {key: state[key] for key in ("status", "passages", "bep", "finished")}


def test_not_relevant_then_undo_is_unjudged_again(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    page.keyboard.press("x")  # not relevant, then the next article
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["status"] == "nonrelevant"

    page.keyboard.press("u")  # undone where it happened: the page goes back there
    page.wait_for_url(ui.site.article_url("alice", "astral"))
    ui.ready(page)
    ui.wait_saved(page)
    assert judgement(ui.stored_state(page, "alice", "astral")) == UNJUDGED
    assert page.locator("#status-text").inner_text() == "not judged yet"
    assert page.evaluate("document.body.dataset.status") == "unjudged"
    assert page.evaluate(f"async () => {screen_module('actions.js')}.readUndo().length") == 0
    page.keyboard.press("u")  # nothing left to undo: nothing is sent
    assert page.locator("#save-state").inner_text() == "nothing to undo"
    assert ui.stored_state(page, "alice", "astral")["version"] == 2


def test_highlight_finish_back_and_undo_twice(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p3 = document.text[slice(*document.span(P3))]
    ui.drag_select(page, (P3, units("Last ")), (P3, units(p3[: p3.index(" of")])))
    ui.wait_saved(page)
    highlighted = judgement(ui.stored_state(page, "alice", "astral"))
    start = document.span(P3)[0] + len("Last ")
    assert highlighted == {
        "status": "relevant",
        "passages": [[start, start + len("🎵 paragraph")]],
        "bep": None,
        "finished": False,
    }

    page.keyboard.press("j")  # finishes the article (fixing the suggested BEP), then next
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)
    finished = judgement(ui.stored_state(page, "alice", "astral"))
    assert finished == highlighted | {"bep": start, "finished": True}

    page.keyboard.press("k")
    page.wait_for_url(ui.site.article_url("alice", "astral"))
    ui.ready(page)
    page.keyboard.press("u")  # undoes the finish: not finished, no BEP
    ui.wait_saved(page)
    assert judgement(ui.stored_state(page, "alice", "astral")) == highlighted
    # The panel says where the suggested point is (the passage starts in paragraph 3).
    assert page.locator("#bep-text").inner_text() == "paragraph 3 (suggested)"
    assert passages_painted(page) == highlighted["passages"]

    page.keyboard.press("u")  # undoes the highlight
    ui.wait_saved(page)
    assert judgement(ui.stored_state(page, "alice", "astral")) == UNJUDGED
    assert passages_painted(page) == []
    assert page.locator("#status-text").inner_text() == "not judged yet"
    assert page.url == ui.site.article_url("alice", "astral")
