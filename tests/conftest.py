"""Fixtures shared by every test package: where the real INEX data lives, and `focal serve` run
as a real server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPOSITORY.parent / "shared" / "data").resolve()
DEMO = REPOSITORY / "demo"


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
        """The ids of the processes it has forked, once there are `at_least` of them (or the
        deadline has passed: then however many there are, for the caller's assertion).

        gunicorn's master listens before it forks, and forks its workers one at a time with a
        random pause between them, so the first worker can answer before the last exists.
        """
        deadline = time.monotonic() + timeout
        while True:
            found = subprocess.run(
                ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
            ).stdout.split()
            over = time.monotonic() > deadline or self.process.poll() is not None
            if len(found) >= at_least or over:
                return [int(pid) for pid in found]
            time.sleep(0.05)


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
    while process.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.2)
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Test files with a `slow` test first, each file kept together and in its own order: with
    several workers (`make test`), the long ones start early and the short ones fill in after,
    instead of a long file running alone at the end while the other workers wait."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
