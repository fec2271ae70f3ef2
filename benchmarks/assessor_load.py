"""Assessor load: 50 simulated assessors against `focal serve --workers 4` on PostgreSQL.

Each simulated assessor has its own assignment on one topic whose pool holds 10 articles, and
works as a person does, with pauses: open an article (the page, then its judgement state over
the API), two or three bursts of 3-6 highlights or unhighlights (50-150 ms apart, the bursts
0.5-1.5 s apart), then the next article. Requests go over real HTTP (keep-alive, one
connection per assessor) to gunicorn with 4 worker processes, started as `focal serve
--workers 4` would start it. Printed: requests per second, p50/p95/p99 per request kind, and
every error by status. PostgreSQL is a throw-away cluster (root and /usr/lib/postgresql/15) or
`FOCAL_TEST_POSTGRES_URL`, as in benchmarks/assessor.py.

    .venv/bin/python -P benchmarks/assessor_load.py [--assessors 50] [--seconds 60] [--workers 4]

The client threads run on the same machine as the server and the database, so they compete with
them for the cores: on a small machine the figures are an upper bound of what a server alone
would take.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import importlib.util
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from focal.assessor.campaign.people.users import issue_token
from focal.assessor.store import db, migrate, texts
from focal.assessor.store.models import (
    Assignment,
    Collection,
    Document,
    Pool,
    PoolEntry,
    Topic,
    User,
)
from focal.assessor.web.app import create_app
from focal.evaluation.text.document import Document as ParsedDocument

ARTICLES = 10
ARTICLE_XML = "<article><title>Load {n}</title><bdy>{body}</bdy></article>"
BODY = "".join(f"<p>Paragraph {i} of the load article, plain words here.</p>" for i in range(300))


def _bench_helpers() -> Any:
    """benchmarks/assessor.py's PostgreSQL helpers (a script, loaded by path)."""
    spec = importlib.util.spec_from_file_location(
        "bench_assessor", Path(__file__).with_name("assessor.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seed(
    url: str, workdir: Path, assessors: int
) -> tuple[list[tuple[int, str]], list[str], dict[str, str]]:
    """Migrated database: ARTICLES articles pooled for one topic, `assessors` assignments."""
    texts.clear_cache()
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    migrate.upgrade(db.engine_of(app))
    articles = [f"a{n}" for n in range(ARTICLES)]
    text_of = {}
    people = []
    with db.session_scope(app) as session:
        collection = Collection(name="load", directory=str(workdir))
        session.add(collection)
        session.flush()
        topic = Topic(id="1", title="load", description="d", narrative="n")
        pool = Pool(topic=topic, method="bench", parameters={})
        for position, article in enumerate(articles):
            path = workdir / f"{article}.xml"
            path.write_text(ARTICLE_XML.format(n=position, body=BODY), encoding="utf-8")
            text = ParsedDocument.from_file(path).text
            text_of[article] = text
            session.add(
                Document(
                    id=article,
                    collection_id=collection.id,
                    file=str(path),
                    text_length=len(text),
                    text_sha256=texts.text_sha256(text),
                )
            )
            pool.entries.append(PoolEntry(article=article, position=position, pool_rank=1))
        session.add_all([topic, pool])
        for number in range(assessors):
            user = User(name=f"assessor{number}", role="assessor")
            assignment = Assignment(topic=topic, user=user)
            session.add(assignment)
            session.flush()
            people.append((assignment.id, issue_token(session, user)))
    db.engine_of(app).dispose()
    return people, articles, text_of


class Recorder:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = collections.defaultdict(list)
        self.errors: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()

    def add(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            if status != 200:
                self.errors[f"{kind} {status}"] += 1


def assessor(
    port: int,
    assignment: int,
    token: str,
    articles: list[str],
    text_of: dict[str, str],
    until: float,
    record: Recorder,
    seed: int,
) -> None:
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"}

    def request(kind: str, method: str, path: str, body: dict[str, Any] | None = None) -> None:
        nonlocal connection
        began = time.perf_counter()
        try:
            if body is None:
                connection.request(method, path, headers=headers)
            else:
                connection.request(
                    method, path, json.dumps(body), {**headers, "Content-Type": "application/json"}
                )
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        record.add(kind, time.perf_counter() - began, status)

    position = rng.randrange(len(articles))
    step = 0
    while time.monotonic() < until:
        article = articles[position % len(articles)]
        text = text_of[article]
        kind = "page load" if step == 0 else "next article"
        request(kind, "GET", f"/assignments/{assignment}/articles/{article}")
        request("state", "GET", f"/api/assignments/{assignment}/documents/{article}")
        for _burst in range(rng.randint(2, 3)):
            for _ in range(rng.randint(3, 6)):
                start = rng.randrange(len(text) - 50)
                end = start + rng.randint(5, 40)
                op = "highlight" if rng.random() < 0.8 else "unhighlight"
                body: dict[str, Any] = {
                    "op_id": f"{assignment}-{step}",
                    "op": op,
                    "start": start,
                    "end": end,
                }
                if op == "highlight":
                    body["exact"] = text[start:end]
                step += 1
                request(
                    "operation",
                    "POST",
                    f"/api/assignments/{assignment}/documents/{article}/ops",
                    body,
                )
                time.sleep(rng.uniform(0.05, 0.15))
                if time.monotonic() >= until:
                    break
            time.sleep(rng.uniform(0.5, 1.5))
        position += 1
        step += 1
    connection.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(url: str, workers: int, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "FOCAL_DATABASE_URL": url, "FOCAL_SECRET_KEY": "bench"}
    focal = Path(sys.executable).with_name("focal")
    server = subprocess.Popen(
        [str(focal), "serve", "--workers", str(workers), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not start: {log.read_text(errors='replace')[-2000:]}")


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(record: Recorder, seconds: float) -> None:
    total = sum(len(times) for times in record.times.values())
    print(f"{total} requests in {seconds:.0f} s: {total / seconds:.1f} requests/s")
    for kind in ("page load", "next article", "state", "operation"):
        ordered = sorted(record.times.get(kind, []))
        if not ordered:
            continue
        p50, p95, p99 = (percentile(ordered, share) * 1000 for share in (0.5, 0.95, 0.99))
        print(
            f"  {kind:12} {len(ordered):6d} requests  p50 {p50:7.1f} ms"
            f"  p95 {p95:7.1f} ms  p99 {p99:7.1f} ms"
        )
    errors = sum(record.errors.values())
    print(f"errors: {errors}" + (f" {dict(record.errors)}" if errors else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--assessors", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    helpers = _bench_helpers()
    with helpers.postgres() as server:
        if server is None:
            print("PostgreSQL: skipped (needs root and PostgreSQL 15, or FOCAL_TEST_POSTGRES_URL)")
            return
        with helpers.fresh_database(server) as url, tempfile.TemporaryDirectory() as directory:
            workdir = Path(directory)
            people, articles, text_of = seed(url, workdir, args.assessors)
            port = free_port()
            process = serve(url, args.workers, port, workdir / "server.log")
            try:
                record = Recorder()
                began = time.monotonic()
                until = began + args.seconds
                threads = [
                    threading.Thread(
                        target=assessor,
                        args=(port, assignment, token, articles, text_of, until, record, number),
                    )
                    for number, (assignment, token) in enumerate(people)
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                elapsed = time.monotonic() - began
            finally:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
            print(
                f"{args.assessors} assessors, {args.workers} gunicorn workers, PostgreSQL, "
                f"{ARTICLES} articles of {len(text_of[articles[0]])} characters"
            )
            report(record, elapsed)


if __name__ == "__main__":
    main()
