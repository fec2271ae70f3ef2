"""The task queue of an app (`campaign.setup.job_queue`), opened from its configuration once.

Config keys, filled from the settings of the same names (`focal.settings`, which holds their
forms and defaults): `REDIS_URL` (the queue, and the rate limits, in Redis; default: the queue in
the instance folder's `queue.sqlite`), `JOB_WORKER` (`inline`: each server process runs jobs in
threads of its own, started with its first job; `external`: a separate `focal worker` runs
them, as the deployment's queue service does), `JOB_THREADS` and `JOB_TIME_LIMIT` (seconds an
import may read files; 0 for none).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from focal import settings
from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.job_queue import JobQueue, open_queue
from focal.assessor.campaign.setup.uploads import data_directory
from focal.assessor.store import db

if TYPE_CHECKING:
    from flask import Flask

EXTENSION = "focal_jobs"
WORKERS = settings.JOB_WORKERS


def init_app(app: Flask) -> None:
    """Check the queue settings of `app` (the queue itself opens on first use)."""
    if app.config["JOB_WORKER"] not in WORKERS:
        raise CampaignError(
            f"FOCAL_JOB_WORKER={app.config['JOB_WORKER']!r}: expected one of {', '.join(WORKERS)}"
        )


def queue_of(app: Flask, inline: bool | None = None) -> JobQueue:
    """The app's queue, bound to its database; with `inline` (default: `JOB_WORKER` says)
    this process's worker threads are running."""
    queue: JobQueue | None = app.extensions.get(EXTENSION)
    if queue is None:
        queue = open_queue(
            app.config["DATABASE_URL"], Path(app.instance_path), app.config["REDIS_URL"] or None
        )
        limit = float(app.config["JOB_TIME_LIMIT"] or 0) or None
        queue.bind(db.session_factory(app), data_directory(app.instance_path), limit)
        app.extensions[EXTENSION] = queue
    if inline if inline is not None else app.config["JOB_WORKER"] == "inline":
        queue.start_inline(int(app.config["JOB_THREADS"]))
    return queue
