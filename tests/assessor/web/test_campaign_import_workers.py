"""An import job under `focal serve --workers 2`: the job runs in the worker that received the
post, and its progress is read from the database by whichever worker answers each poll."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from assessor.campaign.users import add_user
from assessor.store import db

from ...conftest import DEMO
from ..conftest import PASSWORD


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    focal = Path(sys.executable).with_name("focal")
    server = subprocess.Popen(
        [str(focal), "serve", "--workers", "2", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                token = _csrf(opener, f"{base}/login")
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        form = {"name": "olga", "password": PASSWORD, "csrf_token": token}
        opener.open(f"{base}/login", urllib.parse.urlencode(form).encode(), timeout=10).close()
        token = _csrf(opener, f"{base}/organiser/import")
        form = {"csrf_token": token, "source": "path", "path": str(DEMO / "collection")}
        with opener.open(
            f"{base}/organiser/import/collection", urllib.parse.urlencode(form).encode(), timeout=10
        ) as answer:
            job_url = answer.geturl()  # a plain post is redirected to the job's page
        assert re.search(r"/organiser/import/jobs/\d+$", job_url), job_url
        deadline = time.monotonic() + 60
        while True:
            request = urllib.request.Request(job_url, headers={"HX-Request": "true"})
            with opener.open(request, timeout=10) as answer:
                html = answer.read().decode()
            status = re.search(r'data-status="(\w+)"', html)
            assert status is not None, html
            if status.group(1) != "running":
                break
            assert time.monotonic() < deadline, html
            time.sleep(0.05)
        assert status.group(1) == "done", html
        assert "Imported 44 documents into the collection collection." in html
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        _out, err = server.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode(errors="replace")
