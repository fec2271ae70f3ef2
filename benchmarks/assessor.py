"""Assessor speed: operation round trip (p50/p95) with 10 concurrent clients, SQLite and PostgreSQL.

Each client is an assessor with its own assignment on one topic, sending highlight / unhighlight
operations over real HTTP to a threaded Werkzeug server on 127.0.0.1 (the `focal serve` server).
PostgreSQL runs as a throw-away cluster (needs root and /usr/lib/postgresql/15) or at
`FOCAL_TEST_POSTGRES_URL`; it is skipped with a note otherwise.

    .venv/bin/python benchmarks/assessor.py [--ops 50]
"""

# ruff: noqa: E402  (the sys.path fix below must run before the imports)
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its name would hide the
# `assessor` package: drop that folder before importing it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import http.client
import json
import logging
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from sqlalchemy import create_engine, text
from werkzeug.serving import make_server

from assessor import create_app, db, migrate, texts
from assessor.auth import issue_token
from assessor.models import Assignment, Collection, Document, Pool, PoolEntry, Topic, User
from evaluation.documents import Document as ParsedDocument

CLIENTS = 10
PG_BIN = Path("/usr/lib/postgresql/15/bin")
ARTICLE_XML = "<article><title>Bench</title><bdy>{}</bdy></article>".format(
    "".join(f"<p>Paragraph {i} of the benchmark article, plain words.</p>" for i in range(400))
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres() -> Iterator[str | None]:
    """A PostgreSQL database URL for the benchmark, or None when none can be had."""
    given = os.environ.get("FOCAL_TEST_POSTGRES_URL")
    if given:
        yield db.normalise_url(given)
        return
    if os.geteuid() != 0 or not (PG_BIN / "initdb").exists():
        yield None
        return
    data = Path(tempfile.mkdtemp(prefix="focal-bench-pg-"))
    shutil.chown(data, "postgres", "postgres")
    port = free_port()

    def as_postgres(command: str) -> None:
        subprocess.run(["su", "postgres", "-c", command], check=True, capture_output=True)

    try:
        as_postgres(f"{PG_BIN}/initdb -D {data} -A trust -U focal")
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
        as_postgres(f"{PG_BIN}/pg_ctl -D {data} -o '{options}' -l {data}/log -w start")
        url = f"postgresql+psycopg://focal@127.0.0.1:{port}/postgres"
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
        yield url
    finally:
        subprocess.run(
            ["su", "postgres", "-c", f"{PG_BIN}/pg_ctl -D {data} -m fast -w stop"],
            capture_output=True,
        )
        shutil.rmtree(data, ignore_errors=True)


def seed(url: str, workdir: Path) -> tuple[Flask, list[tuple[int, str]], str]:
    """A migrated app with one article, one topic and CLIENTS assessors; (app, clients, text)."""
    texts.clear_cache()
    article = workdir / "1.xml"
    article.write_text(ARTICLE_XML, encoding="utf-8")
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    migrate.upgrade(db.engine_of(app))
    document_text = ParsedDocument.from_file(article).text
    clients = []
    with db.session_scope(app) as session:
        collection = Collection(name="bench", directory=str(workdir))
        session.add(collection)
        session.flush()
        session.add(
            Document(
                id="1",
                collection_id=collection.id,
                file=str(article),
                text_length=len(document_text),
                text_sha256=texts.text_sha256(document_text),
            )
        )
        topic = Topic(id="1", title="bench")
        pool = Pool(topic=topic, method="bench", parameters={})
        pool.entries.append(PoolEntry(article="1", position=0, pool_rank=1))
        session.add_all([topic, pool])
        for number in range(CLIENTS):
            user = User(name=f"assessor{number}", role="assessor")
            assignment = Assignment(topic=topic, user=user)
            session.add(assignment)
            session.flush()
            clients.append((assignment.id, issue_token(session, user)))
    return app, clients, document_text


def client_loop(
    port: int, assignment: int, token: str, ops: int, document_text: str, out: list[float]
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    path = f"/api/assignments/{assignment}/documents/1/ops"
    for number in range(ops):
        start = (number * 37) % (len(document_text) - 60)
        end = start + 40
        op = "highlight" if number % 3 else "unhighlight"
        body = {"op_id": f"{assignment}-{number}", "op": op, "start": start, "end": end}
        if op == "highlight":
            body["exact"] = document_text[start:end]
        began = time.perf_counter()
        connection.request("POST", path, json.dumps(body), headers)
        response = connection.getresponse()
        response.read()
        out.append(time.perf_counter() - began)
        if response.status != 200:
            raise RuntimeError(f"operation failed with {response.status}")
    connection.close()


def round_trips(url: str, ops: int) -> list[float]:
    """Per-operation round-trip times of CLIENTS concurrent clients against a live server."""
    with tempfile.TemporaryDirectory() as workdir:
        app, clients, document_text = seed(url, Path(workdir))
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        times: list[float] = []
        workers = [
            threading.Thread(
                target=client_loop,
                args=(server.port, assignment, token, ops, document_text, times),
            )
            for assignment, token in clients
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        server.shutdown()
        db.engine_of(app).dispose()
    return times


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"{label}: {len(times)} ops, p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access log per request
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=50, help="operations per client")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        report(
            f"SQLite, {CLIENTS} clients",
            round_trips(f"sqlite:///{Path(directory) / 'bench.sqlite'}", args.ops),
        )
    with postgres() as url:
        if url is None:
            print("PostgreSQL: skipped (needs root and PostgreSQL 15, or FOCAL_TEST_POSTGRES_URL)")
        else:
            report(f"PostgreSQL, {CLIENTS} clients", round_trips(url, args.ops))


if __name__ == "__main__":
    main()
