"""An import job under `focal serve --workers 2`: the job runs in the worker that received the
post, and its progress is read from the database by whichever worker answers each poll."""

from __future__ import annotations

import http.cookiejar
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db

from ....conftest import DEMO, serving, wait_until
from ...conftest import PASSWORD


def _csrf(opener: urllib.request.OpenerDirector, url: str) -> str:
    with opener.open(url, timeout=10) as page:
        found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page.read().decode())
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_an_import_job_is_polled_across_gunicorn_workers(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    database = tmp_path / "served.sqlite"
    database.write_bytes(migrated_sqlite.read_bytes())
    engine = db.make_engine(f"sqlite:///{database}")
    with Session(engine) as session:
        add_user(session, "olga", "organiser", PASSWORD)
        session.commit()
    engine.dispose()
    env = {
        **os.environ,
        "FOCAL_DATABASE_URL": f"sqlite:///{database}",
        "FOCAL_SECRET_KEY": "workers",
        "FOCAL_IMPORT_ROOTS": str(DEMO),
    }
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with serving(env, "--workers", "2") as served:
        base = served.base
        token = _csrf(opener, f"{base}/login")
        form = {"name": "olga", "password": PASSWORD, "csrf_token": token}
        opener.open(f"{base}/login", urllib.parse.urlencode(form).encode(), timeout=10).close()
        token = _csrf(opener, f"{base}/organiser/import")
        form = {"csrf_token": token, "source": "path", "path": str(DEMO / "collection")}
        with opener.open(
            f"{base}/organiser/import/collection", urllib.parse.urlencode(form).encode(), timeout=10
        ) as answer:
            job_url = answer.geturl()  # a plain post is redirected to the job's page
        assert re.search(r"/organiser/import/jobs/\d+$", job_url), job_url

        def finished() -> tuple[str, str] | None:
            request = urllib.request.Request(job_url, headers={"HX-Request": "true"})
            with opener.open(request, timeout=10) as answer:
                html = answer.read().decode()
            status = re.search(r'data-status="(\w+)"', html)
            assert status is not None, html
            return None if status.group(1) in ("queued", "running") else (status.group(1), html)

        state, html = wait_until(finished, 60, "the import job to end")
        assert state == "done", html
        assert "Imported 44 documents into the collection collection." in html
    assert b"Traceback" not in served.errors, served.errors.decode(errors="replace")
