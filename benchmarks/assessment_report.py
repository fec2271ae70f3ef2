"""The assessment report and the agreement pages on a campaign the size of INEX 2010.

The real INEX 2010 qrels (52 topics, 39,031 judged articles) are imported with `focal import
qrels`; `build_report` (what `focal report` and the Report page compute) and the Report page
(Flask's test client) are timed as imported, then again after a view log is written for every
article (shown, operated on 40 s later, left: 78,062 view events and 39,031 operations), so
that the times of Table III cover the whole campaign. Then the qrels are imported again as a
second assessor (every topic double-judged) and the agreement table of the two (`focal
agreement --assessors`) and the agreement overview page are timed. Peak memory is the
process's maximum resident set size.

Run with `python -P` (keeps benchmarks/ off sys.path, where the script names assessor.py and
pooling.py would hide the packages): `.venv/bin/python -P benchmarks/assessment_report.py`.
Machines are shared and noisy: the times are orientation, not assertions.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select

from focal.assessor.campaign.people.users import add_user
from focal.assessor.campaign.results.agreement import assessors_table
from focal.assessor.campaign.results.report.assessment_report import build_report
from focal.assessor.campaign.setup.qrels_import import import_qrels
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Assignment, Event, Judgement, User, ViewEvent
from focal.assessor.web.app import create_app

QRELS = Path(__file__).resolve().parents[2] / "shared/data/inex2010/inex2010.qrels"


def timed(label: str, action: object) -> object:
    """Run `action`, print its wall time and this process's CPU time (the machine is shared:
    the CPU time is what the work costs, the wall time also counts waiting for a core)."""
    began, cpu = time.perf_counter(), time.process_time()
    result = action()  # type: ignore[operator]
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    print(f"{label:<48} {wall:6.2f} s wall {used:6.2f} s CPU")
    return result


def write_log(app: object) -> int:
    """shown, an operation 40 s later, left 5 s after it, for every article of `first`."""
    with db.session_scope(app) as session:  # type: ignore[arg-type]
        rows = session.execute(
            select(Judgement.assignment_id, Judgement.article)
            .join(Assignment, Judgement.assignment_id == Assignment.id)
            .join(User, Assignment.user_id == User.id)
            .where(User.name == "first")
        ).all()
        start = datetime(2026, 11, 23, 9, 0, 0)
        views, operations = [], []
        for number, (assignment, article) in enumerate(rows):
            shown = start + timedelta(seconds=60 * number)
            views.append(
                dict(
                    assignment_id=assignment,
                    article=article,
                    kind="shown",
                    event_id=f"s{number}",
                    client_time=shown,
                    server_time=shown,
                )
            )
            views.append(
                dict(
                    assignment_id=assignment,
                    article=article,
                    kind="left",
                    event_id=f"l{number}",
                    client_time=shown + timedelta(seconds=45),
                    server_time=shown,
                )
            )
            operations.append(dict(assignment_id=assignment, article=article, kind="finish",
                                   op_id=f"o{number}", payload={}, server_time=shown,
                                   client_time=shown + timedelta(seconds=40)))  # fmt: skip
        session.execute(insert(ViewEvent), views)
        session.execute(insert(Event), operations)
    return len(rows)


def main() -> int:
    if not QRELS.exists():
        print(f"skipped: {QRELS} is absent")
        return 0
    with tempfile.TemporaryDirectory() as directory:
        app = create_app({"DATABASE_URL": f"sqlite:///{directory}/bench.sqlite",
                          "SECRET_KEY": "bench", "TESTING": True})  # fmt: skip
        migrate.upgrade(db.engine_of(app))
        with db.session_scope(app) as session:
            timed("import qrels as `first`", lambda: import_qrels(session, QRELS, "first"))
            add_user(session, "olga", "organiser", "olga-password")
        client = app.test_client()
        client.post("/login", data={"name": "olga", "password": "olga-password",
                                    "csrf_token": _csrf(client)})  # fmt: skip
        for logged in (False, True):
            if logged:
                count = timed("write the view log", lambda: write_log(app))
                print(f"{count} articles with a view log")
            what = "with the view log" if logged else "imported only"
            with db.session_scope(app) as session:
                report = timed(f"build_report, {what}", lambda: build_report(session))
                times = report.table("times").rows[-1:]  # type: ignore[attr-defined]
                print(f"  times, all row: {times}")
            page = timed(f"GET /organiser/report, {what}", lambda: client.get("/organiser/report"))
            print(f"  status {page.status_code}, {len(page.data)} bytes")  # type: ignore[attr-defined]
        with db.session_scope(app) as session:
            timed("import qrels as `second`", lambda: import_qrels(session, QRELS, "second"))
        with db.session_scope(app) as session:
            table = timed(
                "agreement table (focal agreement --assessors)",
                lambda: assessors_table(session, "first", "second"),
            )
            print(f"  {len(table.rows)} topics")  # type: ignore[attr-defined]
        page = timed("GET /organiser/agreement", lambda: client.get("/organiser/agreement"))
        print(f"  status {page.status_code}, {len(page.data)} bytes")  # type: ignore[attr-defined]
        db.engine_of(app).dispose()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS) {peak:.0f} MiB")
    return 0


def _csrf(client: object) -> str:
    import re

    page = client.get("/login").get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    assert found is not None
    return found.group(1)


if __name__ == "__main__":
    sys.exit(main())
