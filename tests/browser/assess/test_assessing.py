"""Assessing in Chromium: selections become stored offsets that equal the selected text.

The oracle for every offset is Python's `Document.text` (code points) and the DOM's own text of
the selected range, never the page script's arithmetic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route

from focal.assessor.store import db
from focal.assessor.store.settings import CampaignSettings, save_settings

from ..conftest import screen_module, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

P1, P2, P3 = (f"/article[1]/bdy[1]/p[{i}]" for i in (1, 2, 3))
IT = "/article[1]/bdy[1]/p[2]/it[1]"


def code_points(text: str, units: int) -> int:
    """How many code points the first `units` UTF-16 units of `text` hold."""
    return len(text.encode("utf-16-le")[: 2 * units].decode("utf-16-le"))


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def squeeze(text: str) -> str:
    """Text without whitespace: `Selection.toString()` serialises like `innerText` (a line break
    between blocks, collapsed spaces), while a Range's string is the text nodes verbatim."""
    return "".join(text.split())


def passages_painted(page: Page) -> list[list[int]]:
    """The offsets of the ranges in the page's passage highlight, sorted."""
    found: list[list[int]] = page.evaluate(
        f"""async () => {{
            const {{ index }} = {screen_module("text-index.js")};
            return [...(CSS.highlights.get("focal-passage") || [])]
                .map((range) => index.offsetsOf(range))
                .map((o) => [o.start, o.end])
                .sort((a, b) => a[0] - b[0]);
        }}"""
    )
    return found


def test_chromium_parses_every_text_node_verbatim(ui: Any) -> None:
    page = ui.log_in("alice")
    for article in ui.site.articles:
        ui.open_article(page, "alice", article)
        text = page.evaluate("document.getElementById('document').textContent")
        assert text == ui.site.document(article).text, article
    assert "\r" in ui.site.document("astral").text


def test_drag_across_elements_in_an_elife_article(ui: Any, shared_collections: Path) -> None:
    assert "elife00240" in ui.site.articles
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "elife00240")
    # Two consecutive paragraphs that start with text, the first holding inline elements.
    pair = page.evaluate(
        """() => {
        const ps = [...document.querySelectorAll("#document .x-body .x-p")];
        const starts = (p) => p.firstChild?.nodeType === Node.TEXT_NODE
            && /\\w.*\\w.*\\w/.test(p.firstChild.data);
        for (let i = 0; i + 1 < ps.length; i++) {
            const [a, b] = [ps[i], ps[i + 1]];
            if (!starts(a) || !starts(b) || a.children.length === 0) continue;
            if (b.getBoundingClientRect().top - a.getBoundingClientRect().top > 900) continue;
            return [a.dataset.path, a.firstChild.data, b.dataset.path, b.firstChild.data];
        }
        return null;
    }"""
    )
    assert pair is not None, "no suitable pair of paragraphs"
    path1, text1, path2, text2 = pair
    start_unit = max(i for i, c in enumerate(text1) if c.isalnum() and i < len(text1) - 2)
    end_unit = [i for i, c in enumerate(text2) if c.isalnum()][4]
    # Both ends fall inside words: Alt keeps the exact characters (else they grow to words).
    page.keyboard.down("Alt")
    ui.drag_select(page, (path1, start_unit), (path2, end_unit))
    page.keyboard.up("Alt")
    ui.wait_saved(page)

    document = ui.site.document("elife00240")
    start = document.span(path1)[0] + code_points(text1, start_unit)
    end = document.span(path2)[0] + code_points(text2, end_unit)
    state = ui.stored_state(page, "alice", "elife00240")
    assert state["passages"] == [[start, end]]
    selected = page.evaluate("window.__range")
    assert document.text[start:end] == selected
    assert squeeze(page.evaluate("window.__selection")) == squeeze(selected)
    assert len({e.path for e in document.touching(start, end)}) > 3  # crosses elements
    assert passages_painted(page) == [[start, end]]


def test_drags_over_astral_characters_both_directions(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p1, p2, p3 = (document.text[slice(*document.span(p))] for p in (P1, P2, P3))

    # Forwards from "starts" (after two astral characters) into the second paragraph.
    ui.drag_select(page, (P1, units("Clef 𝄞𝄞 ")), (P2, units("More 𝌆 ")))
    ui.wait_saved(page)
    start = document.span(P1)[0] + len("Clef 𝄞𝄞 ")
    end = document.span(P2)[0] + len("More 𝌆")  # the space after the drag's end is trimmed
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end]]
    assert document.text[start:end] == page.evaluate("window.__range").rstrip(" ")
    assert document.text[start:end].startswith("starts") and p1.startswith("Clef")

    # Backwards (focus before anchor) inside the third paragraph, across two astral characters.
    first = p3.index("paragraph")
    last = p3.index("article")
    ui.drag_select(page, (P3, units(p3[:last])), (P3, units(p3[:first])))
    ui.wait_saved(page)
    base = document.span(P3)[0]
    state = ui.stored_state(page, "alice", "astral")
    last -= 1  # "paragraph of the 🎶 ": the space before "article" is trimmed
    assert state["passages"] == [[start, end], [base + first, base + last]]
    assert document.text[base + first : base + last] == page.evaluate("window.__range").rstrip()
    assert "🎶" in page.evaluate("window.__range") and p2

    # Reload: the highlights are painted again from the stored offsets.
    page.reload()
    ui.ready(page)
    assert passages_painted(page) == state["passages"]
    strings = page.evaluate(
        """() => [...CSS.highlights.get("focal-passage")].map((r) => r.toString()).sort()"""
    )
    assert sorted(document.text[s:e] for s, e in state["passages"]) == strings


def test_programmatic_range_and_mouseup(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p3_text = document.text[slice(*document.span(P3))]
    page.evaluate(
        """([itPath, itUnits, pPath, pUnits]) => {
        const at = (path) => document.querySelector(`#document [data-path="${path}"]`).firstChild;
        const range = new Range();
        range.setStart(at(itPath), itUnits);
        range.setEnd(at(pPath), pUnits);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        document.getElementById("document")
            .dispatchEvent(new MouseEvent("mouseup", {bubbles: true, button: 0}));
    }""",
        [IT, units("italic 𝒳"), P3, units("Last 🎵 ")],
    )
    ui.wait_saved(page)
    # The range's spaces at both ends (" words", "Last 🎵 ") are trimmed.
    start = document.span(IT)[0] + len("italic 𝒳 ")
    end = document.span(P3)[0] + len("Last 🎵")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, end]]
    assert document.text[start:end].startswith("words") and p3_text.startswith("Last 🎵 ")
    assert document.text[start:end].endswith("Last 🎵")


def test_best_entry_point_and_click_selects_then_remove_passage(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p1 = document.text[slice(*document.span(P1))]
    ui.drag_select(page, (P1, units("Clef ")), (P1, units(p1[: p1.index(" smiles")])))
    ui.wait_saved(page)
    marker = page.locator("#bep-marker")
    assert marker.is_visible() and "suggested" in (marker.get_attribute("class") or "")

    (point,) = ui.char_points(page, (P1, units(p1[: p1.index("staff")])))
    page.keyboard.down("Shift")
    page.mouse.click(point["x"], point["y"])
    page.keyboard.up("Shift")
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["bep"] == document.span(P1)[0] + p1.index("staff")
    assert "suggested" not in (marker.get_attribute("class") or "")

    # A plain click inside the highlight only selects the passage: nothing is removed until
    # "Remove passage" is pressed, and u brings it back.
    highlighted = state["passages"]
    (inside,) = ui.char_points(page, (P1, units(p1[: p1.index("then")])))
    page.mouse.click(inside["x"], inside["y"])
    remove = page.locator("#bar-remove-passage")
    remove.wait_for(state="visible")
    assert page.locator("#grip-start").is_visible() and page.locator("#grip-end").is_visible()
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == highlighted
    remove.click()
    ui.wait_saved(page)
    state = ui.stored_state(page, "alice", "astral")
    assert state["passages"] == [] and state["status"] == "unjudged" and state["bep"] is None
    assert passages_painted(page) == []
    page.keyboard.press("u")
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == highlighted


def test_keyboard_only_judging(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    page.keyboard.press("?")
    assert page.locator("dialog#help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("dialog#help").is_visible()

    page.keyboard.press("x")  # not relevant, then the next article
    page.wait_for_url(ui.site.article_url("alice", "plain"))
    ui.ready(page)
    ui.wait_saved(page)  # the queue survived the navigation
    state = ui.stored_state(page, "alice", "astral")
    assert state["status"] == "nonrelevant" and state["finished"] is True

    page.keyboard.press("k")  # back
    page.wait_for_url(ui.site.article_url("alice", "astral"))
    ui.ready(page)
    assert page.locator("#status-text").inner_text() == "not relevant"
    page.keyboard.press("j")
    page.wait_for_url(ui.site.article_url("alice", "plain"))


def test_undo_restores_the_previous_passages(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    document = ui.site.document("astral")
    p3 = document.text[slice(*document.span(P3))]
    ui.drag_select(page, (P3, units("Last ")), (P3, units(p3[: p3.index(" of")])))
    ui.wait_saved(page)
    before = ui.stored_state(page, "alice", "astral")["passages"]
    # A second, overlapping highlight merges; undo must give back exactly the first passage.
    ui.drag_select(page, (P3, units(p3[: p3.index("graph")])), (P3, units(p3[: p3.index("the")])))
    ui.wait_saved(page)
    assert len(ui.stored_state(page, "alice", "astral")["passages"]) == 1
    assert ui.stored_state(page, "alice", "astral")["passages"] != before
    page.keyboard.press("u")
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "astral")["passages"] == before


def test_two_assessors_do_not_see_each_others_work(ui: Any) -> None:
    alice = ui.log_in("alice")
    ui.open_article(alice, "alice", "astral")
    ui.drag_select(alice, (P1, units("Clef ")), (P2, units("More ")))
    ui.wait_saved(alice)
    assert ui.stored_state(alice, "alice", "astral")["passages"]

    bob = ui.log_in("bob")
    ui.open_article(bob, "bob", "astral")
    assert passages_painted(bob) == []
    assert ui.stored_state(bob, "bob", "astral")["status"] == "unjudged"
    response = bob.goto(ui.site.article_url("alice", "astral"))
    assert response is not None and response.status == 404
    forbidden = bob.request.get(ui.site.state_url("alice", "astral"))
    assert forbidden.status == 404


def test_a_failed_save_is_retried_with_the_same_op_id(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    sent: list[dict[str, Any]] = []

    def fail_first(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        if len(sent) == 1:
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/ops", fail_first)
    ui.drag_select(page, (P1, units("Clef ")), (P1, units("Clef 𝄞𝄞 starts")))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    assert "retrying" in page.locator("#save-state").inner_text()
    ui.wait_saved(page)
    assert len(sent) == 2 and sent[0]["op_id"] == sent[1]["op_id"]
    document = ui.site.document("astral")
    start = document.span(P1)[0] + len("Clef ")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [
        [start, start + len("𝄞𝄞 starts")]
    ]


def test_queued_operations_survive_a_reload(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    page.route("**/ops", lambda route: route.abort("connectionrefused"))
    ui.drag_select(page, (P2, units("More ")), (P2, units("More 𝌆 text")))
    wait_for(page, "document.getElementById('save-state').dataset.state === 'failed'")
    assert ui.stored_state(page, "alice", "astral")["passages"] == []
    page.unroute("**/ops")
    page.reload()
    ui.ready(page)
    ui.wait_saved(page)
    document = ui.site.document("astral")
    start = document.span(P2)[0] + len("More ")
    assert ui.stored_state(page, "alice", "astral")["passages"] == [[start, start + len("𝌆 text")]]


def test_keywords_and_run_outlines_are_painted(ui: Any) -> None:
    with db.session_scope(ui.site.app) as session:  # the outline is off unless switched on
        save_settings(session, CampaignSettings(runs_outline=True))
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "astral")
    text = ui.site.document("astral").text
    page.fill("#keyword-input", "ARTICLE")
    page.click("#keywords button[type=submit]:text('Add')")
    wait_for(page, "CSS.highlights.get('focal-keyword')?.size > 0")
    painted = page.evaluate(
        "() => [...CSS.highlights.get('focal-keyword')].map((r) => r.toString())"
    )
    assert painted == ["article"] * text.lower().count("article")
    assert page.evaluate("CSS.highlights.get('focal-run')?.size ?? 0") == 0
    page.keyboard.press("r")
    outlined = page.evaluate("() => [...CSS.highlights.get('focal-run')].map((r) => r.toString())")
    assert outlined == ["staff, then 😀"] and "staff, then 😀" in text
    assert page.locator("#toggle-runs").is_checked()
