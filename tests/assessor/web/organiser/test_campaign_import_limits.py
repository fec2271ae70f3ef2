"""The Import page's limits: server paths switched off without roots, uploads over the size
limit explained on the page (the helpers are test_campaign_imports.py's)."""

from __future__ import annotations

import io
from pathlib import Path

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db
from focal.assessor.store.models import Document

from ....conftest import DEMO
from ...conftest import PASSWORD, login, make_test_app
from .test_campaign_imports import count, outcome, post, uploads


def test_server_paths_are_off_without_roots(tmp_path: Path, migrated_sqlite: Path) -> None:
    app = make_test_app(tmp_path, template=migrated_sqlite)
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    client = app.test_client()
    token = login(client, "olga")
    assert "switched off" in client.get("/organiser/import").get_data(as_text=True)
    answer = post(client, token, "/organiser/import/topics", source="path", path=str(DEMO))
    status, html = outcome(client, answer)
    assert status == "refused" and "FOCAL_IMPORT_ROOTS must list the folders" in html
    db.engine_of(app).dispose()


def test_an_upload_over_the_size_limit_is_refused_on_the_page(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    app = make_test_app(tmp_path, template=migrated_sqlite, config={"MAX_CONTENT_LENGTH": 4096})
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    client = app.test_client()
    token = login(client, "olga")

    def big() -> tuple[io.BytesIO, str]:
        return io.BytesIO(b"<article>" + b"x" * 8192 + b"</article>"), "1.xml"

    answer = post(client, token, "/organiser/import/collection", files=[big()])
    assert answer.status_code == 422
    assert "the upload is too large: at most 4096 bytes" in answer.get_data(as_text=True)
    plain = post(client, token, "/organiser/import/collection", htmx=False, files=[big()])
    assert plain.status_code == 413 and "the upload is too large" in plain.get_data(as_text=True)
    assert count(app, Document) == 0 and uploads(app) == []
    db.engine_of(app).dispose()
