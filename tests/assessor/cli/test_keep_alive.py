"""Keep-alive: an idle connection to `focal serve --workers` (gunicorn) stays open past the
common 5 s, so a client reusing it after a pause is answered (gunicorn's own default, 2 s,
closed it under the next request); Werkzeug's server announces `Connection: close` instead."""

from __future__ import annotations

import http.client
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from ...conftest import serving


@pytest.mark.slow
def test_an_idle_keep_alive_connection_outlasts_five_seconds(tmp_path: Path) -> None:
    """The select waits for the server to close the idle connection, and must time out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FOCAL_")}
    env |= {"FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite'}", "FOCAL_SECRET_KEY": "k"}
    subprocess.run(
        [str(Path(sys.executable).with_name("focal")), "init-db"], env=env, check=True,
        capture_output=True,
    )  # fmt: skip
    with serving(env, "--workers", "1") as served:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        connection.request("GET", "/login")
        first = connection.getresponse()
        first.read()
        assert first.getheader("Connection", "keep-alive").lower() != "close"
        assert connection.sock is not None
        closed, _, _ = select.select([connection.sock], [], [], 5.5)
        assert closed == [], "the server closed the idle connection within 5.5 s"
        connection.request("GET", "/login")
        second = connection.getresponse()
        second.read()
        connection.close()
        assert second.status == 200
    with serving(env) as served:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        connection.request("GET", "/login")
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.getheader("Connection") == "close"  # no idle connection to wait on
