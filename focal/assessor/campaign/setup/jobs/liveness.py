"""How a running import job is kept honest: its heartbeat, the guard on its commit, and its
interruption when the worker running it is gone.

No Flask. A running job's worker proves it is alive with a heartbeat: every
`HEARTBEAT_INTERVAL` seconds a thread beside the import (`Heartbeat`) sets the row's
`updated_at` (progress writes do too). A job whose worker died stays `running` in its row;
`mark_interrupted` marks it `interrupted`, which the organiser may retry: at once when its
process (`worker`, `host:pid`) was on this host and is gone, and, whatever host ran it, once its
heartbeat is older than `HEARTBEAT_LIMIT` seconds (docs/deploy.md, "Services"). A worker of this
host that still runs is never interrupted: on SQLite its heartbeat waits while the import holds
the write lock, and SQLite serves one host.

The import ends with a last look inside its own transaction (`CommitGuard`): a cancel asked for
while it stored stops it before its commit, a job interrupted meanwhile keeps nothing, and a job
that commits is `STORED` in that same commit, a stage no cancel or interruption undoes (it is
`done` with the import's message a moment later; a worker that dies in between leaves it done).
Nothing is half-stored, and nothing is stored by a job shown as cancelled or interrupted.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from focal.assessor.store.models import ImportJob, utcnow

log = logging.getLogger("focal.assessor.campaign.setup.jobs.liveness")

HEARTBEAT_INTERVAL = 5.0  # seconds between two heartbeats of a running job
HEARTBEAT_LIMIT = 30.0  # seconds without a heartbeat after which a running job is interrupted
CANCELLED = "Cancelled by the organiser; nothing was imported."
STORED = "stored, finishing"  # the stage of a job whose import has committed


class JobStopped(Exception):
    """The job was cancelled or ran past its time limit: its status and message."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class Superseded(Exception):
    """The job is no longer this worker's (it was interrupted meanwhile): leave its row alone."""


def this_worker() -> str:
    """`host:pid` of this process, recorded in the rows of the jobs it runs."""
    return f"{socket.gethostname()}:{os.getpid()}"


class CommitGuard:
    """The last look before an import commits, in its transaction: a cancel asked for stops it
    (nothing is stored), and otherwise the job's stage becomes `STORED` in the same commit.

    The row is changed by one guarded UPDATE, which on PostgreSQL locks it until the commit (a
    cancel arriving meanwhile waits, then finds it stored) and on SQLite runs under the import's
    write lock."""

    def __init__(self, job_id: int, worker: str) -> None:
        self.job_id, self.worker, self.committed = job_id, worker, False

    def __call__(self, session: Session) -> None:
        if self.committed:
            return
        stored = session.execute(
            update(ImportJob)
            .where(
                ImportJob.id == self.job_id,
                ImportJob.status == "running",
                ImportJob.worker == self.worker,
                ImportJob.cancel_requested.is_(False),
            )
            .values(stage=STORED, updated_at=utcnow())
        )
        if stored.rowcount == 1:  # type: ignore[attr-defined]
            self.committed = True
            return
        job = session.execute(
            select(ImportJob.status, ImportJob.worker).where(ImportJob.id == self.job_id)
        ).one()
        if job.status == "running" and job.worker == self.worker:
            raise JobStopped("cancelled", CANCELLED)
        raise Superseded()


class Heartbeat:
    """A thread that sets a running job's `updated_at` every `HEARTBEAT_INTERVAL` seconds, for
    as long as the job is this worker's; a heartbeat that fails (the database busy or away) is
    logged and tried again at the next beat."""

    def __init__(self, factory: sessionmaker[Session], job_id: int, worker: str) -> None:
        self.factory, self.job_id, self.worker = factory, job_id, worker
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"focal-job-{job_id}", daemon=True)
        self.thread.start()

    def _beat(self) -> None:
        while not self.stopped.wait(HEARTBEAT_INTERVAL):
            try:
                with self.factory() as session:
                    session.execute(
                        update(ImportJob)
                        .where(
                            ImportJob.id == self.job_id,
                            ImportJob.status == "running",
                            ImportJob.worker == self.worker,
                        )
                        .values(updated_at=utcnow())
                    )
                    session.commit()
            except Exception as error:  # the next beat tries again
                log.warning("heartbeat of import job %s failed: %s", self.job_id, error)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


def alive_here(worker: str | None) -> bool | None:
    """Whether `host:pid` names a process of this host that runs (None: another host's, which
    cannot be asked from here)."""
    host, _, pid = (worker or "").rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def why_interrupted(worker: str | None, heartbeat: datetime, cutoff: datetime) -> str | None:
    alive = alive_here(worker)
    if alive is False:
        return f"the process running it ({worker}) stopped, by a restart or a crash"
    if alive is None and heartbeat < cutoff:
        return (
            f"the process running it ({worker}) has not been heard from for over "
            f"{HEARTBEAT_LIMIT:g} s (stopped, crashed or cut off)"
        )
    return None


def mark_interrupted(session: Session) -> list[int]:
    """Mark `interrupted` the running jobs whose process has died on this host or, on any
    host, whose heartbeat is older than `HEARTBEAT_LIMIT`; their ids (committed). A job whose
    import had committed (`STORED`) is marked done instead: its data is there."""
    cutoff = utcnow() - timedelta(seconds=HEARTBEAT_LIMIT)
    running = session.execute(
        select(ImportJob.id, ImportJob.worker, ImportJob.updated_at, ImportJob.stage).where(
            ImportJob.status == "running"
        )
    ).all()
    marked = []
    for job_id, worker, heartbeat, stage in running:
        why = why_interrupted(worker, heartbeat, cutoff)
        if why is None:
            continue
        now = utcnow()
        ended = {
            "status": "interrupted",
            "message": f"Interrupted: {why}; nothing was imported. Retry it, or cancel it.",
        }
        if stage == STORED:
            ended = {"status": "done", "message": f"Imported; then {why} before saying what."}
        # Guarded: a job that ended, or beat again, since it was read is left as it is.
        changed = session.execute(
            update(ImportJob)
            .where(
                ImportJob.id == job_id,
                ImportJob.status == "running",
                ImportJob.worker == worker,
                ImportJob.updated_at == heartbeat,
            )
            .values(finished_at=now, updated_at=now, stage="", **ended)
        )
        if changed.rowcount == 1 and stage != STORED:  # type: ignore[attr-defined]
            marked.append(job_id)
    if marked:
        session.commit()
        session.expire_all()
    return marked
