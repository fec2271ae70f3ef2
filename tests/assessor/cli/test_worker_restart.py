"""A job interrupted by a restart: `focal worker` killed while it imports, started again.

The job is an import of a generated collection of 2,000 small articles from a server path,
long enough (seconds of reading) for the test to see it running before the kill. The worker
restarted marks it `interrupted` (its process is gone), nothing of it was stored, and the
organiser's retry runs it to the end on the restarted worker.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from focal.assessor.campaign.setup.import_jobs import create_job, retry_job
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.store import db
from focal.assessor.store.models import Document, ImportJob
from focal.assessor.web.app import create_app
from focal.assessor.web.jobs import queue_of

from ...conftest import wait_until

ARTICLES = 2000


def _collection(folder: Path) -> Path:
    folder.mkdir()
    for number in range(ARTICLES):
        words = " ".join(f"word{(number * 7 + k) % 97}" for k in range(40))
        (folder / f"{5000 + number}.xml").write_text(
            f"<article><title>Article {number}</title><bdy><p>{words}</p></bdy></article>",
            encoding="utf-8",
        )
    return folder


@contextmanager
def _worker(env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    focal = Path(sys.executable).with_name("focal")
    process = subprocess.Popen(
        [str(focal), "worker"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=60)


def _row(app: Flask, job_id: int) -> ImportJob:
    with db.session_factory(app)() as session:
        return session.get_one(ImportJob, job_id)


@pytest.mark.slow
def test_a_job_interrupted_by_a_restart_is_shown_so_and_retried(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    database = tmp_path / "focal.sqlite"
    shutil.copyfile(migrated_sqlite, database)
    url = f"sqlite:///{database}"
    env = {
        **os.environ,
        "FOCAL_DATABASE_URL": url,
        "FOCAL_SECRET_KEY": "restart",
        "FOCAL_INSTANCE": str(tmp_path / "instance"),
        "FOCAL_JOB_WORKER": "external",
    }
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "restart", "JOB_WORKER": "external"})
    app.instance_path = env["FOCAL_INSTANCE"]
    queue = queue_of(app)  # external: this process only enqueues
    request = ImportRequest("collection", (str(_collection(tmp_path / "big")),), name="big")
    job_id = create_job(db.session_factory(app), request, None)
    queue.submit(job_id)

    with _worker(env) as first:
        row = wait_until(
            lambda: (r := _row(app, job_id)).status == "running" and 0 < r.done < ARTICLES and r,
            120,
            "the worker to be reading the collection",
        )
        assert row.worker is not None and row.worker.endswith(f":{first.pid}")
        os.killpg(first.pid, signal.SIGKILL)  # the machine restarts, say
        first.wait(timeout=30)
    assert _row(app, job_id).status == "running"  # nobody has looked yet

    with _worker(env) as second:
        row = wait_until(
            lambda: (r := _row(app, job_id)).status == "interrupted" and r,
            60,
            "the restarted worker to mark the job interrupted",
        )
        assert f"the process running it ({row.worker}) stopped" in row.message
        with db.session_factory(app)() as session:
            assert session.scalar(select(func.count()).select_from(Document)) == 0
            retry_job(session, job_id)
        queue.submit(job_id)
        row = wait_until(
            lambda: (r := _row(app, job_id)).status in ("done", "failed") and r,
            300,
            "the retried job to end",
        )
        assert (row.status, row.message, row.attempts) == (
            "done",
            f"Imported {ARTICLES} documents into the collection big.",
            2,
        )
        assert row.worker is not None and row.worker.endswith(f":{second.pid}")
    with db.session_factory(app)() as session:
        assert session.scalar(select(func.count()).select_from(Document)) == ARTICLES
    db.engine_of(app).dispose()
