"""Assessor load: 500 simulated assessors against the deploy/ recipe's stack on this machine.

The stack (benchmarks/load/stack.py): nginx with deploy/nginx/focal.conf (TLS, keep-alive to
the upstream), gunicorn with as many workers as cores (`focal serve --workers N`, gthread),
Redis and PostgreSQL (a throw-away cluster, or `FOCAL_TEST_POSTGRES_URL`, as in
benchmarks/assessor.py). `--groups 2` starts two gunicorn groups behind the same nginx, sharing
PostgreSQL and Redis: what a second machine would add, simulated on one.

Each simulated assessor has an assignment of its own on one of ten topics, arrives within the
first `--arrival` seconds and works at a person's pace, per article: open it (the page, its
judgement state, the `shown` view event), read (`--reading` seconds, uniformly), then either
mark it not relevant (60 % of articles: most pooled articles hold nothing relevant) or
highlight in one to three bursts of 2-5 selections (0.1-0.3 s apart, the bursts 2-6 s apart;
15 % of selections undone by an unhighlight), set the best entry point and finish; then the
`left` view event and Next (its 303, then the page it names). Requests go over one keep-alive
https connection per assessor, from threads of this process.

Printed: requests per second, p50/p95/p99 per kind (`page` is every article page, `save` every
judging operation), errors by status, the CPU taken by this client and by nginx and gunicorn
(PostgreSQL and Redis not counted), and the load average before the run. Goal
(docs/performance.md, "Assessors at once"): save p95 < 50 ms, page p95 < 150 ms, no error.

    .venv/bin/python -P benchmarks/assessor_load.py [--assessors 500] [--seconds 120]
        [--groups 1] [--workers CORES] [--reading 20 60]

The client runs on the machine that serves, so it takes cores from the server: the figures are
an upper bound of what the server alone would need.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
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

TOPICS = 10
ARTICLES = 40
ARTICLE_XML = "<article><title>Load {n}</title><bdy>{body}</bdy></article>"
BODY = "".join(f"<p>Paragraph {i} of the load article, plain words here.</p>" for i in range(300))


def _script(name: str) -> Any:
    """A module of benchmarks/, loaded by path (`-P` keeps the folder off sys.path, where
    benchmarks/collections.py would shadow the standard library's)."""
    path = Path(__file__).parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name.replace("/", "_"), path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seed(url: str, workdir: Path, assessors: int) -> tuple[list[tuple[int, str]], dict[str, str]]:
    """Migrated database: TOPICS topics pooling the same ARTICLES articles, one assignment per
    assessor (round robin over the topics)."""
    texts.clear_cache()
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    migrate.upgrade(db.engine_of(app))
    text_of = {}
    people = []
    with db.session_scope(app) as session:
        collection = Collection(name="load", directory=str(workdir))
        session.add(collection)
        session.flush()
        for position in range(ARTICLES):
            path = workdir / f"a{position}.xml"
            path.write_text(ARTICLE_XML.format(n=position, body=BODY), encoding="utf-8")
            text = ParsedDocument.from_file(path).text
            text_of[f"a{position}"] = text
            session.add(
                Document(
                    id=f"a{position}",
                    collection_id=collection.id,
                    file=str(path),
                    text_length=len(text),
                    text_sha256=texts.text_sha256(text),
                )
            )
        topics = []
        for number in range(TOPICS):
            topic = Topic(
                id=str(number + 1), title=f"load {number}", description="d", narrative="n"
            )
            pool = Pool(topic=topic, method="bench", parameters={})
            for position in range(ARTICLES):
                pool.entries.append(
                    PoolEntry(article=f"a{position}", position=position, pool_rank=1)
                )
            session.add_all([topic, pool])
            topics.append(topic)
        for number in range(assessors):
            user = User(name=f"assessor{number}", role="assessor")
            assignment = Assignment(topic=topics[number % TOPICS], user=user)
            session.add(assignment)
            session.flush()
            people.append((assignment.id, issue_token(session, user)))
    db.engine_of(app).dispose()
    return people, text_of


def run(args: argparse.Namespace, url: str, workdir: Path, stack: Any, sim: Any) -> None:
    """Seed, start the stack, let the assessors work `args.seconds`, print the figures."""
    accounts, text_of = seed(url, workdir, args.assessors)
    load = os.getloadavg()[0]
    with stack.stack(url, workdir, args.groups, args.workers) as port:
        began = time.monotonic()
        record = sim.Recorder(began + args.arrival)
        until = began + args.seconds
        client_before = resource.getrusage(resource.RUSAGE_SELF)

        def one(number: int, assignment: int, token: str) -> None:
            rng = random.Random(number)
            time.sleep(rng.uniform(0, args.arrival))
            who = sim.Assessor(port, token, record, until)
            sim.work(who, assignment, text_of, (args.reading[0], args.reading[1]), rng, ARTICLES)

        threads = [
            threading.Thread(target=one, args=(number, assignment, token), daemon=True)
            for number, (assignment, token) in enumerate(accounts)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        client_after = resource.getrusage(resource.RUSAGE_SELF)
        servers_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    servers_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped as the stack stops

    def cpu(before: Any, after: Any) -> float:
        return float(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    client, servers = cpu(client_before, client_after), cpu(servers_before, servers_after)
    print(
        f"{args.assessors} assessors, {args.groups} gunicorn group(s) of {args.workers} workers, "
        f"nginx, Redis, PostgreSQL; {TOPICS} topics x {ARTICLES} articles of "
        f"{len(text_of['a0'])} characters; load average before: {load:.1f}"
    )
    figures = sim.report(record, elapsed)
    after = os.getloadavg()[0]
    print(
        f"CPU: client {client:.0f} s ({client / elapsed:.2f} cores), nginx + gunicorn "
        f"{servers:.0f} s ({servers / elapsed:.2f} cores)"
    )
    save, page, arrival = (figures.get(kind) for kind in ("save", "page", "arrival"))
    if save and page and arrival:
        errors = sum(record.errors.values())
        print(
            f"ROW | {args.assessors} assessors, {args.groups} group(s) x {args.workers} workers "
            f"| save p50/p95/p99 {save[0]:.0f}/{save[1]:.0f}/{save[2]:.0f} ms "
            f"| page {page[0]:.0f}/{page[1]:.0f}/{page[2]:.0f} ms "
            f"| arrival {arrival[0]:.0f}/{arrival[1]:.0f}/{arrival[2]:.0f} ms | errors {errors} "
            f"| client {client / elapsed:.2f} cores | load {load:.1f} before, {after:.1f} after |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--assessors", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--groups", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--arrival", type=float, default=30.0)
    parser.add_argument("--reading", type=float, nargs=2, default=(20.0, 60.0))
    args = parser.parse_args()
    stack, sim = _script("load/stack"), _script("load/people")
    lacking = stack.missing()
    if lacking:
        print(f"assessor load: skipped ({lacking})")
        return
    helpers = _script("assessor")
    with helpers.postgres() as server:
        if server is None:
            print("PostgreSQL: skipped (needs root and PostgreSQL 15, or FOCAL_TEST_POSTGRES_URL)")
            return
        with helpers.fresh_database(server) as url, tempfile.TemporaryDirectory() as directory:
            run(args, url, Path(directory), stack, sim)


if __name__ == "__main__":
    main()
