"""The organiser's Import page through Flask's test client, on an empty database.

The material is the demo's (demo/: 44 articles, 5 topics, 4 runs). Every refused import is
checked to have written nothing: no rows, and no file left in the data folder.
"""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db
from focal.assessor.store.models import Document, Run, RunResult, Topic

from ....conftest import DEMO, wait_until
from ...conftest import PASSWORD, login, make_test_app

COLLECTION = DEMO / "collection"


@pytest.fixture
def empty_app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    """An empty campaign with organiser olga and assessor alice; server paths under demo/."""
    app = make_test_app(tmp_path, template=migrated_sqlite, config={"IMPORT_ROOTS": str(DEMO)})
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
        add_user(session, "alice", "assessor", PASSWORD)
    yield app
    db.engine_of(app).dispose()


@pytest.fixture
def olga(empty_app: Flask) -> tuple[FlaskClient, str]:
    client = empty_app.test_client()
    return client, login(client, "olga")


def count(app: Flask, model: Any) -> int:
    with db.session_scope(app) as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def uploads(app: Flask) -> list[Path]:
    """Every file kept in the data folder."""
    root = Path(app.instance_path) / "data"
    return sorted(path for path in root.rglob("*") if path.is_file()) if root.exists() else []


def post(client: FlaskClient, token: str, url: str, htmx: bool = True, **data: Any) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        url,
        data={"csrf_token": token, **data},
        headers=headers,
        content_type="multipart/form-data",
    )


def outcome(client: FlaskClient, answer: Any) -> tuple[str, str]:
    """(status, html) of an import: its job polled as the page does until it ends, or the
    refusal answered at once (status `refused`)."""
    html = answer.get_data(as_text=True)
    polled = re.search(r'hx-get="(/organiser/import/jobs/\d+)"', html)
    if polled is None:  # refused at once, or a job so quick that it had ended already
        ended = re.search(r'data-status="(\w+)"', html)
        assert ended is not None or answer.status_code == 422, html
        return (ended.group(1) if ended else "refused"), html

    def finished() -> tuple[str, str] | None:
        html = client.get(polled.group(1), headers={"HX-Request": "true"}).get_data(as_text=True)
        status = re.search(r'data-status="(\w+)"', html)
        assert status is not None, html
        return None if status.group(1) in ("queued", "running") else (status.group(1), html)

    return wait_until(finished, 60, "the import job to end")


def demo_files(names: list[str] | None = None) -> list[tuple[io.BytesIO, str]]:
    paths = sorted(COLLECTION.glob("*.xml"))
    return [(io.BytesIO(p.read_bytes()), p.name) for p in paths if names is None or p.name in names]


def zipped(entries: dict[str, bytes]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    buffer.seek(0)
    return buffer


def test_assessors_are_refused_every_import(empty_app: Flask) -> None:
    alice = empty_app.test_client()
    token = login(alice, "alice")
    assert alice.get("/organiser/import").status_code == 403
    assert alice.get("/organiser/import/jobs/1").status_code == 403
    olga = empty_app.test_client()
    login(olga, "olga")
    assert olga.get("/organiser/import/jobs/999").status_code == 404
    for kind in ("collection", "topics", "runs"):
        assert post(alice, token, f"/organiser/import/{kind}").status_code == 403
    assert count(empty_app, Document) == 0


def test_an_import_without_the_csrf_token_is_refused(olga: tuple[FlaskClient, str]) -> None:
    client, _token = olga
    answer = client.post(
        "/organiser/import/topics",
        data={"files": (io.BytesIO((DEMO / "topics.xml").read_bytes()), "topics.xml")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 400
    assert count(client.application, Topic) == 0


def test_collection_topics_and_runs_uploaded_are_stored_and_kept(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    page = client.get("/organiser/import").get_data(as_text=True)
    assert 'name="csrf_token"' in page and 'enctype="multipart/form-data"' in page
    answer = post(client, token, "/organiser/import/collection", files=demo_files(), name="demo")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    status, html = outcome(client, answer)
    assert status == "done" and "Imported 44 documents into the collection demo." in html
    topics = (io.BytesIO((DEMO / "topics.xml").read_bytes()), "topics.xml")
    answer = post(client, token, "/organiser/import/topics", files=[topics])
    assert (
        outcome(client, answer) == ("done", ANY)
        and "Imported 5 topics." in outcome(client, answer)[1]
    )
    runs = [(io.BytesIO(p.read_bytes()), p.name) for p in sorted((DEMO / "runs").glob("*.run"))]
    status, done = outcome(client, post(client, token, "/organiser/import/runs", files=runs))
    assert status == "done" and "Imported 4 run(s)" in done and "bm25-articles" in done
    assert "In the database: 44 documents in 1\n" in done  # counts follow the job
    app = client.application
    assert (count(app, Document), count(app, Topic), count(app, Run)) == (44, 5, 4)
    assert count(app, RunResult) > 0
    data = Path(app.instance_path) / "data"
    with db.session_scope(app) as session:
        files = [Path(f) for f in session.scalars(select(Document.file))]
        run_files = [Path(f) for f in session.scalars(select(Run.file))]
    assert all(data in path.parents and path.is_file() for path in files + run_files)


def test_a_plain_post_redirects_with_the_message_flashed(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    topics = (io.BytesIO((DEMO / "topics.xml").read_bytes()), "topics.xml")
    answer = post(client, token, "/organiser/import/topics", htmx=False, files=[topics])
    assert answer.status_code == 303 and "/organiser/import/jobs/" in answer.location

    def finished() -> str | None:
        page = client.get(answer.location).get_data(as_text=True)
        return None if 'http-equiv="refresh"' in page else page

    page = wait_until(finished, 60, "the job page to stop refreshing")
    assert "Imported 5 topics." in page
    refused = post(client, token, "/organiser/import/topics", htmx=False, files=[])
    assert refused.status_code == 303
    assert "choose the file(s) to import" in client.get(refused.location).get_data(as_text=True)


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_an_archive_of_articles_is_unpacked(olga: tuple[FlaskClient, str], kind: str) -> None:
    client, token = olga
    buffer = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in COLLECTION.glob("*.xml"):
                archive.write(path, f"collection/{path.name}")
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            archive.add(COLLECTION, arcname="collection")
    buffer.seek(0)
    answer = post(client, token, "/organiser/import/collection", files=[(buffer, f"demo.{kind}")])
    status, html = outcome(client, answer)
    assert status == "done" and "Imported 44 documents into the collection demo." in html
    assert count(client.application, Document) == 44
    assert not [p for p in uploads(client.application) if not p.name.endswith(".xml")]


def test_a_zip_with_a_parent_entry_is_refused_and_writes_nothing(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    good = (COLLECTION / "1001.xml").read_bytes()
    archive = zipped({"1001.xml": good, "../escape.xml": good})
    answer = post(client, token, "/organiser/import/collection", files=[(archive, "evil.zip")])
    status, text = outcome(client, answer)
    assert status == "failed"
    assert "evil.zip: entry &#39;../escape.xml&#39; points outside the archive" in text
    assert count(client.application, Document) == 0
    assert uploads(client.application) == []
    assert not (Path(client.application.instance_path) / "data" / "escape.xml").exists()


def test_a_tar_with_a_link_is_refused(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        link = tarfile.TarInfo("passwd.xml")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    buffer.seek(0)
    answer = post(client, token, "/organiser/import/collection", files=[(buffer, "a.tar.gz")])
    status, html = outcome(client, answer)
    assert status == "failed" and "is a link or a device" in html
    assert uploads(client.application) == []


def test_a_bad_article_is_named_and_nothing_is_written(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    broken = (io.BytesIO(b"<article>\n<p>unclosed\n</article>"), "2001.xml")
    files = [*demo_files(["1001.xml", "1002.xml"]), broken]
    status, text = outcome(client, post(client, token, "/organiser/import/collection", files=files))
    assert status == "failed"
    assert '<p class="outcome error">2001.xml:3' in text  # the importer's file:line message
    assert count(client.application, Document) == 0
    assert uploads(client.application) == []


def test_a_bad_run_is_named_and_no_run_is_written(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    good = DEMO / "runs" / "bm25-articles.run"
    bad = (io.BytesIO(b"9001 Q0 1001 1 2.5 bad\n9001 Q0 1002 x 2.0 bad 0 5\n"), "bad.run")
    answer = post(
        client,
        token,
        "/organiser/import/runs",
        files=[(io.BytesIO(good.read_bytes()), good.name), bad],
    )
    status, html = outcome(client, answer)
    assert status == "failed" and '<p class="outcome error">bad.run:2: expected 6 fields' in html
    assert count(client.application, Run) == 0 and uploads(client.application) == []


def test_a_server_path_outside_the_allowed_roots_is_refused(
    olga: tuple[FlaskClient, str], tmp_path: Path
) -> None:
    client, token = olga
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "1.xml").write_text("<article><p>x</p></article>", encoding="utf-8")
    for path in (str(outside), f"{COLLECTION}/../../{tmp_path.name}"):
        answer = post(client, token, "/organiser/import/collection", source="path", path=path)
        status, html = outcome(client, answer)
        assert status == "refused" and "is outside the folders imports may read" in html
    assert count(client.application, Document) == 0


def test_a_server_path_inside_the_roots_is_imported(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    answer = post(
        client, token, "/organiser/import/collection", source="path", path=str(COLLECTION)
    )
    assert "Imported 44 documents into the collection collection." in outcome(client, answer)[1]
    topics = str(DEMO / "topics.xml")
    answer = post(client, token, "/organiser/import/topics", source="path", path=topics)
    assert outcome(client, answer)[0] == "done"
    runs = post(client, token, "/organiser/import/runs", source="path", path=str(DEMO / "runs"))
    assert "Imported 4 run(s)" in outcome(client, runs)[1]
    with db.session_scope(client.application) as session:
        files = set(session.scalars(select(Document.file)))
    assert str(COLLECTION.resolve() / "1001.xml") in files  # read in place, not copied
    assert uploads(client.application) == []


def test_runs_naming_articles_absent_from_the_collection_are_imported_with_a_warning(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    two = sorted(p.name for p in COLLECTION.glob("*.xml"))[:2]
    outcome(client, post(client, token, "/organiser/import/collection", files=demo_files(two)))
    run = DEMO / "runs" / "bm25-articles.run"
    # The articles the run names, read from its third column (topic Q0 article ...), minus the
    # two imported: the count the warning must give.
    named = {line.split()[2] for line in run.read_text(encoding="utf-8").splitlines() if line}
    absent = len(named - {name.removesuffix(".xml") for name in two})
    answer = post(
        client, token, "/organiser/import/runs", files=[(io.BytesIO(run.read_bytes()), run.name)]
    )
    # The answer belongs beside the runs form, not at the top of the page.
    assert 'id="import-result-runs"' in answer.get_data(as_text=True)
    status, html = outcome(client, answer)
    assert status == "done" and "Imported 1 run(s)" in html
    assert f"Warning: articles absent from the collection (bm25-articles names {absent});" in html


def test_without_import_roots_the_server_path_forms_are_not_shown(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    app = make_test_app(tmp_path, template=migrated_sqlite)
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    client = app.test_client()
    login(client, "olga")
    page = client.get("/organiser/import").get_data(as_text=True)
    assert 'id="collection-path"' not in page and 'id="runs-path"' not in page
    assert 'id="collection-files"' in page and "so its forms are not shown" in page
    db.engine_of(app).dispose()
