"""Highlighting in Chromium in a JSON Lines document and an HTML page (docs/collections.md).

The two documents are read from our own JSON Lines file and HTML page by Focal's readers and
stored as the import stores them (the XML file of their tree), then judged on the assessment
screen like any article. The oracle is Python's `Document.text` of the stored file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from focal.evaluation.formats.collections.detect import find_document

from ...evaluation.formats.collections import material
from ..assessor_steps import MOUSEUP, SELECT, units

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def stored_forms() -> dict[str, str]:
    """The JSON Lines record lamp-1 and the page garden as the import writes them."""
    with tempfile.TemporaryDirectory() as folder:
        found = material.write_all(Path(folder))
        records = {
            "lamp-1": find_document(found["jsonl"][0], "lamp-1"),
            "garden": find_document(found["html"][0], "garden"),
        }
        return {name: etree.tostring(r.root, encoding="unicode") for name, r in records.items()}


EXTRA_ARTICLES = stored_forms()


@pytest.mark.parametrize(
    ("article", "path", "words"),
    [
        ("lamp-1", "/doc[1]/body[1]/p[2]", f"Oil & wick <burn> {material.SMILE}"),
        ("garden", "/doc[1]/body[1]/h1[1]", f"Roses {material.ASTRAL}"),
    ],
)
def test_a_highlight_in_another_format_is_stored_at_its_offsets(
    ui: Any, article: str, path: str, words: str
) -> None:
    page = ui.log_in("alice")
    ui.open_article(page, "alice", article)
    document = ui.site.document(article)
    expected = material.JSONL_TEXTS if article == "lamp-1" else material.HTML_TEXTS
    assert document.text == expected[article]
    shown = page.evaluate("document.getElementById('document').textContent")
    assert shown == document.text
    page.evaluate(SELECT, [path, 0, units(words)])
    page.evaluate(MOUSEUP)
    ui.wait_saved(page)
    start = document.span(path)[0]
    assert ui.stored_state(page, "alice", article)["passages"] == [[start, start + len(words)]]
    assert document.text[start : start + len(words)] == words
