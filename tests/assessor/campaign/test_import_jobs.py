"""Import jobs: progress written while files are read, the result or the error at the end."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from assessor.campaign.setup.import_jobs import READING, STORING, run_job
from assessor.campaign.setup.importing import Progress
from assessor.store import db
from assessor.store.models import ImportJob, Topic
from evaluation.errors import FormatError



def job_row(app: Flask, job_id: int) -> ImportJob:
    with db.session_factory(app)() as session:
        return session.get_one(ImportJob, job_id)


def new_job(app: Flask) -> int:
    with db.session_factory(app)() as session:
        job = ImportJob(kind="topics", status="queued", stage="")
        session.add(job)
        session.commit()
        return job.id


def test_progress_is_visible_while_the_import_reads_then_its_message(any_app: Flask) -> None:
    app = any_app  # SQLite and PostgreSQL: progress commits while the import has not written
    job_id = new_job(app)
    seen = []

    def work(session: Session, progress: Progress) -> str:
        progress(1, 3)
        row = job_row(app, job_id)  # another session, as a poll from another worker
        seen.append((row.status, row.stage, row.done, row.total))
        progress(3, 3)
        seen.append((job_row(app, job_id).stage,))
        session.add(Topic(id="7", title="t"))
        session.commit()
        return "Imported 1 topics."

    run_job(db.session_factory(app), job_id, work)
    assert seen == [("running", READING, 1, 3), (STORING,)]
    row = job_row(app, job_id)
    assert (row.status, row.message, row.finished_at is not None) == (
        "done",
        "Imported 1 topics.",
        True,
    )


def test_a_failed_import_is_the_job_message_and_writes_nothing(app: Flask) -> None:
    job_id = new_job(app)

    def work(session: Session, progress: Progress) -> str:
        session.add(Topic(id="7", title="t"))
        session.flush()
        raise FormatError("topics.xml", 4, "expected <topic>")

    run_job(db.session_factory(app), job_id, work)
    row = job_row(app, job_id)
    assert (row.status, row.message) == ("failed", "topics.xml:4: expected <topic>")
    with db.session_factory(app)() as session:
        assert list(session.scalars(select(Topic))) == []


def test_an_unexpected_error_is_reported_too(app: Flask) -> None:
    def work(session: Session, progress: Progress) -> str:
        raise RuntimeError("disk on fire")

    job_id = new_job(app)
    run_job(db.session_factory(app), job_id, work)
    row = job_row(app, job_id)
    assert row.status == "failed" and "RuntimeError: disk on fire" in row.message
