"""Imports run in the background of a server process, their progress kept in `import_jobs`.

No Flask. A large collection takes minutes to read, longer than a request should wait: the
Import page starts a job (a thread of the process that received the upload) and polls the
job's row every second, from whichever process answers (several gunicorn workers share only
the database). The import itself runs in one transaction of its own session, as `focal
import` does; progress is written in separate short transactions, and only while the import is
still reading files (`importing.Progress`): on SQLite a progress write during the import's own
writes would wait for it. A job whose process stopped stays `running`; `updated_at` shows how
long it has been silent.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from assessor.campaign.errors import CampaignError
from assessor.campaign.setup.importing import Progress
from assessor.store.models import ImportJob, utcnow
from evaluation.errors import FormatError

log = logging.getLogger("assessor.campaign.setup.import_jobs")

Work = Callable[[Session, Progress], str]
"""An import: given its session and a progress callback, imports, commits, says what it did."""

PROGRESS_INTERVAL = 0.5  # seconds between two progress writes
READING, STORING = "reading files", "storing in the database"


def start_job(factory: sessionmaker[Session], kind: str, user_id: int | None, work: Work) -> int:
    """Record a running job and start `work` in a thread of this process; the job's id."""
    with factory() as session:
        job = ImportJob(kind=kind, status="running", stage="starting", user_id=user_id)
        session.add(job)
        session.commit()
        job_id = job.id
    thread = threading.Thread(
        target=run_job, args=(factory, job_id, work), name=f"focal-import-{job_id}", daemon=True
    )
    thread.start()
    return job_id


def _update(factory: sessionmaker[Session], job_id: int, **values: object) -> None:
    with factory() as session:
        job = session.get_one(ImportJob, job_id)
        for key, value in values.items():
            setattr(job, key, value)
        job.updated_at = utcnow()
        session.commit()


def describe(error: Exception) -> str:
    """The message shown for a failed import: the importer's own one line when it has one."""
    if isinstance(error, FormatError | CampaignError | LookupError | OSError):
        return str(error.args[0] if isinstance(error, KeyError) and error.args else error)
    return f"the import failed unexpectedly ({type(error).__name__}: {error})"


def run_job(factory: sessionmaker[Session], job_id: int, work: Work) -> None:
    """Run `work`, recording its progress, then its message and `done` or `failed`."""
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done >= total:
            _update(factory, job_id, stage=STORING, done=done, total=total)
        elif now - last >= PROGRESS_INTERVAL:
            _update(factory, job_id, stage=READING, done=done, total=total)
            last = now

    try:
        with factory() as session:
            message = work(session, progress)
    except Exception as error:  # every failure becomes the job's message
        if not isinstance(error, FormatError | CampaignError | LookupError | OSError):
            log.exception("import job %s failed", job_id)
        _update(factory, job_id, status="failed", message=describe(error), finished_at=utcnow())
        return
    _update(factory, job_id, status="done", stage="", message=message, finished_at=utcnow())


def find_job(session: Session, job_id: int) -> ImportJob | None:
    """The job `job_id` (None when there is none)."""
    return session.get(ImportJob, job_id)
