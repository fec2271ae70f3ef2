"""Import jobs: their rows in `import_jobs`, and how a job is run, stopped, retried, cleaned up.

No Flask. A large collection takes minutes to read, longer than a request should wait: the
Import page records a `queued` job and hands its id to the task queue
(`campaign.setup.job_queue`); a worker, in whichever process, runs it (`run_job`) and the page
polls the row every second, from whichever process answers. The import itself runs in one
transaction of its own session, as `focal import` does; progress is written in separate short
transactions, and only while the import is still reading files (`importing.Progress`): on
SQLite a progress write during the import's own writes would wait for it.

Each progress write also looks at the row: a cancel asked for by the organiser, or the time
limit passed, stops the import there (nothing is stored, the upload folder is removed). The
heartbeat of a running job, the last look before its commit and the interruption of a job whose
worker is gone are `jobs.liveness`.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session, sessionmaker

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.import_requests import ImportRequest, perform
from focal.assessor.campaign.setup.importing import Progress
from focal.assessor.campaign.setup.jobs.liveness import (
    CANCELLED,
    STORED,
    CommitGuard,
    Heartbeat,
    JobStopped,
    Superseded,
    mark_interrupted,
    this_worker,
)
from focal.assessor.store.db import out_of_space
from focal.assessor.store.models import Collection, ImportJob, utcnow
from focal.evaluation.errors import FormatError

log = logging.getLogger("focal.assessor.campaign.setup.import_jobs")

Work = Callable[[Session, Progress], str]
"""An import: given its session and a progress callback, imports, commits, says what it did."""

PROGRESS_INTERVAL = 0.5  # seconds between two progress writes
READING, STORING = "reading files", "storing in the database"
ACTIVE = ("queued", "running")
ENDED = ("done", "failed", "cancelled")
UPLOAD_GRACE = timedelta(hours=1)  # an upload folder no job owns is kept this long


def create_job(factory: sessionmaker[Session], request: ImportRequest, user_id: int | None) -> int:
    """Record a queued job for `request`; its id (the caller hands it to the queue)."""
    with factory() as session:
        job = ImportJob(
            kind=request.kind,
            status="queued",
            stage="waiting for a worker",
            user_id=user_id,
            request=request.to_json(),
            upload=request.upload,
        )
        session.add(job)
        session.commit()
        return job.id


def _update(factory: sessionmaker[Session], job_id: int, **values: object) -> ImportJob:
    with factory() as session:
        job = session.get_one(ImportJob, job_id)
        for key, value in values.items():
            setattr(job, key, value)
        job.updated_at = utcnow()
        session.commit()
        return job


def describe(error: Exception) -> str:
    """The message shown for a failed import: the importer's own one line when it has one,
    and a full disk said as such wherever it filled up (the files or the database)."""
    if out_of_space(error) and not isinstance(error, OSError):
        return (
            "no space left on device: the database could not store the import (nothing was "
            f"imported); free some space and retry ({str(getattr(error, 'orig', error))[:200]})"
        )
    if isinstance(error, FormatError | CampaignError | LookupError | OSError):
        return str(error.args[0] if isinstance(error, KeyError) and error.args else error)
    return f"the import failed unexpectedly ({type(error).__name__}: {error})"


def _claim(factory: sessionmaker[Session], job_id: int) -> bool:
    """Mark the job running in this process (False: it was cancelled or ended meanwhile)."""
    with factory() as session:
        job = session.get(ImportJob, job_id)
        if job is None or job.status not in ACTIVE or job.cancel_requested:
            return False
        job.status, job.stage, job.done, job.total = "running", "starting", 0, None
        job.worker, job.attempts, job.updated_at = this_worker(), job.attempts + 1, utcnow()
        session.commit()
        return True


def run_job(
    factory: sessionmaker[Session],
    job_id: int,
    work: Work,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Run `work` as job `job_id`: its progress, then its message and how it ended.

    `time_limit` (seconds, read on `clock`) stops an import still reading files after that long.
    """
    if not _claim(factory, job_id):
        return
    worker, started, last = this_worker(), clock(), 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = clock()
        if done < total and now - last < PROGRESS_INTERVAL:
            return
        last = now
        stage = STORING if done >= total else READING
        job = _update(factory, job_id, stage=stage, done=done, total=total)
        if job.cancel_requested:
            raise JobStopped("cancelled", CANCELLED)
        if time_limit is not None and now - started > time_limit:
            raise JobStopped(
                "failed",
                f"Stopped after the time limit of {time_limit:g} s (FOCAL_JOB_TIME_LIMIT); "
                "nothing was imported.",
            )

    heartbeat = Heartbeat(factory, job_id, worker)
    try:
        with factory() as session:
            guard = CommitGuard(job_id, worker)
            event.listen(session, "before_commit", guard)
            message = work(session, progress)
    except Superseded:
        log.warning("import job %s was interrupted while %s ran it: nothing kept", job_id, worker)
        return
    except JobStopped as stopped:
        end_job(factory, job_id, stopped.status, str(stopped))
        return
    except Exception as error:  # every failure becomes the job's message
        if not isinstance(error, FormatError | CampaignError | LookupError | OSError):
            log.exception("import job %s failed", job_id)
        end_job(factory, job_id, "failed", describe(error))
        return
    finally:
        heartbeat.stop()
    _update(factory, job_id, status="done", stage="", message=message, finished_at=utcnow())


def end_job(factory: sessionmaker[Session], job_id: int, status: str, message: str) -> None:
    """End the job as `status` and remove the upload folder it owned (nothing was kept)."""
    job = _update(factory, job_id, status=status, stage="", message=message, finished_at=utcnow())
    if job.upload:
        shutil.rmtree(job.upload, ignore_errors=True)


def run_requested(
    factory: sessionmaker[Session], job_id: int, time_limit: float | None = None
) -> None:
    """Run job `job_id` from the request kept in its row (what the queue's task does)."""
    with factory() as session:
        job = session.get(ImportJob, job_id)
        text = job.request if job is not None else None
    if text is None:
        log.warning("import job %s has no request to run", job_id)
        return
    request = ImportRequest.from_json(text)
    run_job(factory, job_id, lambda s, p: perform(s, request, p), time_limit)


def find_job(session: Session, job_id: int) -> ImportJob | None:
    """The job `job_id` (None when there is none); a job whose process died is `interrupted`."""
    mark_interrupted(session)
    return session.get(ImportJob, job_id)


def cancel_job(session: Session, job_id: int) -> tuple[ImportJob, bool]:
    """Cancel a job: at once when it waits or was interrupted (a running job that lost its
    heartbeat is interrupted first), at its next progress write or before its commit when it
    runs. The job, and whether it ended now (its task may then be revoked)."""
    mark_interrupted(session)
    job = session.get(ImportJob, job_id, populate_existing=True)
    if job is None:
        raise CampaignError(f"no import job {job_id}")
    if job.status == "running":
        # Guarded: an import that has committed meanwhile is stored, and the cancel too late.
        asked = session.execute(
            update(ImportJob)
            .where(ImportJob.id == job_id, ImportJob.status == "running", ImportJob.stage != STORED)
            .values(cancel_requested=True)
        )
        session.commit()
        session.refresh(job)
        if asked.rowcount == 1:  # type: ignore[attr-defined]
            return job, False
        if job.status == "running":
            raise CampaignError(f"import job {job_id} has stored everything and is ending")
    if job.status in ENDED:
        raise CampaignError(f"import job {job_id} has already ended ({job.status})")
    job.status, job.stage, job.finished_at = "cancelled", "", utcnow()
    job.message = CANCELLED
    session.commit()
    if job.upload:
        shutil.rmtree(job.upload, ignore_errors=True)
    return job, True


def retry_job(session: Session, job_id: int) -> ImportJob:
    """Queue an interrupted job again (the caller hands it to the queue once more); a running
    job that lost its heartbeat is interrupted first."""
    mark_interrupted(session)
    job = session.get(ImportJob, job_id, populate_existing=True)
    if job is None:
        raise CampaignError(f"no import job {job_id}")
    if job.status != "interrupted":
        raise CampaignError(f"only an interrupted job can be retried; job {job_id} is {job.status}")
    if job.upload and not Path(job.upload).is_dir():
        raise CampaignError(f"the uploaded files of job {job_id} are gone: upload them again")
    job.status, job.stage, job.message = "queued", "waiting for a worker", ""
    job.done, job.total, job.finished_at, job.cancel_requested = 0, None, None, False
    session.commit()
    return job


def cleanup_uploads(session: Session, data_dir: Path) -> list[Path]:
    """Remove the upload folders that nothing needs any more; the folders removed.

    Removed: the folders of failed and cancelled jobs (normally gone already; a crash can leave
    them) and folders no job owns, once older than `UPLOAD_GRACE` (a request may be about to
    create its job). Kept: the folders of queued, running, interrupted and done jobs (imported
    documents and runs are read from their files) and any a collection reads its articles from.
    """
    root = data_dir / "uploads"
    if not root.is_dir():
        return []
    owners = {
        Path(upload).resolve(): status
        for upload, status in session.execute(
            select(ImportJob.upload, ImportJob.status).where(ImportJob.upload.is_not(None))
        )
        if upload
    }
    kept = {Path(d).resolve() for d in session.scalars(select(Collection.directory))}
    cutoff = time.time() - UPLOAD_GRACE.total_seconds()
    removed = []
    for folder in sorted(root.glob("*/*")):
        resolved = folder.resolve()
        status = owners.get(resolved)
        if not folder.is_dir() or resolved in kept:
            continue
        if status in ("failed", "cancelled") or (
            status is None and folder.stat().st_mtime < cutoff
        ):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed
