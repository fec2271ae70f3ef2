"""The adjudication queue and the agreement pages on a campaign the size of INEX 2010.

The real INEX 2010 qrels (52 topics, 39,031 judged articles, ../shared/data) are imported as
`first`'s work, and a changed copy as `second`'s: every fifth article's verdict turned over
(relevant to not relevant; not relevant to relevant with its first 100 characters) and every
seventh relevant one's first passage halved, so that every topic is double-judged with
thousands of disagreements to adjudicate. On PostgreSQL (a throw-away cluster or
`FOCAL_TEST_POSTGRES_URL`, as the deploy/ recipe uses it; SQLite otherwise), each page is asked
for through Flask's test client by an organiser (bearer token), beside the goal of 300 ms a
page (docs/performance.md, "Assessors at once"): once first, with nothing kept by the process
(`campaign.results.topic_cache`: what a worker's first view of the page costs); then
`--rounds` times, the median and slowest printed; then `--rounds` times more, each after
`second` moved the best entry point of one of its relevant articles of the timed topic through
the judging API (the page computes that topic again). Last, another process (a new Python, as a
gunicorn worker after a restart, its templates compiled as a worker's are) asks once for each
page: what the database keeps (`store.topic_results`) spares it the computing. The largest topic
(757 judged articles) is the one whose pages are timed.

    .venv/bin/python -P benchmarks/adjudication_pages.py [--rounds 5]

The machine is shared: the times are orientation, not assertions.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select

from focal.assessor.campaign.people.users import add_user, find_user, issue_token
from focal.assessor.campaign.setup.qrels_import import import_qrels
from focal.assessor.cli.gunicorn_app import warm
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Assignment, Judgement
from focal.assessor.web.app import create_app

QRELS = Path(__file__).resolve().parents[2] / "shared/data/inex2010/inex2010.qrels"
GOAL_MS = 300.0


def changed_copy(source: Path, target: Path) -> tuple[str, str]:
    """`source` with verdicts turned and passages halved (the module's docstring); returns the
    largest topic and one article of it whose verdicts differ."""
    per_topic: collections.Counter[str] = collections.Counter()
    differing: dict[str, str] = {}
    lines = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines()):
        fields = line.split()
        topic, article, relevant, length = fields[0], fields[2], int(fields[3]), int(fields[4])
        per_topic[topic] += 1
        if number % 5 == 0 and relevant:
            fields = [*fields[:3], "0", str(length)]
            differing.setdefault(topic, article)
        elif number % 5 == 0 and length > 100:
            fields = [*fields[:3], "100", str(length), "0", "0:100"]
            differing.setdefault(topic, article)
        elif number % 7 == 0 and relevant:
            offset, size = fields[6].split(":")
            half = max(1, int(size) // 2)
            kept = relevant - int(size) + half
            fields = [*fields[:3], str(kept), str(length), offset, f"{offset}:{half}", *fields[7:]]
        lines.append(" ".join(fields))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    largest = per_topic.most_common(1)[0][0]
    return largest, differing[largest]


@contextmanager
def database(workdir: Path) -> Iterator[tuple[str, str]]:
    """A PostgreSQL database when one can be had, else SQLite; (URL, what it is)."""
    spec = importlib.util.spec_from_file_location(
        "bench_assessor", Path(__file__).parent / "assessor.py"
    )
    assert spec is not None and spec.loader is not None
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    with helpers.postgres() as server:
        if server is None:
            yield f"sqlite:///{workdir / 'bench.sqlite'}", "SQLite"
            return
        with helpers.fresh_database(server) as url:
            yield url, "PostgreSQL"


def timed(client: Any, path: str, headers: dict[str, str]) -> tuple[float, int]:
    """Milliseconds of one request for `path`, and its status."""
    began = time.perf_counter()
    status = client.get(path, headers=headers).status_code
    return (time.perf_counter() - began) * 1000, status


class Change:
    """`second` moves the best entry point of one of its relevant articles of `topic` (through
    the judging API, as the assessment screen does), between 0 and 1, one step a call."""

    def __init__(self, app: Any, topic: str) -> None:
        with db.session_scope(app) as session:
            user = find_user(session, "second")
            self.token = issue_token(session, user)
            self.assignment, self.article = session.execute(
                select(Assignment.id, Judgement.article)
                .join(Judgement, Judgement.assignment_id == Assignment.id)
                .where(
                    Assignment.topic_id == topic,
                    Assignment.user_id == user.id,
                    Judgement.status == "relevant",
                )
                .limit(1)
            ).one()
        self.client = app.test_client()
        self.steps = 0

    def __call__(self) -> None:
        self.steps += 1
        response = self.client.post(
            f"/api/assignments/{self.assignment}/documents/{self.article}/ops",
            json={"op_id": f"bench-{self.steps}", "op": "set_bep", "offset": self.steps % 2},
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == 200, response.get_data(as_text=True)


def time_page(
    client: Any, path: str, headers: dict[str, str], rounds: int, change: Change
) -> dict[str, Any]:
    """The first request's milliseconds (wall and this process's CPU), the median and slowest
    of `rounds` more, the median and slowest of `rounds` after a change each, and the last
    status."""
    began = time.process_time()
    first, status = timed(client, path, headers)
    first_cpu = (time.process_time() - began) * 1000
    kept = [timed(client, path, headers)[0] for _ in range(rounds)]
    changed = []
    for _ in range(rounds):
        change()
        took, status = timed(client, path, headers)
        changed.append(took)
    return {
        "first": first,
        "first_cpu": first_cpu,
        "median": statistics.median(kept),
        "slowest": max(kept),
        "changed": statistics.median(changed),
        "changed_slowest": max(changed),
        "status": status,
    }


def first_views(url: str, token: str, paths: list[str]) -> dict[str, tuple[float, float]]:
    """Milliseconds of each page's first view in this process (the child's part), in order:
    wall and this process's CPU (the machine is shared; the server's CPU is not in it). The
    app is prepared first as a serving process prepares it before its first request
    (`gunicorn_app.warm`: every template compiled), timed under "start"."""
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
    began, began_cpu = time.perf_counter(), time.process_time()
    warm(app)
    out = {
        "start": ((time.perf_counter() - began) * 1000, (time.process_time() - began_cpu) * 1000)
    }
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    for path in paths:
        began = time.process_time()
        took, status = timed(client, path, headers)
        assert status == 200, (path, status)
        out[path] = (took, (time.process_time() - began) * 1000)
    db.engine_of(app).dispose()
    return out


def in_another_process(url: str, token: str, paths: list[str]) -> dict[str, list[float]]:
    """`first_views` in a new Python process; the token passes through its environment."""
    command = [sys.executable, "-P", __file__, "--child", url, *paths]
    done = subprocess.run(
        command, env={**os.environ, "FOCAL_BENCH_TOKEN": token}, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"the other process failed: {done.stderr}")
    found: dict[str, list[float]] = json.loads(done.stdout.splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)  # URL, then the paths
    args = parser.parse_args()
    if args.child:
        url, *paths = args.child
        print(json.dumps(first_views(url, os.environ["FOCAL_BENCH_TOKEN"], paths)))
        return
    if not QRELS.exists():
        print(f"adjudication pages: skipped ({QRELS} is absent)")
        return
    with tempfile.TemporaryDirectory() as directory, database(Path(directory)) as (url, kind):
        second = Path(directory) / "second.qrels"
        topic, article = changed_copy(QRELS, second)
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench"})
        migrate.upgrade(db.engine_of(app))
        began = time.perf_counter()
        with db.session_scope(app) as session:
            import_qrels(session, QRELS, "first")
        with db.session_scope(app) as session:
            import_qrels(session, second, "second")
            token = issue_token(session, add_user(session, "olga", "organiser", "olga-password"))
        print(
            f"INEX 2010 qrels imported twice ({kind}), {time.perf_counter() - began:.1f} s; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        change = Change(app, topic)
        pages = {
            "agreement overview": "/organiser/agreement",
            f"agreement of topic {topic}": f"/organiser/agreement/{topic}",
            "agreement of one article": f"/organiser/agreement/{topic}/articles/{article}",
            "adjudication topics": "/organiser/adjudicate",
            f"adjudication queue of topic {topic}": f"/organiser/adjudicate/{topic}",
            "adjudication of one article": f"/organiser/adjudicate/{topic}/{article}",
        }
        timings = {
            label: time_page(client, path, headers, args.rounds, change)
            for label, path in pages.items()
        }
        others = in_another_process(url, token, list(pages.values()))
        for label, path in pages.items():
            found = timings[label]
            other, other_cpu = others[path]
            worst = max(found["median"], found["changed"], other)
            verdict = "met" if worst < GOAL_MS else "MISSED"
            print(
                f"  {label:<40} first {found['first']:7.1f} ms (CPU {found['first_cpu']:6.1f})  "
                f"median {found['median']:7.1f} ms "
                f"(slowest {found['slowest']:7.1f})  after a change {found['changed']:7.1f} ms "
                f"(slowest {found['changed_slowest']:7.1f})  "
                f"another process {other:7.1f} ms (CPU {other_cpu:5.1f})  "
                f"status {found['status']}  goal {GOAL_MS:.0f} ms: {verdict}"
            )
            print(
                f"ROW | {label} | {found['first']:.0f} ms (CPU {found['first_cpu']:.0f}) | "
                f"{found['median']:.0f} ms "
                f"(slowest {found['slowest']:.0f}) | {found['changed']:.0f} ms "
                f"(slowest {found['changed_slowest']:.0f}) | {other:.0f} ms "
                f"(CPU {other_cpu:.0f}) | {kind} | {verdict} |"
            )
        start, start_cpu = others["start"]
        print(
            f"  another process's start (templates compiled): {start:.0f} ms (CPU {start_cpu:.0f})"
        )
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        db.engine_of(app).dispose()


if __name__ == "__main__":
    main()
