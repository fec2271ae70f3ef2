"""The task queue of long jobs (imports): huey, on SQLite by default, on Redis when configured.

No Flask. huey keeps the queue in a SQLite file of the instance folder (`queue.sqlite`), or in
Redis when a URL is given (`FOCAL_REDIS_URL`), so that any process may enqueue and any worker
process may run: a web worker's own threads (`start_inline`, the default, right for one
machine) or a separate `focal worker` (the deployment's queue service, `deploy/`). The queue's
name is derived from the database URL, so that campaigns sharing a Redis server, or test
databases sharing an instance folder, never run each other's jobs.

A task carries only the job's id and the queue's name; the worker looks the job's request up
in the database (`import_jobs.run_requested`) through the session factory bound to that name
in its own process (`bind`). Retry, cancel, the time limit and cleaning up uploads are the
job's lifecycle, in `import_jobs`.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey, crontab
from sqlalchemy.orm import Session, sessionmaker

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.import_jobs import cleanup_uploads, run_requested
from focal.assessor.campaign.setup.jobs.liveness import mark_interrupted

log = logging.getLogger("focal.assessor.campaign.setup.job_queue")

IDLE_WAIT = 0.2  # seconds an inline worker waits before asking an empty queue again
ERROR_WAIT = 5.0  # seconds it waits after the queue's storage failed to answer
IDLE_EXIT = 30.0  # seconds without a job after which an inline worker ends (restarted on use)


@dataclass
class Binding:
    """What a worker of this process needs to run a queue's jobs."""

    factory: sessionmaker[Session]
    data_dir: Path
    time_limit: float | None


_BOUND: dict[str, Binding] = {}


def queue_name(database_url: str) -> str:
    """The queue of one database: `focal-` and a digest of its URL."""
    return "focal-" + hashlib.sha256(database_url.encode("utf-8")).hexdigest()[:16]


def _run_import(name: str, job_id: int) -> None:
    binding = _BOUND.get(name)
    if binding is None:
        raise CampaignError(f"this worker serves no queue {name}: run `focal worker` for it")
    run_requested(binding.factory, job_id, binding.time_limit)


def _cleanup(name: str) -> None:
    binding = _BOUND.get(name)
    if binding is not None:
        with binding.factory() as session:
            mark_interrupted(session)
            removed = cleanup_uploads(session, binding.data_dir)
        if removed:
            log.info("removed %d upload folder(s) no job needs", len(removed))


@dataclass
class JobQueue:
    """One database's queue: where tasks wait, and the tasks a worker of it runs."""

    huey: Huey
    name: str
    _import: Any = field(repr=False)
    _inline: list[threading.Thread] = field(default_factory=list, repr=False)
    _inline_pid: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)

    def submit(self, job_id: int) -> str:
        """Put job `job_id` on the queue; huey's task id (to revoke it while it waits)."""
        task = self._import.s(self.name, job_id)
        self.huey.enqueue(task)
        return str(task.id)

    def revoke(self, task_id: str) -> None:
        """Drop a task that has not started yet."""
        self.huey.revoke_by_id(task_id, revoke_once=True)

    def bind(
        self, factory: sessionmaker[Session], data_dir: Path, time_limit: float | None
    ) -> None:
        """Let this process's workers run this queue's jobs on `factory`'s database."""
        _BOUND[self.name] = Binding(factory, data_dir, time_limit)

    def start_inline(self, threads: int = 1) -> None:
        """Run this queue's jobs in threads of this process, after marking the jobs of dead
        processes. The threads end after `IDLE_EXIT` seconds without a job; this starts them
        again (and a forked gunicorn worker starts its own)."""
        with self._lock:
            alive = [t for t in self._inline if t.is_alive()]
            if self._inline_pid == os.getpid() and alive:
                return
            self._inline_pid, self._inline = os.getpid(), []
            self._start_threads(threads)

    def _start_threads(self, threads: int) -> None:
        _cleanup(self.name)
        for number in range(threads):
            thread = threading.Thread(
                target=self._consume, name=f"focal-jobs-{number}", daemon=True
            )
            thread.start()
            self._inline.append(thread)

    def stop_inline(self) -> None:
        """Stop this process's worker threads once their current job has ended."""
        self._stop.set()
        for thread in self._inline:
            thread.join()
        self._stop.clear()

    def _consume(self) -> None:
        idle_since = time.monotonic()
        while time.monotonic() - idle_since < IDLE_EXIT and not self._stop.is_set():
            try:
                task = self.huey.dequeue()
            except Exception as error:  # the storage is busy or gone for a moment: ask again
                log.warning("reading the job queue %s failed: %s", self.name, error)
                self._stop.wait(ERROR_WAIT)
                continue
            if task is None:
                self._stop.wait(IDLE_WAIT)
                continue
            self.huey.execute(task)
            idle_since = time.monotonic()

    def run_worker(self, threads: int) -> None:
        """Consume until stopped (Ctrl+C or SIGTERM): `focal worker`, huey's own consumer,
        with its scheduler running the periodic cleanup."""
        _cleanup(self.name)
        self.huey.create_consumer(workers=threads, worker_type="thread", periodic=True).run()


def open_queue(database_url: str, instance: Path, redis_url: str | None = None) -> JobQueue:
    """The queue of the database `database_url`: in Redis at `redis_url`, else in
    `instance/queue.sqlite`. A Redis URL without the redis client is one line."""
    name = queue_name(database_url)
    huey: Huey
    if redis_url:
        try:
            import redis  # noqa: F401  # the client RedisHuey needs
        except ModuleNotFoundError:
            raise CampaignError(
                "FOCAL_REDIS_URL is set but the redis client is not installed: "
                "pip install 'focal[redis]'"
            ) from None
        huey = RedisHuey(name, url=redis_url, results=False)
    else:
        instance.mkdir(parents=True, exist_ok=True)
        huey = SqliteHuey(name, filename=str(instance / "queue.sqlite"), results=False)
    task = huey.task(name="import")(_run_import)
    huey.periodic_task(crontab(minute="*/15"), name="cleanup")(lambda: _cleanup(name))
    return JobQueue(huey, name, task)
