"""The log-in limit holds when attempts arrive at once: a real threaded HTTP server, 60 wrong
passwords for one account sent together."""

from __future__ import annotations

import http.client
import re
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlencode

import pytest
from werkzeug.serving import BaseWSGIServer, make_server

from ..conftest import PASSWORD


@pytest.fixture
def server(seeded: Any) -> Iterator[BaseWSGIServer]:
    """The seeded app behind werkzeug's threaded server (one thread per request)."""
    served = make_server("127.0.0.1", 0, seeded.app, threaded=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        served.shutdown()
        thread.join(timeout=30)


def _session(port: int) -> tuple[str, str]:
    """A session cookie and its CSRF token, from the log-in page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/login")
    answer = connection.getresponse()
    page = answer.read().decode()
    cookie = answer.getheader("Set-Cookie", "").split(";", 1)[0]
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None and cookie
    connection.close()
    return cookie, found.group(1)


def _attempt(port: int, cookie: str, token: str, password: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    body = urlencode({"name": "alice", "password": password, "csrf_token": token})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    connection.request("POST", "/login", body=body, headers=headers)
    status = connection.getresponse().status
    connection.close()
    return status


def test_sixty_concurrent_wrong_log_ins_are_limited(seeded: Any, server: BaseWSGIServer) -> None:
    # The default limit: 10 attempts per name in 15 minutes. Every attempt is charged before
    # its scrypt check, so at most 10 of the 60 reach the check and the other 50 are 429s.
    port = server.server_port
    cookie, token = _session(port)
    with ThreadPoolExecutor(max_workers=60) as pool:
        barrier = threading.Barrier(60)

        def wrong(_: int) -> int:
            barrier.wait()
            return _attempt(port, cookie, token, "wrong")

        statuses = Counter(pool.map(wrong, range(60)))
    assert statuses == {401: 10, 429: 50}, statuses
    # Inside the window even the right password is refused.
    assert _attempt(port, cookie, token, PASSWORD) == 429
