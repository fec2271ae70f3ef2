"""Fixtures shared by every test package: where the real INEX data lives, and `focal serve` run
as a real server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")
REPOSITORY = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPOSITORY.parent / "shared" / "data").resolve()
DEMO = REPOSITORY / "demo"


@pytest.fixture(scope="session", autouse=True)
def instance_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`FOCAL_INSTANCE` for the whole session (servers started by tests inherit it): apps and
    commands keep their files there, never in the per-user data folder of whoever runs the
    tests."""
    folder = tmp_path_factory.mktemp("instance")
    given = os.environ.get("FOCAL_INSTANCE")
    os.environ["FOCAL_INSTANCE"] = given or str(folder)
    yield Path(os.environ["FOCAL_INSTANCE"])
    if given is None:
        os.environ.pop("FOCAL_INSTANCE", None)


@pytest.fixture(params=["auto", "numpy"])
def each_pass(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test with the C part's whole-file pass and with the numpy pass
    (`FOCAL_KERNEL=numpy`), which answers in its place on an install without the C part; the
    first skipped on such an install (it would test the numpy pass twice)."""
    from focal.evaluation.measures.trec_eval.kernel import compiled

    monkeypatch.setenv("FOCAL_KERNEL", request.param)
    if request.param == "auto" and compiled() is None:
        pytest.skip("the install has no C part: its numpy pass is the one tested")
    return str(request.param)


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data, skipping the calling test when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"real INEX data not available: {path} is absent (put `shared` beside the repository)"
        )
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_path()


@pytest.fixture(scope="session")
def inex2010() -> Path:
    return shared_path("inex2010")


@pytest.fixture(scope="session")
def shared_collections() -> Path:
    return shared_path("collections")


def wait_until(
    condition: Callable[[], T | None],
    timeout: float = 30,
    what: str = "the condition",
    every: float = 0.05,
) -> T:
    """The first true value of `condition()`, asked again every `every` seconds until `timeout`
    seconds have passed (then the test fails, naming `what`).

    The suite's one way of waiting for something outside the test (a server's port, a forked
    worker, a background import): tests wait for the state they need, never for a fixed time, and
    this short poll is only how often they look.
    """
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)
    return value


@dataclass
class Served:
    """A `focal serve` started by `serving`: its port, its process, and (once it has stopped)
    what it wrote on stderr."""

    port: int
    process: subprocess.Popen[bytes]
    errors: bytes = b""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def children(self, at_least: int, timeout: float = 30) -> list[int]:
        """The ids of the processes it has forked, once there are `at_least` of them (the test
        fails if that takes over `timeout` seconds or the server ends first).

        gunicorn's master listens before it forks, and forks its workers one at a time with a
        random pause between them, so the first worker can answer before the last exists.
        """

        def forked() -> list[int] | None:
            found = subprocess.run(
                ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
            if self.process.poll() is not None:
                pytest.fail(f"focal serve ended with {len(found)} of {at_least} workers")
            return [int(pid) for pid in found] if len(found) >= at_least else None

        return wait_until(forked, timeout, f"{at_least} workers of focal serve")


@contextmanager
def serving(
    env: dict[str, str], *options: str, focal: Path | None = None, cwd: Path | None = None
) -> Iterator[Served]:
    """`focal serve --port P OPTIONS` (this environment's `focal` unless another is given) in
    a session of its own, in `cwd`, yielded once its port accepts
    connections (within 30 s, or the test fails with its stderr); stopped with SIGTERM to its
    whole process group (gunicorn's workers too) on leaving."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    focal = focal or Path(sys.executable).with_name("focal")
    process = subprocess.Popen(
        [str(focal), "serve", *options, "--port", str(port)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if not _answers(port, process, deadline=time.monotonic() + 30):
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        pytest.fail(f"focal serve did not start: {process.communicate(timeout=30)[1]!r}")
    served = Served(port, process)
    try:
        yield served
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        served.errors = process.communicate(timeout=30)[1]


def _answers(port: int, process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Whether the port accepts a connection before the deadline (and the process is up)."""

    def up_or_ended() -> str | None:
        if process.poll() is not None or time.monotonic() > deadline:
            return "ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return None
        return "up"

    # The condition itself gives up at the deadline, so that the caller can show stderr.
    return wait_until(up_or_ended, deadline - time.monotonic() + 5, "focal serve's port") == "up"


REDIS_SERVER = Path("/usr/bin/redis-server")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Redis server for the whole test session: `FOCAL_TEST_REDIS_URL`, else a
    throw-away Debian `redis-server` on a free port of 127.0.0.1 (no persistence), stopped
    after the session. Tests that need it are skipped (saying why) only when neither exists."""
    given = os.environ.get("FOCAL_TEST_REDIS_URL")
    if given:
        yield given
        return
    if not REDIS_SERVER.exists():
        pytest.skip(f"Redis tests need {REDIS_SERVER} (make system-packages installs it)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [
            str(REDIS_SERVER),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        if not _answers(port, process, deadline=time.monotonic() + 30):
            pytest.fail(f"redis-server did not start: {process.communicate(timeout=30)[1]!r}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        if process.poll() is None:
            process.terminate()
        process.communicate(timeout=30)
