"""Articles known only by id and length (`focal import qrels` without the collection).

They have no file and no hash (NULL) until `focal import collection` supplies a file whose text
has the stored length; meanwhile every use of their text says so instead of failing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import func, select

from focal.assessor.campaign.people.users import issue_token
from focal.assessor.campaign.setup.importing import PLACEHOLDER_COLLECTION
from focal.assessor.cli import support
from focal.assessor.cli.main import main
from focal.assessor.store import db, texts
from focal.assessor.store.models import Collection, Document, Judgement, Topic, User
from focal.evaluation.text.document import Document as ParsedDocument

from ..conftest import Seeded

MESSAGE = "article 9999 is known only by id and length; import its collection"
# The text of 9999.xml is "Lead" + 96 times "x": 100 code points, [0, 4) = "Lead".
ARTICLE_9999 = "<article><title>Lead</title><bdy><p>" + "x" * 96 + "</p></bdy></article>"


def focal(seeded: Seeded, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    """Run `focal ARGS` in-process on the seeded app (whose engine the fixture disposes)."""
    monkeypatch.setattr(support, "make_app", lambda migrated=True: seeded.app)
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def erin(any_seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    """Erin's qrels judged 9999 (100 characters, not in the database) relevant at [0, 4)."""
    qrels = tmp_path / "erin.qrels"
    qrels.write_text("1 Q0 1001 0 49\n3 Q0 9999 4 100 0 0:4\n", encoding="utf-8")
    result = focal(any_seeded, monkeypatch, "import", "qrels", str(qrels), "--assessor", "erin")
    assert result.exit_code == 0, result.output
    with db.session_scope(any_seeded.app) as session:
        user = session.scalars(select(User).where(User.name == "erin")).one()
        any_seeded.tokens["erin"] = issue_token(session, user)
    return any_seeded


def collection_with_9999(tmp_path: Path, xml: str = ARTICLE_9999) -> Path:
    directory = tmp_path / "later"
    directory.mkdir()
    (directory / "9999.xml").write_text(xml, encoding="utf-8")
    (directory / "9998.xml").write_text("<article><p>new</p></article>", encoding="utf-8")
    return directory


def erin_assignment(seeded: Seeded) -> int:
    with db.session_scope(seeded.app) as session:
        found = session.scalar(select(Judgement.assignment_id).where(Judgement.article == "9999"))
        assert found is not None
        return found


def bearer(seeded: Seeded, name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {seeded.tokens[name]}"}


def test_the_fixture_article_has_the_length_of_the_qrels() -> None:
    text = ParsedDocument.from_bytes(ARTICLE_9999.encode(), "9999").text
    assert len(text) == 100 and text[:4] == "Lead"


def test_loading_the_text_says_what_is_missing(erin: Seeded) -> None:
    with db.session_scope(erin.app) as session:
        row = session.get(Document, "9999")
        assert row is not None and not row.has_text
        with pytest.raises(texts.MissingTextError, match=MESSAGE):
            texts.load(row)
        with pytest.raises(texts.MissingTextError, match=MESSAGE):
            texts.text_of(row)


def test_the_article_page_shows_the_message_and_the_stored_judgement(erin: Seeded) -> None:
    assignment = erin_assignment(erin)
    client = erin.app.test_client()
    page = client.get(f"/assignments/{assignment}/articles/9999", headers=bearer(erin, "erin"))
    html = page.get_data(as_text=True)
    assert page.status_code == 409
    assert MESSAGE in html and 'id="document"' not in html
    assert '<dd id="status-text">relevant</dd>' in html and "1 passage(s)" in html
    state = client.get(
        f"/api/assignments/{assignment}/documents/9999", headers=bearer(erin, "erin")
    )
    assert state.status_code == 200 and state.get_json()["passages"] == [[0, 4]]


def test_a_highlight_is_refused_with_the_message_and_changes_nothing(erin: Seeded) -> None:
    assignment = erin_assignment(erin)
    response = erin.app.test_client().post(
        f"/api/assignments/{assignment}/documents/9999/ops",
        json={"op_id": "h1", "op": "highlight", "start": 10, "end": 20, "exact": "x" * 10},
        headers=bearer(erin, "erin"),
    )
    assert response.status_code == 409
    assert response.get_json() == {"error": MESSAGE, "code": "text_missing"}
    with db.session_scope(erin.app) as session:
        judgement = session.scalars(select(Judgement).where(Judgement.article == "9999")).one()
        assert (judgement.version, judgement.passages) == (1, [[0, 4]])


def test_undo_works_without_the_text_where_a_highlight_cannot(erin: Seeded) -> None:
    """`restore` needs no text to check when the server has none: ranges are still checked."""
    assignment = erin_assignment(erin)
    client, headers = erin.app.test_client(), bearer(erin, "erin")
    url = f"/api/assignments/{assignment}/documents/9999/ops"
    state = {"status": "relevant", "passages": [[0, 4]], "bep": 0, "finished": True}
    undone = client.post(url, json={"op_id": "n", "op": "mark_nonrelevant"}, headers=headers)
    assert undone.get_json()["status"] == "nonrelevant"
    response = client.post(url, json={"op_id": "r", "op": "restore", **state}, headers=headers)
    assert response.status_code == 200
    assert {k: response.get_json()[k] for k in state} == state
    too_long = {**state, "passages": [[0, 101]]}
    response = client.post(url, json={"op_id": "r2", "op": "restore", **too_long}, headers=headers)
    assert response.status_code == 422


def test_the_two_phase_screen_and_element_exports_give_the_message(
    erin: Seeded, monkeypatch: pytest.MonkeyPatch
) -> None:
    assignment = erin_assignment(erin)
    page = erin.app.test_client().get(
        f"/twophase/assignments/{assignment}/9999", headers=bearer(erin, "erin")
    )
    assert page.status_code == 404 and MESSAGE in page.get_data(as_text=True)
    refused = focal(erin, monkeypatch, "export-qrels", "--assessor", "erin", "--format", "elements")
    assert refused.exit_code == 2 and "article 9999" in refused.stderr
    assert "known only by id and length" in refused.stderr


def test_importing_the_collection_later_fills_in_the_judged_article(
    erin: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = collection_with_9999(tmp_path)
    result = focal(erin, monkeypatch, "import", "collection", str(directory))
    assert result.exit_code == 0, result.output
    with db.session_scope(erin.app) as session:
        row = session.get(Document, "9999")
        assert row is not None and row.has_text
        assert (row.file, row.text_length) == (str(directory.resolve() / "9999.xml"), 100)
        assert row.text_sha256 == texts.text_sha256("Lead" + "x" * 96)
        assert row.collection.name == "later"
        names = set(session.scalars(select(Collection.name)))
        assert PLACEHOLDER_COLLECTION not in names  # emptied, so removed
        judgement = session.scalars(select(Judgement).where(Judgement.article == "9999")).one()
        assert (judgement.passages, judgement.version) == ([[0, 4]], 1)  # untouched
    assignment = erin_assignment(erin)
    client = erin.app.test_client()
    page = client.get(f"/assignments/{assignment}/articles/9999", headers=bearer(erin, "erin"))
    assert page.status_code == 200 and 'id="document"' in page.get_data(as_text=True)
    highlighted = client.post(
        f"/api/assignments/{assignment}/documents/9999/ops",
        json={"op_id": "h1", "op": "highlight", "start": 4, "end": 10, "exact": "xxxxxx"},
        headers=bearer(erin, "erin"),
    )
    assert highlighted.status_code == 200 and highlighted.get_json()["passages"] == [[0, 10]]
    exported = focal(erin, monkeypatch, "export-qrels", "--assessor", "erin", "--topic", "3")
    assert exported.exit_code == 0 and exported.stdout == "3 Q0 9999 10 100 0 0:10\n"


def test_a_judged_article_of_another_length_is_refused_and_nothing_is_stored(
    erin: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    longer = ARTICLE_9999.replace("<p>", "<p>y")  # 101 characters
    directory = collection_with_9999(tmp_path, longer)
    with db.session_scope(erin.app) as session:
        before = session.scalar(select(func.count()).select_from(Document))
    result = focal(erin, monkeypatch, "import", "collection", str(directory))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "article 9999" in result.stderr and "100 characters" in result.stderr
    assert "101" in result.stderr and "9999.xml" in result.stderr
    with db.session_scope(erin.app) as session:
        assert session.scalar(select(func.count()).select_from(Document)) == before
        assert session.get(Document, "9998") is None  # all or nothing
        assert session.scalar(select(Collection.id).where(Collection.name == "later")) is None
        row = session.get(Document, "9999")
        assert row is not None and (row.file, row.text_sha256, row.text_length) == (None, None, 100)


def test_an_unjudged_article_known_by_length_takes_any_text(
    erin: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing was judged on the stored length any more: the file's text is simply taken.
    removed = focal(erin, monkeypatch, "assign", "3", "erin", "--remove")
    assert removed.exit_code == 0, removed.output
    longer = ARTICLE_9999.replace("<p>", "<p>y")
    directory = collection_with_9999(tmp_path, longer)
    result = focal(erin, monkeypatch, "import", "collection", str(directory))
    assert result.exit_code == 0, result.output
    with db.session_scope(erin.app) as session:
        row = session.get(Document, "9999")
        assert row is not None and row.has_text and row.text_length == 101
        assert session.get(Topic, "3") is not None
