"""Shift+click in Chromium: it moves the best entry point and never highlights anything.

A browser extends the selection on Shift+click, from the caret that an earlier click left: a
second Shift+click would select the text between the two points, and the page would highlight
it. The oracle is the stored judgement (through the API) and Python's `Document.text`.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import screen_module

pytestmark = [pytest.mark.browser, pytest.mark.slow]

P1, P3 = "/article[1]/bdy[1]/p[1]", "/article[1]/bdy[1]/p[3]"


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def shift_click(page: Any, point: dict[str, Any]) -> None:
    page.keyboard.down("Shift")
    page.mouse.click(point["x"], point["y"])
    page.keyboard.up("Shift")


def test_every_shift_click_moves_the_entry_point_and_highlights_nothing(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    p3 = document.text[slice(*document.span(P3))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" smiles")])))
    ui.wait_saved(page)
    passages = ui.stored_state(page, "alice", "astral")["passages"]
    assert len(passages) == 1

    # First Shift+click: inside the passage, on "staff".
    (staff,) = ui.char_points(page, (P1, units(p1[: p1.index("staff")])))
    shift_click(page, staff)
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["bep"] == document.span(P1)[0] + p1.index("staff")

    # Second and third Shift+clicks, outside the passage (paragraph 3) and back in it ("then"):
    # each moves the entry point; the passages stay exactly as they were.
    (paragraph,) = ui.char_points(page, (P3, units(p3[: p3.index("paragraph")])))
    shift_click(page, paragraph)
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["passages"] == passages
    assert state["bep"] == document.span(P3)[0] + p3.index("paragraph")
    # The panel says where the entry point is in words, never as a character offset.
    assert page.locator("#bep-text").inner_text() == "paragraph 3"

    (then,) = ui.char_points(page, (P1, units(p1[: p1.index("then")])))
    shift_click(page, then)
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["passages"] == passages
    assert state["bep"] == document.span(P1)[0] + p1.index("then")
    assert page.locator("#bep-text").inner_text() == "paragraph 1"
    assert page.evaluate("getSelection().toString()") == ""


def test_shift_drag_highlights_nothing(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" then")])))
    ui.wait_saved(page)
    passages = ui.stored_state(page, "alice", "astral")["passages"]

    page.keyboard.down("Shift")
    ui.drag_select(page, (P1, units(p1[: p1.index("smiles")])), (P3, units("Last ")))
    page.keyboard.up("Shift")
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["passages"] == passages
    # The entry point lands where the button was released.
    p3_start = document.span(P3)[0]
    assert state["bep"] == p3_start + len("Last ")


def test_entry_points_are_described_by_their_place_in_a_jats_article(
    ui: Any, shared_collections: Any
) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "elife00240")
    document = ui.site.document("elife00240")
    # A paragraph of the boxed text that opens the body (eLife's digest), at a character that
    # is in no inline element.
    path = "/article[1]/body[1]/p[1]/boxed-text[1]/p[2]"
    target = document.element(path)
    offset = next(o for o in range(target.start, target.end) if document.innermost(o) == target)
    panel = screen_module("panel.js")
    described = page.evaluate(f"async () => {panel}.describePoint({offset})")
    assert described == "paragraph 1, box 1, paragraph 2"
