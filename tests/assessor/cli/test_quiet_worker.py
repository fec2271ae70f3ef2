"""`focal worker` logs the queue's lines at INFO, not alembic's plugin and migration lines."""

from __future__ import annotations

import logging
from typing import Any

import pytest


def test_the_worker_leaves_alembics_info_lines_out(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from focal.assessor.campaign.setup.job_queue import JobQueue

    cli("init-db")
    ran: list[int] = []
    monkeypatch.setattr(JobQueue, "run_worker", lambda self, threads: ran.append(threads))
    alembic = logging.getLogger("alembic")
    before = alembic.level
    alembic.setLevel(logging.NOTSET)  # as a fresh process has it: the root's INFO
    try:
        result = cli("worker")
        assert ran == [1] and "running the jobs of queue" in result.stdout
        assert alembic.level == logging.WARNING  # its INFO lines left out, its warnings kept
    finally:
        alembic.setLevel(before)
