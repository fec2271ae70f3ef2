"""`focal serve --workers 2` is gunicorn with two worker processes serving the app."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_serve_with_workers_answers_from_several_processes(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    database = tmp_path / "served.sqlite"
    database.write_bytes(migrated_sqlite.read_bytes())
    env = {**os.environ, "FOCAL_DATABASE_URL": f"sqlite:///{database}", "FOCAL_SECRET_KEY": "k"}
    port = _free_port()
    focal = Path(sys.executable).with_name("focal")
    server = subprocess.Popen(
        [str(focal), "serve", "--workers", "2", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=2) as page:
                    assert page.status == 200
                    assert page.headers["X-Frame-Options"] == "DENY"
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        workers = subprocess.run(
            ["pgrep", "-P", str(server.pid)], capture_output=True, text=True, check=False
        ).stdout.split()
        assert len(workers) == 2  # gunicorn's master forked two workers
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        _out, err = server.communicate(timeout=30)
    assert b"Booting worker" in err and b"Traceback" not in err
