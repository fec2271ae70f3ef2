"""The Import page takes collections in other formats than XML articles (docs/collections.md):
one uploaded JSON Lines file, a TREC SGML file or a folder of HTML pages on the server; a refused
record stores nothing and keeps no file. Our own material
(tests/evaluation/formats/collections/material.py)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db, texts
from focal.assessor.store.models import Document

from ....evaluation.formats.collections import material
from ...conftest import PASSWORD, login, make_test_app
from .test_campaign_imports import count, outcome, post, uploads


@pytest.fixture
def site(tmp_path: Path, migrated_sqlite: Path) -> Iterator[tuple[Flask, Path]]:
    """An empty campaign with organiser olga; server paths under the material's folder."""
    folder = tmp_path / "material"
    material.write_all(folder)
    app = make_test_app(tmp_path, template=migrated_sqlite, config={"IMPORT_ROOTS": str(folder)})
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    yield app, folder
    db.engine_of(app).dispose()


def stored_texts(app: Flask) -> dict[str, str]:
    with db.session_scope(app) as session:
        return {row.id: texts.text_of(row) for row in session.query(Document)}


def test_an_uploaded_jsonl_file_is_imported(site: tuple[Flask, Path]) -> None:
    app, folder = site
    client = app.test_client()
    token = login(client, "olga")
    page = client.get("/organiser/import").get_data(as_text=True)
    assert 'id="collection-format"' in page and '<option value="jsonl">' in page
    upload = (io.BytesIO((folder / "lamps.jsonl").read_bytes()), "lamps.jsonl")
    status, html = outcome(client, post(client, token, "/organiser/import/collection",
                                        files=[upload]))  # fmt: skip
    assert status == "done" and "Imported 2 documents into the collection lamps." in html
    assert stored_texts(app) == material.JSONL_TEXTS


@pytest.mark.parametrize(("path", "expected"), [
    ("news.sgml", material.SGML_TEXTS), ("pages", material.HTML_TEXTS),
])  # fmt: skip
def test_a_file_or_folder_on_the_server_is_imported(
    site: tuple[Flask, Path], path: str, expected: dict[str, str]
) -> None:
    app, folder = site
    client = app.test_client()
    token = login(client, "olga")
    answer = post(client, token, "/organiser/import/collection", source="path",
                  path=str(folder / path))  # fmt: skip
    status, html = outcome(client, answer)
    assert status == "done" and f"Imported {len(expected)} documents" in html
    assert stored_texts(app) == expected


def test_a_refused_record_stores_and_keeps_nothing(site: tuple[Flask, Path]) -> None:
    app, _ = site
    client = app.test_client()
    token = login(client, "olga")
    bad = b'{"id": "a", "text": "fine"}\n{"id": "b"}\n'
    answer = post(client, token, "/organiser/import/collection",
                  files=[(io.BytesIO(bad), "bad.jsonl")])  # fmt: skip
    status, html = outcome(client, answer)
    assert status == "failed" and "bad.jsonl:2: expected a text field" in html
    assert count(app, Document) == 0
    assert uploads(app) == []
