"""Article titles for the pool list, one collection kind at a time, and their import.

Real files come from ../shared/data/collections (skipped, saying so, when absent) and from our
own demo collection; the other kinds are small XML files written here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from focal.assessor.campaign.setup.importing import import_collection
from focal.assessor.campaign.setup.titles import article_title, collapse
from focal.assessor.store import db
from focal.assessor.store.models import TITLE_LENGTH, Document
from focal.evaluation.text.document import Document as ParsedDocument

from ...conftest import DEMO, shared_path

WRITTEN = {
    # INEX Wikipedia 2006-2008: the root's <name>
    "wiki2006": '<article><name id="12">Lighthouse   of\n  Alexandria</name>'
    "<body><section><title>History</title><p>Text.</p></section></body></article>",
    # INEX 2009-2010 (and our demo): <header><title>
    "wiki2009": "<article><header><title>Fresnel lens</title><id>7</id></header>"
    "<bdy><p>Text.</p></bdy></article>",
    # JATS: the first article-title inside <front>, not one cited in the back matter
    "jats": "<article><front><article-meta><title-group><article-title>Gene <italic>X</italic>"
    "  regulates Y</article-title></title-group></article-meta></front><back><ref-list><ref>"
    "<article-title>Cited work</article-title></ref></ref-list></back></article>",
    # A Shakespeare play: <play><head><title>
    "play": "<play><head><title>The Tempest</title><shortName>tempest</shortName></head>"
    "<text><act><scene><text>Boatswain!</text></scene></act></text></play>",
    # No title element at all, and an empty one
    "none": "<article><bdy><p>Untitled text.</p></bdy></article>",
    "empty": "<article><title>  </title><bdy><p>Text.</p></bdy></article>",
}
EXPECTED = {
    "wiki2006": "Lighthouse of Alexandria",
    "wiki2009": "Fresnel lens",
    "jats": "Gene X regulates Y",
    "play": "The Tempest",
    "none": None,
    "empty": None,
}


@pytest.mark.parametrize("kind", sorted(WRITTEN))
def test_the_title_of_each_kind_of_article(kind: str) -> None:
    document = ParsedDocument.from_bytes(WRITTEN[kind].encode(), kind)
    assert article_title(document) == EXPECTED[kind]


def test_a_long_title_is_cut_with_an_ellipsis() -> None:
    title = "word " * 200
    document = ParsedDocument.from_bytes(f"<article><title>{title}</title></article>".encode(), "x")
    found = article_title(document)
    assert found is not None and len(found) == TITLE_LENGTH and found.endswith("…")
    assert collapse(" a \t b\n") == "a b"


def test_our_demo_articles_have_their_header_titles() -> None:
    document = ParsedDocument.from_file(DEMO / "collection" / "1001.xml")
    assert article_title(document) == "Lighthouse"


def test_real_jats_and_play_files() -> None:
    elife = shared_path("collections", "elife", "elife00240.xml")
    assert (
        article_title(ParsedDocument.from_file(elife)) == "Indirect routes to reproductive success"
    )
    hamlet = shared_path("collections", "shakespeare", "hamlet.xml")
    assert (
        article_title(ParsedDocument.from_file(hamlet))
        == "The Tragedy of Hamlet, Prince of Denmark"
    )


def test_import_stores_the_titles_and_a_reimport_fills_them_in(app: Flask, tmp_path: Path) -> None:
    directory = tmp_path / "collection"
    directory.mkdir()
    for kind, xml in WRITTEN.items():
        (directory / f"{kind}.xml").write_text(xml, encoding="utf-8")
    with db.session_scope(app) as session:
        import_collection(session, directory, "mixed")
    with db.session_scope(app) as session:
        titles = {row.id: row.title for row in session.scalars(select(Document))}
        assert titles == EXPECTED
        # A database from before titles: the column is empty until the collection is imported
        # again (allowed: the texts are unchanged).
        for row in session.scalars(select(Document)):
            row.title = None
    with db.session_scope(app) as session:
        import_collection(session, directory, "mixed")
    with db.session_scope(app) as session:
        assert {row.id: row.title for row in session.scalars(select(Document))} == EXPECTED
