"""Long and sectioned articles in Chromium: the outline, the passage list and the best entry
point named by section stay usable for a play of 200,000 characters (the size of the
Shakespeare plays in the shared data). The play here is our own text, made by the test.

The oracle is the stored judgement (through the API) and Python's `Document.text`.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..assessor_steps import MOUSEUP, SELECT
from ..conftest import wait_for
from .test_assessing import passages_painted

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SECTIONED_XML = (
    "<article><title>Sections</title><bdy>"
    "<sec><st>Opening</st><p>First section text.</p></sec>"
    "<sec><st>Middle part</st><p>One.</p><p>Two.</p><p>Third paragraph of the middle.</p></sec>"
    "</bdy></article>"
)


def play_xml() -> str:
    """Five acts of five scenes of 160 lines: about 210,000 characters of text."""
    acts = []
    for act in range(1, 6):
        scenes = []
        for scene in range(1, 6):
            lines = "".join(
                f"<line>Act {act} scene {scene} line {n}: words spoken on a quiet stage.</line>"
                for n in range(1, 161)
            )
            scenes.append(f"<scene><title>Scene {scene} of act {act}</title>{lines}</scene>")
        acts.append(f"<act><title>Act {act}</title>{''.join(scenes)}</act>")
    return f"<play><title>A long play</title>{''.join(acts)}</play>"


EXTRA_ARTICLES = {"sectioned": SECTIONED_XML, "play": play_xml()}


def test_best_entry_point_is_named_by_section_and_paragraph(ui: Any) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "sectioned")
    document = ui.site.document("sectioned")
    path = "/article[1]/bdy[1]/sec[2]/p[3]"
    start = document.span(path)[0]
    page.evaluate(SELECT, [path, 0, len("Third paragraph")])
    page.evaluate(MOUSEUP)
    ui.wait_saved(page)
    assert ui.stored_state(page, "alice", "sectioned")["passages"] == [
        [start, start + len("Third paragraph")]
    ]
    # The marker is drawn in the text, and the panel says where, never a character offset.
    assert page.locator("#bep-marker").is_visible()
    assert page.locator("#bep-text").inner_text() == "section 2, paragraph 3 (suggested)"
    labels = page.locator("#outline .outline-go").all_inner_texts()
    assert labels == ["section 1: Opening", "section 2: Middle part"]


def test_a_play_of_200_000_characters(ui: Any) -> None:
    document = ui.site.document("play")
    assert len(document.text) > 200_000
    page = ui.log_in("alice")
    # How long the page takes to open is benchmarks/assessor_render.py's question, not a test's.
    ui.open_article(page, "alice", "play")
    ui.wait_saved(page)
    entries = page.locator("#outline .outline-go")
    assert entries.count() == 30  # five acts, 25 scenes
    assert entries.nth(0).inner_text() == "act 1: Act 1"
    assert entries.nth(29).inner_text() == "scene 5: Scene 5 of act 5"
    entries.nth(29).click()  # the last scene, near the end of the text
    path = "/play[1]/act[5]/scene[5]/line[10]"
    wait_for(
        page,
        f"""document.querySelector('#document [data-path="{path}"]')
            .getBoundingClientRect().top < innerHeight""",
    )
    # A highlight near the end of the play: exact offsets, listed beside the text.
    start = document.span(path)[0]
    page.evaluate(SELECT, [path, 0, None])
    page.evaluate(MOUSEUP)
    ui.wait_saved(page)
    end = document.span(path)[1]
    assert ui.stored_state(page, "alice", "play")["passages"] == [[start, end]]
    assert passages_painted(page) == [[start, end]]
    item = page.locator("#passage-list li")
    assert item.locator(".passage-length").inner_text() == f"{end - start} ch"
    assert item.get_attribute("title") == f"act 5, scene 5, line 10: {end - start} characters"
    assert page.locator("#bep-text").inner_text() == "act 5, scene 5, line 10 (suggested)"
