"""Cancel and retry on the Import page: a waiting job cancelled (its upload removed, its task
revoked), a refused retry answered with its reason, an interrupted job retried to the end.

`JOB_WORKER=external`: no worker runs in the test process until the test starts one, so a job
stays queued as long as the test needs it to.
"""

from __future__ import annotations

import io
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db
from focal.assessor.store.models import ImportJob
from focal.assessor.web.jobs import queue_of

from ....conftest import DEMO, wait_until
from ...conftest import PASSWORD, login, make_test_app


@pytest.fixture
def app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    application = make_test_app(
        tmp_path, template=migrated_sqlite, config={"JOB_WORKER": "external"}
    )
    with db.session_scope(application) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    yield application
    queue_of(application, inline=False).stop_inline()
    db.engine_of(application).dispose()


def _upload_topics(client: FlaskClient, token: str) -> int:
    answer = client.post(
        "/organiser/import/topics",
        data={
            "csrf_token": token,
            "files": [(io.BytesIO((DEMO / "topics.xml").read_bytes()), "topics.xml")],
        },
        headers={"HX-Request": "true"},
        content_type="multipart/form-data",
    )
    found = re.search(
        r'id="import-job-(\d+)"[^>]*data-status="queued"', answer.get_data(as_text=True)
    )
    assert answer.status_code == 200 and found is not None, answer.get_data(as_text=True)
    return int(found.group(1))


def _job(app: Flask, job_id: int) -> ImportJob:
    with db.session_factory(app)() as session:
        return session.get_one(ImportJob, job_id)


def test_a_waiting_job_is_cancelled_and_its_upload_removed(app: Flask) -> None:
    client = app.test_client()
    token = login(client, "olga")
    job_id = _upload_topics(client, token)
    upload = _job(app, job_id).upload
    assert upload is not None and Path(upload, "topics.xml").is_file()
    page = client.get(f"/organiser/import/jobs/{job_id}").get_data(as_text=True)
    assert "Cancel" in page and "Retry" not in page
    answer = client.post(
        f"/organiser/import/jobs/{job_id}/cancel",
        data={"csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert 'data-status="cancelled"' in answer.get_data(as_text=True)
    assert not Path(upload).exists()
    task_id = _job(app, job_id).task_id
    assert task_id and queue_of(app, inline=False).huey.is_revoked(task_id)
    refused = client.post(
        f"/organiser/import/jobs/{job_id}/retry",
        data={"csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 409
    assert "only an interrupted job can be retried" in refused.get_data(as_text=True)


def test_an_interrupted_job_is_retried_to_the_end(app: Flask) -> None:
    client = app.test_client()
    token = login(client, "olga")
    job_id = _upload_topics(client, token)
    with db.session_factory(app)() as session:  # as a worker that died while running it
        job = session.get_one(ImportJob, job_id)
        job.status, job.worker = "running", f"{socket.gethostname()}:999999999"
        session.commit()
    page = client.get(f"/organiser/import/jobs/{job_id}").get_data(as_text=True)
    assert 'data-status="interrupted"' in page and "Retry" in page
    answer = client.post(
        f"/organiser/import/jobs/{job_id}/retry",
        data={"csrf_token": token},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200 and 'data-status="queued"' in answer.get_data(as_text=True)
    queue_of(app, inline=True)  # a worker comes up
    job = wait_until(
        lambda: (j := _job(app, job_id)).status not in ("queued", "running") and j,
        60,
        "the retried job to end",
    )
    assert (job.status, job.message) == ("done", "Imported 5 topics.")


def test_with_redis_unreachable_log_in_works_and_an_import_fails_saying_why(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    app = make_test_app(
        tmp_path, template=migrated_sqlite, config={"REDIS_URL": "redis://127.0.0.1:1/0"}
    )
    with db.session_scope(app) as session:
        add_user(session, "olga", "organiser", PASSWORD)
    client = app.test_client()
    token = login(client, "olga")  # the limiter falls back to this process's memory
    answer = client.post(
        "/organiser/import/topics",
        data={
            "csrf_token": token,
            "files": [(io.BytesIO((DEMO / "topics.xml").read_bytes()), "topics.xml")],
        },
        headers={"HX-Request": "true"},
        content_type="multipart/form-data",
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'data-status="failed"' in html, html
    assert "The task queue could not take the import (ConnectionError" in html
    assert not any((Path(app.instance_path) / "data").rglob("*.xml"))  # its upload removed
    queue_of(app, inline=False).stop_inline()
    db.engine_of(app).dispose()
