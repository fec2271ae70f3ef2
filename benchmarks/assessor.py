"""Assessor speed: operation round trip (p50/p95) with 10 concurrent clients, SQLite and PostgreSQL.

Each client is an assessor with its own assignment on one topic, sending highlight / unhighlight
operations over real HTTP to a threaded Werkzeug server on 127.0.0.1 (the `focal serve` server).
PostgreSQL runs as a throw-away cluster (needs root and /usr/lib/postgresql/15) or at
`FOCAL_TEST_POSTGRES_URL`; it is skipped with a note otherwise.

    .venv/bin/python -P benchmarks/assessor.py [--ops 50]

`-P` keeps this script's folder off sys.path, where this file's name would hide the `assessor`
package (run every benchmark that way).

A line with one client gives the latency of an operation on an idle server; with 10 clients
sending back to back, the server is saturated and the times are mostly queueing (one Python
process, two cores): they fall with the work an operation costs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import secrets
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
    """A PostgreSQL server URL (no database name) for the benchmark, or None when none can be had.

    `FOCAL_TEST_POSTGRES_URL` names a server, as for the tests: each run gets its own database.
    """
    given = os.environ.get("FOCAL_TEST_POSTGRES_URL")
    if given:
        yield db.normalise_url(given).rstrip("/")
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
        yield f"postgresql+psycopg://focal@127.0.0.1:{port}"
    finally:
        subprocess.run(
            ["su", "postgres", "-c", f"{PG_BIN}/pg_ctl -D {data} -m fast -w stop"],
            capture_output=True,
        )
        shutil.rmtree(data, ignore_errors=True)


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """A new, empty database on the PostgreSQL `server`, dropped afterwards."""
    name = f"focal_bench_{secrets.token_hex(4)}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield f"{server}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def seed(url: str, workdir: Path, clients: int) -> tuple[Flask, list[tuple[int, str]], str]:
    """A migrated app with one article, one topic and `clients` assessors; (app, clients, text)."""
    texts.clear_cache()
    article = workdir / "1.xml"
    article.write_text(ARTICLE_XML, encoding="utf-8")
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    migrate.upgrade(db.engine_of(app))
    document_text = ParsedDocument.from_file(article).text
    tokens = []
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
        for number in range(clients):
            user = User(name=f"assessor{number}", role="assessor")
            assignment = Assignment(topic=topic, user=user)
            session.add(assignment)
            session.flush()
            tokens.append((assignment.id, issue_token(session, user)))
    return app, tokens, document_text


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


def round_trips(url: str, clients: int, ops: int) -> list[float]:
    """Per-operation round-trip times of `clients` concurrent clients against a live server."""
    with tempfile.TemporaryDirectory() as workdir:
        app, assessors, document_text = seed(url, Path(workdir), clients)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        times: list[float] = []
        workers = [
            threading.Thread(
                target=client_loop,
                args=(server.port, assignment, token, ops, document_text, times),
            )
            for assignment, token in assessors
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


def label(backend: str, clients: int) -> str:
    return f"{backend}, {clients} client{'s' if clients > 1 else ''}"


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access log per request
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=50, help="operations per client (of 10)")
    args = parser.parse_args()
    total = args.ops * CLIENTS  # the same number of operations for 1 client and for 10
    with tempfile.TemporaryDirectory() as directory:
        for clients in (1, CLIENTS):
            url = f"sqlite:///{Path(directory) / f'bench-{clients}.sqlite'}"
            report(label("SQLite", clients), round_trips(url, clients, total // clients))
    with postgres() as server:
        if server is None:
            print("PostgreSQL: skipped (needs root and PostgreSQL 15, or FOCAL_TEST_POSTGRES_URL)")
            return
        for clients in (1, CLIENTS):
            with fresh_database(server) as url:
                report(label("PostgreSQL", clients), round_trips(url, clients, total // clients))


if __name__ == "__main__":
    main()
