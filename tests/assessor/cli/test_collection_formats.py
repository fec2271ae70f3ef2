"""Collections in JSON Lines, TSV, TREC SGML and HTML through the assessor (docs/collections.md):
each imports with `focal import collection`, the article page holds its exact text, and a
highlight made through the API comes back in the FOL export at the same offsets; a segment run
over the JSON Lines collection is pooled, judged and scored with the focused measures. The
material is our own (tests/evaluation/formats/collections/material.py)."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from focal.assessor.campaign.setup.importing import imported_counts
from focal.assessor.store import db
from focal.assessor.web.app import create_app
from focal.evaluation.api import evaluate
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run

from ...evaluation.formats.collections import material
from ..conftest import csrf_of
from ..web.assess.test_pages import read_article_page
from .test_commands import TOPICS

PASSWORD = "a good password"


def campaign(cli: Any, tmp_path: Path, collection: Path, run: str, *options: str) -> None:
    """A database with the collection, topic 9, the run, its pool, and alice assigned."""
    (tmp_path / "topics.xml").write_text(TOPICS, encoding="utf-8")
    (tmp_path / "r1.run").write_text(run, encoding="utf-8")
    (tmp_path / "pw").write_text(PASSWORD + "\n", encoding="utf-8")
    cli("init-db")
    cli("import", "collection", str(collection))
    cli("import", "topics", str(tmp_path / "topics.xml"))
    cli("import", "runs", str(tmp_path / "r1.run"), *options)
    cli("pool", "build", "--size", "10")
    cli("users", "add", "alice", "--role", "assessor", "--password-file", str(tmp_path / "pw"))
    cli("assign", "9", "alice")


def logged_in() -> tuple[FlaskClient, str]:
    client = create_app().test_client()
    token = csrf_of(client)
    response = client.post(
        "/login", data={"name": "alice", "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 302
    return client, csrf_of(client)


def assignment(client: FlaskClient) -> int:
    listing = client.get("/api/assignments").json
    assert listing is not None
    (only,) = listing["assignments"]
    return int(only["id"])


def highlight(
    client: FlaskClient, token: str, article: str, start: int, end: int, text: str
) -> None:
    url = f"/api/assignments/{assignment(client)}/documents/{article}/ops"
    op = {"op_id": str(uuid.uuid4()), "op": "highlight", "start": start, "end": end,
          "exact": text[start:end]}  # fmt: skip
    response = client.post(url, json=op, headers={"X-CSRF-Token": token})
    assert response.status_code == 200, response.get_data(as_text=True)


def last_word(text: str) -> tuple[int, int]:
    """The span of the text's last run of non-space characters (nothing to trim)."""
    found = list(re.finditer(r"\S+", text))[-1]
    return found.start(), found.end()


@pytest.mark.parametrize("name", ["jsonl", "tsv", "trec", "html"])
def test_a_collection_imports_renders_and_exports_its_offsets(
    cli: Any, tmp_path: Path, name: str
) -> None:
    path, texts = material.write_all(tmp_path / "material")[name]
    run = "".join(f"9 Q0 {doc} {rank} 1.0 r1\n" for rank, doc in enumerate(texts, 1))
    campaign(cli, tmp_path, path, run)
    client, token = logged_in()
    for doc, text in texts.items():
        page = client.get(f"/assignments/{assignment(client)}/articles/{doc}")
        assert page.status_code == 200
        assert "".join(read_article_page(page.get_data(as_text=True)).text) == text
    # one highlight on the first document, ending at its last character (astral in most)
    doc, text = next(iter(texts.items()))
    start, end = last_word(text)
    highlight(client, token, doc, start, end, text)
    exported = cli("export-qrels", "--format", "fol").output.splitlines()
    line = next(line for line in exported if line.split()[2] == doc)
    assert line == f"9 Q0 {doc} {end - start} {len(text)} {start} {start}:{end - start}"


def test_a_refused_record_stores_nothing(cli: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    records = [*material.JSONL_RECORDS, {"id": "broken"}]
    bad.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    cli("init-db")
    result = cli("import", "collection", str(bad), code=2)
    assert result.stderr.strip() == f"focal: {bad}:3: expected a text field holding a string " \
        "(text, contents, body)"  # fmt: skip
    assert "Traceback" not in result.output
    stored = tmp_path / "instance" / "data" / "collections"
    assert not stored.exists() or not any(stored.iterdir())
    app = create_app()
    with db.session_scope(app) as session:
        assert imported_counts(session)["documents"] == 0


def test_a_segment_run_is_pooled_judged_and_scored(cli: Any, tmp_path: Path) -> None:
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    record = str(material.JSONL_RECORDS[0]["text"])
    segments = tmp_path / "segments.jsonl"
    lines = [
        {"docid": "lamp-1#0", "start_char": 0, "end_char": 23},
        {"docid": "lamp-1#1", "start_char": 25, "end_char": len(record)},
        {"docid": "lamp-2#0", "start_char": 0, "end_char": 14},
    ]
    segments.write_text("".join(json.dumps(s) + "\n" for s in lines), encoding="utf-8")
    run = "9 Q0 lamp-1#1 1 2.0 seg\n9 Q0 lamp-2#0 2 1.0 seg\n"
    campaign(cli, tmp_path, collection, run, "--segments", str(segments))
    client, token = logged_in()
    # alice finds "Oil & wick" (the start of segment lamp-1#1) and nothing in lamp-2
    text = material.JSONL_TEXTS["lamp-1"]
    start = text.index("Oil")
    highlight(client, token, "lamp-1", start, start + len("Oil & wick"), text)
    url = f"/api/assignments/{assignment(client)}/documents/lamp-2/ops"
    op = {"op_id": "n", "op": "mark_nonrelevant"}
    assert client.post(url, json=op, headers={"X-CSRF-Token": token}).status_code == 200
    qrels = tmp_path / "support.qrels"
    cli("export-qrels", "-o", str(qrels))
    fol = tmp_path / "seg.fol"
    cli("convert", "run", "--collection", str(collection), "--segments", str(segments),
        "-o", str(fol), str(tmp_path / "r1.run"))  # fmt: skip
    converted = read_run(fol)
    first = converted.topics["9"][0]
    assert (first.article, first.start, first.length) == ("lamp-1", start, len(text) - start)
    scores = evaluate(read_qrels(qrels), converted, task="focused").per_topic["seg"]["9"]
    segment_length = len(text) - start
    # 10 relevant characters at the start of the first result, none in the second
    assert scores["char_prec"] == 10 / (segment_length + 14)
    assert scores["char_rec"] == 1.0
    assert scores["iP[0.00]"] == 10 / segment_length  # the precision after the first result


def test_a_changed_judged_text_is_refused_and_its_files_removed(cli: Any, tmp_path: Path) -> None:
    collection = material.write_jsonl(tmp_path / "lamps.jsonl")
    campaign(cli, tmp_path, collection, "9 Q0 lamp-1 1 1.0 r1\n")
    client, token = logged_in()
    text = material.JSONL_TEXTS["lamp-1"]
    highlight(client, token, "lamp-1", *last_word(text), text)
    stored = tmp_path / "instance" / "data" / "collections"
    before = sorted(stored.iterdir())
    changed = [dict(material.JSONL_RECORDS[0], text="Other words."), material.JSONL_RECORDS[1]]
    material.write_jsonl(collection, changed)
    refused = cli("import", "collection", str(collection), code=2)
    assert "text differs from the judged article lamp-1" in refused.stderr
    assert sorted(stored.iterdir()) == before  # the refused import's documents are gone
