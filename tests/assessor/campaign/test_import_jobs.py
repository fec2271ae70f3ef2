"""Import jobs: progress written while files are read, the result or the error at the end."""

from __future__ import annotations

import io
import os
import time
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.archives import unpack_archive
from focal.assessor.campaign.setup.import_jobs import (
    READING,
    STORING,
    cancel_job,
    cleanup_uploads,
    create_job,
    retry_job,
    run_job,
    run_requested,
)
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.campaign.setup.importing import Progress
from focal.assessor.campaign.setup.upload_imports import LIMITS, Received, receive
from focal.assessor.store import db
from focal.assessor.store.models import ImportJob, Topic
from focal.evaluation.errors import FormatError

from ...conftest import DEMO


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


def upload_job(app: Flask, tmp_path: Path) -> tuple[int, Path]:
    """A queued job owning an upload folder with one topics file in it."""
    upload = tmp_path / "instance" / "data" / "uploads" / "topics" / "one"
    upload.mkdir(parents=True)
    (upload / "topics.xml").write_bytes((DEMO / "topics.xml").read_bytes())
    received = Received(upload, (upload / "topics.xml",))
    request = ImportRequest.uploaded("topics", received)
    return create_job(db.session_factory(app), request, None), upload


def test_a_cancel_asked_while_running_stops_at_the_next_step_and_removes_the_upload(
    app: Flask, tmp_path: Path
) -> None:
    job_id, upload = upload_job(app, tmp_path)

    def work(session: Session, progress: Progress) -> str:
        # The organiser's request, while the import reads files (and has written nothing: on
        # SQLite a cancel during the import's own writes waits for them).
        with db.session_factory(app)() as other:
            cancel_job(other, job_id)
        progress(1, 2)
        raise AssertionError("the progress write should have stopped the import")

    run_job(db.session_factory(app), job_id, work)
    row = job_row(app, job_id)
    assert (row.status, row.message) == (
        "cancelled",
        "Cancelled by the organiser; nothing was imported.",
    )
    assert not upload.exists()
    with db.session_factory(app)() as session:
        assert list(session.scalars(select(Topic))) == []


def test_a_job_past_its_time_limit_fails_saying_so(app: Flask, tmp_path: Path) -> None:
    job_id, upload = upload_job(app, tmp_path)
    # The job's own clock (not the time module's, which other threads read too): started; a
    # write at 0.2 s; the next at 60.5 s.
    ticks = iter([100.0, 100.2, 160.5])

    def work(session: Session, progress: Progress) -> str:
        progress(1, 3)  # within the limit: goes on
        progress(2, 3)  # 60.5 s after the start, over the 60 s limit
        raise AssertionError("the time limit should have stopped the import")

    run_job(db.session_factory(app), job_id, work, time_limit=60, clock=lambda: next(ticks))
    row = job_row(app, job_id)
    assert row.status == "failed"
    assert row.message.startswith("Stopped after the time limit of 60 s (FOCAL_JOB_TIME_LIMIT)")
    assert not upload.exists()


def test_a_queued_job_cancels_at_once_and_only_an_interrupted_one_is_retried(
    app: Flask, tmp_path: Path
) -> None:
    job_id, upload = upload_job(app, tmp_path)
    with db.session_factory(app)() as session:
        with pytest.raises(CampaignError, match="only an interrupted job can be retried"):
            retry_job(session, job_id)
        job, ended = cancel_job(session, job_id)
        assert (job.status, ended) == ("cancelled", True)
        with pytest.raises(CampaignError, match="has already ended"):
            cancel_job(session, job_id)
    assert not upload.exists()
    run_job(db.session_factory(app), job_id, lambda s, p: "never run")
    assert job_row(app, job_id).status == "cancelled"  # a revoked task that ran anyway


def test_cleanup_removes_only_folders_nothing_needs(app: Flask, tmp_path: Path) -> None:
    data = tmp_path / "instance" / "data"
    _, kept = upload_job(app, tmp_path)  # queued: its files are still to be read
    orphan = data / "uploads" / "runs" / "orphan"
    young = data / "uploads" / "runs" / "young"
    for folder in (orphan, young):
        folder.mkdir(parents=True)
    old = time.time() - 2 * 3600
    os.utime(orphan, (old, old))
    with db.session_factory(app)() as session:
        assert cleanup_uploads(session, data) == [orphan]
    assert kept.is_dir() and young.is_dir() and not orphan.exists()


def _zipped_collection(folder: Path, names: list[str]) -> Received:
    """Three demo articles uploaded as `three.zip`, kept as `receive` keeps an archive."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, (DEMO / "collection" / name).read_bytes())
    buffer.seek(0)
    return receive(folder, "collection", [("three.zip", buffer)])


@pytest.mark.parametrize("unpacked", [True, False])
def test_a_retried_archive_import_goes_on_from_what_the_interruption_left(
    app: Flask, tmp_path: Path, unpacked: bool
) -> None:
    names = ["1001.xml", "1002.xml", "1003.xml"]
    received = _zipped_collection(tmp_path / "data", names)
    (archive,) = received.files
    if unpacked:  # interrupted after unpacking: the archive was removed, its files are there
        unpack_archive(archive, "three.zip", received.directory, LIMITS)
        archive.unlink()
    else:  # interrupted while unpacking: one file of the three
        (received.directory / "1001.xml").write_bytes(b"<article><p>half")
    request = ImportRequest.uploaded("collection", received)
    job_id = create_job(db.session_factory(app), request, None)
    run_requested(db.session_factory(app), job_id)
    row = job_row(app, job_id)
    assert (row.status, row.message) == (
        "done",
        "Imported 3 documents into the collection three.",
    )
    assert sorted(p.name for p in received.directory.iterdir()) == names
