"""The log-in limits while their Redis is away, with a real `redis-server` stopped and started
again (empty, as after a restart without persistence): the switch to per-process counting is a
warning in the log and on the Users page while it lasts, the process still limits on its own,
and the counts made meanwhile are carried over when Redis answers again (docs/security.md)."""

from __future__ import annotations

import logging
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from focal.assessor.store import db
from focal.assessor.web import rate_limits

from ...conftest import REDIS_SERVER, wait_until
from ..conftest import csrf_of, login, make_test_app, seed

LIMIT = 5  # wrong attempts per name
NOTICE = "Log-in limits are counted by each server process on its own"


class Redis:
    """A throw-away `redis-server` on a fixed port, stopped and started again by the test."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.folder, self.process = folder, None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until(self._answers, what="redis-server to accept connections")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        wait_until(lambda: not self._answers(), what="redis-server to stop")


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    if not REDIS_SERVER.exists():
        pytest.skip(f"needs {REDIS_SERVER} (make system-packages installs it)")
    server = Redis(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def fresh_outage(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's fallback state, fresh for the test (it is per process)."""
    monkeypatch.setattr(rate_limits, "_OUTAGE", rate_limits._Outage())


def attempt(client: FlaskClient, password: str = "wrong") -> int:
    token = csrf_of(client)
    form = {"name": "alice", "password": password, "csrf_token": token}
    return client.post("/login", data=form).status_code


def test_the_fallback_is_said_limits_on_its_own_and_carries_its_counts_over(
    tmp_path: Path, migrated_sqlite: Path, redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_test_app(
        tmp_path,
        template=migrated_sqlite,
        config={"REDIS_URL": redis.url, "LOGIN_LIMIT_PER_NAME": f"{LIMIT} per 15 minutes"},
    )
    try:
        seed(app, tmp_path)
        organiser, guesser = app.test_client(), app.test_client()
        login(organiser, "olga")
        assert NOTICE not in organiser.get("/organiser/users").get_data(as_text=True)
        assert [attempt(guesser) for _ in range(2)] == [401, 401]  # counted in Redis

        redis.stop()
        with caplog.at_level(logging.WARNING, logger="focal.assessor.web.rate_limits"):
            statuses = [attempt(guesser) for _ in range(LIMIT + 1)]
        # Counted by this process from zero: the limit holds, on its own.
        assert statuses == [401] * LIMIT + [429]
        switches = [r for r in caplog.records if "counted by this process alone" in r.message]
        assert len(switches) == 1  # said once, at the switch
        page = organiser.get("/organiser/users").get_data(as_text=True)
        assert NOTICE in page and 'id="limits-notice"' in page

        redis.start()  # empty: nothing of the earlier counts survived
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="focal.assessor.web.rate_limits"):
            wait_until(
                lambda: NOTICE not in organiser.get("/organiser/users").get_data(as_text=True),
                what="the Users page to see Redis answer again",
            )
            # The LIMIT attempts counted meanwhile were carried over: no fresh window.
            assert attempt(guesser, "correct horse") == 429
        assert any("carried over" in record.message for record in caplog.records)
    finally:
        db.engine_of(app).dispose()


def test_no_notice_without_a_shared_store(tmp_path: Path, migrated_sqlite: Path) -> None:
    """With `memory://`, counting per process is the configuration, not an outage."""
    app = make_test_app(tmp_path, template=migrated_sqlite)
    try:
        seed(app, tmp_path)
        client = app.test_client()
        login(client, "olga")
        assert NOTICE not in client.get("/organiser/users").get_data(as_text=True)
    finally:
        db.engine_of(app).dispose()
