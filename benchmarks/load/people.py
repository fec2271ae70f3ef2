"""The simulated assessors of benchmarks/assessor_load.py: their routine, and the figures.

`work` is one assessor's routine (benchmarks/assessor_load.py's docstring says it); `Recorder`
keeps every request's time and status, and `report` prints p50/p95/p99 per kind of request.
"""

from __future__ import annotations

import collections
import http.client
import json
import random
import ssl
import threading
import time
import urllib.parse
from typing import Any

KINDS = ("page", "state", "save", "view", "next", "arrival")


class Recorder:
    def __init__(self, steady_from: float) -> None:
        self.steady_from = steady_from  # time.monotonic() when the last assessor has arrived
        self.times: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()

    def add(self, kind: str, seconds: float, status: int) -> None:
        """One request's time and status; every kind of request made while assessors were still
        arriving (each opening its connection and first page) counts as `arrival`."""
        arriving = time.monotonic() - seconds < self.steady_from
        with self.lock:
            self.times["arrival" if arriving else kind].append(seconds)
            if not 200 <= status < 400:
                self.errors[f"{kind} {status}"] += 1


class Assessor:
    """One simulated assessor: a keep-alive https connection and a bearer token."""

    def __init__(self, port: int, token: str, record: Recorder, until: float) -> None:
        self.port, self.record, self.until = port, record, until
        self.headers = {"Authorization": f"Bearer {token}", "Host": "localhost"}
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE
        self.connection = self._connect()

    def _connect(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=60, context=self.context)

    def request(self, kind: str, method: str, path: str, body: Any = None) -> str:
        """Send one request, record its time and status; the Location header, if any."""
        headers = dict(self.headers)
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        began = time.perf_counter()
        location = ""
        try:
            self.connection.request(method, path, data, headers)
            response = self.connection.getresponse()
            response.read()
            status, location = response.status, response.getheader("Location", "")
        except (OSError, http.client.HTTPException):
            status = 0
            self.connection.close()
            self.connection = self._connect()
        self.record.add(kind, time.perf_counter() - began, status)
        return location

    def pause(self, seconds: float) -> bool:
        """Sleep (a person reading or selecting); False once the run is over."""
        time.sleep(max(0.0, min(seconds, self.until - time.monotonic())))
        return time.monotonic() < self.until


def work(
    who: Assessor,
    assignment: int,
    text_of: dict[str, str],
    reading: tuple[float, float],
    rng: random.Random,
    articles: int,
) -> None:
    """The per-article routine of the module's docstring, until the run is over."""
    base = f"/api/assignments/{assignment}/documents"
    article = f"a{rng.randrange(articles)}"
    page = f"/assignments/{assignment}/articles/{article}"
    count = 0
    while time.monotonic() < who.until:
        count += 1
        ops, views = f"{base}/{article}/ops", f"{base}/{article}/views"

        def save(body: dict[str, Any], ops: str = ops) -> None:
            who.request("save", "POST", ops, {"op_id": f"{ops}-{rng.random()}", **body})

        def view(kind: str, views: str = views) -> None:
            body = {"kind": kind, "event_id": f"{kind}-{rng.random()}"}
            who.request("view", "POST", views, body)

        who.request("page", "GET", page)
        who.request("state", "GET", f"{base}/{article}")
        view("shown")
        if not who.pause(rng.uniform(*reading)):
            break
        text = text_of[article]
        relevant = rng.random() >= 0.6
        if relevant:
            for burst in range(rng.randint(1, 3)):
                if burst and not who.pause(rng.uniform(2, 6)):
                    break
                for _ in range(rng.randint(2, 5)):
                    start = rng.randrange(len(text) - 50)
                    end = start + rng.randint(10, 40)
                    save({"op": "highlight", "start": start, "end": end, "exact": text[start:end]})
                    if rng.random() < 0.15:
                        save({"op": "unhighlight", "start": start, "end": end})
                    if not who.pause(rng.uniform(0.1, 0.3)):
                        break
            save({"op": "highlight", "start": 0, "end": 20, "exact": text[:20]})
            save({"op": "set_bep", "offset": 0})
            save({"op": "finish"})
        else:
            save({"op": "mark_nonrelevant"})
        view("left")
        verdict = "1" if relevant else "0"
        location = who.request(
            "next", "GET", f"/assignments/{assignment}/next?after={article}&relevant={verdict}"
        )
        target = urllib.parse.urlsplit(location)
        page = target.path + (f"?{target.query}" if target.query else "")
        article = target.path.rsplit("/", 1)[-1]
        if "/articles/" not in target.path:  # the pool is judged: start again at a random one
            article = f"a{rng.randrange(articles)}"
            page = f"/assignments/{assignment}/articles/{article}"
    who.connection.close()


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(record: Recorder, seconds: float) -> dict[str, tuple[float, float, float]]:
    """Print the figures; p50/p95/p99 in ms per kind."""
    total = sum(len(times) for times in record.times.values())
    print(f"{total} requests in {seconds:.0f} s: {total / seconds:.1f} requests/s")
    figures = {}
    for kind in KINDS:
        ordered = sorted(record.times.get(kind, []))
        if not ordered:
            continue
        p50, p95, p99 = (percentile(ordered, share) * 1000 for share in (0.5, 0.95, 0.99))
        figures[kind] = (p50, p95, p99)
        print(
            f"  {kind:6} {len(ordered):7d} requests  p50 {p50:7.1f} ms"
            f"  p95 {p95:7.1f} ms  p99 {p99:7.1f} ms"
        )
    errors = sum(record.errors.values())
    print(f"errors: {errors}" + (f" {dict(record.errors)}" if errors else ""))
    return figures
