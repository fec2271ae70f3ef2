"""The task queue on both storages: a job submitted is run by a worker thread of this process,
from the request kept in its row; two databases never share a queue."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from focal.assessor.campaign.setup.import_jobs import create_job
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.campaign.setup.job_queue import open_queue, queue_name
from focal.assessor.campaign.setup.uploads import data_directory
from focal.assessor.store import db
from focal.assessor.store.models import ImportJob

from ...conftest import DEMO, wait_until


@pytest.mark.parametrize("storage", ["sqlite", "redis"])
def test_a_submitted_job_runs_on_the_queue(
    app: Flask, tmp_path: Path, storage: str, request: pytest.FixtureRequest
) -> None:
    redis = request.getfixturevalue("redis_url") if storage == "redis" else None
    url = app.config["DATABASE_URL"]
    queue = open_queue(url, tmp_path / "queue", redis)
    factory = db.session_factory(app)
    queue.bind(factory, data_directory(app.instance_path), None)
    job_id = create_job(factory, ImportRequest("topics", (str(DEMO / "topics.xml"),)), None)
    queue.submit(job_id)
    queue.start_inline()

    def ended() -> ImportJob | None:
        with factory() as session:
            job = session.get_one(ImportJob, job_id)
            return job if job.status not in ("queued", "running") else None

    job = wait_until(ended, 60, "the queued job to end")
    queue.stop_inline()
    assert (job.status, job.message, job.attempts) == ("done", "Imported 5 topics.", 1)
    assert (tmp_path / "queue" / "queue.sqlite").exists() == (redis is None)


def test_each_database_has_a_queue_of_its_own() -> None:
    first, second = queue_name("sqlite:///a.sqlite"), queue_name("sqlite:///b.sqlite")
    assert first != second and first == queue_name("sqlite:///a.sqlite")
    assert first.startswith("focal-") and len(first) == len("focal-") + 16
