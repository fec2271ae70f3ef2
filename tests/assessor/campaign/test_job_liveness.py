"""Running import jobs kept honest (`campaign.setup.jobs.liveness`), on SQLite and PostgreSQL: a
job whose worker vanished on another host is interrupted once its heartbeat is older than the
limit, and can be retried; a live worker's heartbeat keeps its job running; a cancel asked
while the import stores is honoured in its transaction; a job interrupted meanwhile keeps
nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.import_jobs import (
    STORING,
    cancel_job,
    create_job,
    find_job,
    retry_job,
    run_job,
    run_requested,
)
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.campaign.setup.importing import Progress
from focal.assessor.campaign.setup.jobs import liveness
from focal.assessor.campaign.setup.upload_imports import Received
from focal.assessor.store import db
from focal.assessor.store.models import ImportJob, Topic

from ...conftest import DEMO, wait_until

LIMIT = 2.0  # seconds: the heartbeat limit of these tests (the default is liveness's)
INTERVAL = 0.2  # seconds between two heartbeats in these tests

# A worker on "another host": its hostname is not this one's, it beats every INTERVAL seconds
# while its import reads files, and it is killed without any cleanup (SIGKILL).
OTHER_HOST = """
import socket, sys, threading
from sqlalchemy.orm import sessionmaker
from focal.assessor.campaign.setup import import_jobs
from focal.assessor.campaign.setup.jobs import liveness
from focal.assessor.store import db

socket.gethostname = lambda: "another-host.example"
liveness.HEARTBEAT_INTERVAL = float(sys.argv[3])
factory = sessionmaker(bind=db.make_engine(sys.argv[1]), expire_on_commit=False)

def work(session, progress):
    progress(1, 10)
    threading.Event().wait()  # reads for ever, until killed

import_jobs.run_job(factory, int(sys.argv[2]), work)
"""


@pytest.fixture
def short_heartbeats(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(liveness, "HEARTBEAT_LIMIT", LIMIT)
    monkeypatch.setattr(liveness, "HEARTBEAT_INTERVAL", INTERVAL)
    yield


def topics_job(app: Flask, tmp_path: Path) -> int:
    """A queued job importing the demo's topics from an upload folder of its own."""
    upload = tmp_path / "instance" / "data" / "uploads" / "topics" / "one"
    upload.mkdir(parents=True)
    (upload / "topics.xml").write_bytes((DEMO / "topics.xml").read_bytes())
    request = ImportRequest.uploaded("topics", Received(upload, (upload / "topics.xml",)))
    return create_job(db.session_factory(app), request, None)


def job_row(app: Flask, job_id: int) -> ImportJob:
    with db.session_factory(app)() as session:
        return session.get_one(ImportJob, job_id)


def topic_count(app: Flask) -> int:
    with db.session_factory(app)() as session:
        return len(session.scalars(select(Topic)).all())


def test_a_job_whose_worker_vanished_on_another_host_is_interrupted_then_retried(
    any_app: Flask, tmp_path: Path, short_heartbeats: None
) -> None:
    app = any_app
    job_id = topics_job(app, tmp_path)
    worker = subprocess.Popen(
        [sys.executable, "-c", OTHER_HOST, app.config["DATABASE_URL"], str(job_id), str(INTERVAL)],
        stderr=subprocess.PIPE,
    )
    try:
        first = wait_until(
            lambda: (row := job_row(app, job_id)).status == "running" and row.done == 1 and row,
            what="the other host's worker to start reading",
        )
        assert first.worker is not None and first.worker.startswith("another-host.example:")
        # Its heartbeat goes on while it reads, and keeps it running past the limit.
        wait_until(
            lambda: (job_row(app, job_id).updated_at - first.updated_at).total_seconds() > LIMIT,
            what="heartbeats beyond the limit",
        )
        with db.session_factory(app)() as session:
            found = find_job(session, job_id)
            assert found is not None and found.status == "running"
    finally:
        os.kill(worker.pid, signal.SIGKILL)  # no cleanup: as a host cut off or powered down
        worker.communicate(timeout=30)
    last_beat = job_row(app, job_id).updated_at

    def interrupted() -> ImportJob | None:
        with db.session_factory(app)() as session:
            found = find_job(session, job_id)  # what the Import page's poll does
            return found if found is not None and found.status == "interrupted" else None

    job = wait_until(interrupted, timeout=LIMIT + 30, what="the job to be interrupted")
    assert job.finished_at is not None
    silent = (job.finished_at - last_beat).total_seconds()
    assert LIMIT <= silent < LIMIT + 10  # not before the limit, and soon after (polls of 50 ms)
    assert "not been heard from" in job.message and "another-host.example" in job.message
    with db.session_factory(app)() as session:
        assert retry_job(session, job_id).status == "queued"
    run_requested(db.session_factory(app), job_id)
    row = job_row(app, job_id)
    assert (row.status, row.attempts) == ("done", 2)
    assert topic_count(app) > 0


def test_a_live_worker_on_another_host_is_never_interrupted(
    any_app: Flask, tmp_path: Path, short_heartbeats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the heartbeat tells whether another host's worker runs: while it beats, polls past
    the limit leave its job running."""
    app = any_app
    monkeypatch.setattr(liveness, "alive_here", lambda worker: None)  # as if on another host
    job_id = topics_job(app, tmp_path)
    release, polled = threading.Event(), []

    def work(session: Session, progress: Progress) -> str:
        progress(1, 2)
        release.wait(timeout=120)
        session.add(Topic(id="7", title="t"))
        session.commit()
        return "Imported 1 topics."

    runner = threading.Thread(target=run_job, args=(db.session_factory(app), job_id, work))
    runner.start()
    try:
        first = wait_until(lambda: (r := job_row(app, job_id)).done == 1 and r, what="reading")

        def beaten_past_the_limit() -> bool:
            with db.session_factory(app)() as session:
                found = find_job(session, job_id)
            assert found is not None and found.status == "running"
            polled.append(found.updated_at)
            return (found.updated_at - first.updated_at).total_seconds() > 2 * LIMIT

        wait_until(beaten_past_the_limit, what="heartbeats past twice the limit")
    finally:
        release.set()
        runner.join(timeout=120)
    assert len(set(polled)) > 2  # the heartbeat moved between polls
    assert job_row(app, job_id).status == "done" and topic_count(app) == 1


def test_a_cancel_asked_while_storing_leaves_nothing_stored(any_app: Flask, tmp_path: Path) -> None:
    app = any_app
    job_id = topics_job(app, tmp_path)
    upload = Path(job_row(app, job_id).upload or "")
    answers = []

    def cancel() -> None:
        with db.session_factory(app)() as other:  # another request, from another thread
            job, ended = cancel_job(other, job_id)
            answers.append((job.status, ended))

    def work(session: Session, progress: Progress) -> str:
        progress(2, 2)  # every file read: the page shows "storing in the database"
        assert job_row(app, job_id).stage == STORING
        session.add(Topic(id="7", title="t"))
        if session.get_bind().dialect.name == "postgresql":
            session.flush()  # the import's rows are written; its job row is not locked yet
        canceller = threading.Thread(target=cancel)  # SQLite: before the write lock is taken
        canceller.start()
        canceller.join(timeout=60)
        session.commit()
        return "Imported 1 topics."

    run_job(db.session_factory(app), job_id, work)
    assert answers == [("running", False)]
    row = job_row(app, job_id)
    assert (row.status, row.message) == ("cancelled", liveness.CANCELLED)
    assert topic_count(app) == 0 and not upload.exists()


def test_a_cancel_after_the_commit_is_refused_the_job_being_done(
    any_app: Flask, tmp_path: Path
) -> None:
    app = any_app
    job_id = topics_job(app, tmp_path)
    run_requested(db.session_factory(app), job_id)
    with (
        db.session_factory(app)() as session,
        pytest.raises(CampaignError, match=r"already ended \(done\)"),
    ):
        cancel_job(session, job_id)
    assert job_row(app, job_id).cancel_requested is False


def test_a_job_interrupted_while_it_still_ran_keeps_nothing(any_app: Flask, tmp_path: Path) -> None:
    """A worker cut off from the database long enough is interrupted by another process; when
    it comes back and commits, its commit stores nothing and the job stays to retry."""
    app = any_app
    job_id = topics_job(app, tmp_path)

    def work(session: Session, progress: Progress) -> str:
        with db.session_factory(app)() as other:  # what another host's mark_interrupted does
            other.execute(update(ImportJob).values(status="interrupted"))
            other.commit()
        session.add(Topic(id="7", title="t"))
        session.commit()
        return "Imported 1 topics."

    run_job(db.session_factory(app), job_id, work)
    row = job_row(app, job_id)
    assert row.status == "interrupted" and topic_count(app) == 0
    assert Path(row.upload or "").is_dir()  # kept for the retry


def test_once_stored_a_job_can_be_neither_cancelled_nor_interrupted(
    any_app: Flask, tmp_path: Path, short_heartbeats: None
) -> None:
    """Between the import's commit and its message the job is `STORED`: a cancel then is
    refused as too late, and a worker dying then leaves the job done (its data is there)."""
    app = any_app
    job_id = topics_job(app, tmp_path)
    refusals = []

    def work(session: Session, progress: Progress) -> str:
        session.add(Topic(id="7", title="t"))
        session.commit()
        assert job_row(app, job_id).stage == liveness.STORED
        with db.session_factory(app)() as other:
            try:
                cancel_job(other, job_id)
            except CampaignError as error:
                refusals.append(str(error))
        return "Imported 1 topics."

    run_job(db.session_factory(app), job_id, work)
    assert refusals == [f"import job {job_id} has stored everything and is ending"]
    row = job_row(app, job_id)
    assert (row.status, row.message, topic_count(app)) == ("done", "Imported 1 topics.", 1)

    with db.session_factory(app)() as session:  # a worker on another host died just then
        session.execute(
            update(ImportJob)
            .where(ImportJob.id == job_id)
            .values(status="running", stage=liveness.STORED, worker="another-host.example:7",
                    updated_at=row.updated_at - timedelta(seconds=10 * LIMIT))
        )  # fmt: skip
        session.commit()
        found = find_job(session, job_id)
        assert found is not None and found.status == "done"
        assert found.message.startswith("Imported; then the process running it")
