"""Highlights that look joined are stored joined, without spaces at their ends (H-Rule ATOM as a
person reads it: seed 003 §4.2.2; docs/assessing.md, "Highlights that touch").

An assessor drags "The light came from the lamp", then "which would glow": the comma and space
left between the two drags are punctuation and whitespace only, so the database and the exported
qrels hold one passage. Removing "would" from inside it leaves two passages, neither starting
nor ending with a space. With the campaign's setting off, the two drags stay two passages.
The oracle is Python's `Document.text` of the article, never the page script's arithmetic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.store import db
from focal.assessor.store.models import Judgement
from focal.assessor.store.settings import CampaignSettings, save_settings

from ..screenshots import screenshot
from .test_assessing import passages_painted

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LAMP = "The light came from the lamp, which would glow all night."
EXTRA_ARTICLES = {
    "lamp": f"<article><title>Lamp</title><bdy><p>{LAMP}</p></bdy></article>",
}
P1 = "/article[1]/bdy[1]/p[1]"


def offsets(ui: Any, words: str) -> list[int]:
    """[start, end) in code points of `words` in the lamp article's text."""
    text = ui.site.document("lamp").text
    start = text.index(words)
    return [start, start + len(words)]


def stored_rows(ui: Any) -> list[list[list[int]]]:
    """The passages of every judgement of the lamp article, read from the database itself."""
    with Session(db.engine_of(ui.site.app)) as session:
        rows = session.scalars(select(Judgement.passages).where(Judgement.article == "lamp"))
        return [list(passages) for passages in rows]


def two_drags(ui: Any, page: Page) -> None:
    """Drag over "The light came from the la(mp)", then over "(wh)ich would gl(ow)": words snap."""
    ui.drag_select(page, (P1, 0), (P1, len("The light came from the la")))
    ui.wait_saved(page)
    ui.drag_select(page, (P1, len(LAMP.split("which")[0]) + 2), (P1, LAMP.index("glow") + 2))
    ui.wait_saved(page)


def test_two_drags_around_a_comma_are_one_passage_in_the_database_and_the_qrels(
    ui: Any,
) -> None:
    page = ui.log_in("alice", viewport={"width": 1366, "height": 768})
    ui.open_article(page, "alice", "lamp")
    two_drags(ui, page)
    joined = offsets(ui, "The light came from the lamp, which would glow")
    assert ui.stored_state(page, "alice", "lamp")["passages"] == [joined]
    assert stored_rows(ui) == [[joined]]
    assert passages_painted(page) == [joined]
    assert page.locator("#passage-list li").count() == 1
    screenshot(page, "assess-joined-highlight")

    # Removing "would" from inside: two passages, no space at either end of either.
    would = LAMP.index("would")
    ui.drag_select(page, (P1, would + 1), (P1, would + 3))
    page.keyboard.press("Delete")
    ui.wait_saved(page)
    left, right = offsets(ui, "The light came from the lamp, which"), offsets(ui, "glow")
    assert ui.stored_state(page, "alice", "lamp")["passages"] == [left, right]
    text = ui.site.document("lamp").text
    for start, end in stored_rows(ui)[0]:
        assert text[start:end] == text[start:end].strip(), text[start:end]

    # The organiser's export holds the same two passages (FOL: start:length).
    olga = ui.log_in("olga")
    olga.goto(f"{ui.site.url}/organiser/export")
    with olga.expect_download() as info:
        olga.click("#export-form button[type=submit]")
    qrels = Path(info.value.path()).read_text(encoding="utf-8")
    line = next(row for row in qrels.splitlines() if " lamp " in f" {row} ")
    fields = line.split()
    relevant = (left[1] - left[0]) + (right[1] - right[0])
    assert fields[2:] == [
        "lamp",
        str(relevant),
        str(len(text)),
        str(left[0]),
        f"{left[0]}:{left[1] - left[0]}",
        f"{right[0]}:{right[1] - right[0]}",
    ]


def test_with_the_setting_off_the_comma_keeps_two_passages_apart(ui: Any) -> None:
    with Session(db.engine_of(ui.site.app)) as session:
        save_settings(session, CampaignSettings(merge_across_punctuation=False))
        session.commit()
    page = ui.log_in("alice")
    ui.open_article(page, "alice", "lamp")
    two_drags(ui, page)
    apart = [offsets(ui, "The light came from the lamp"), offsets(ui, "which would glow")]
    assert ui.stored_state(page, "alice", "lamp")["passages"] == apart
    assert passages_painted(page) == apart
