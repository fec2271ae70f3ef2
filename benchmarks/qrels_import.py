"""How long `focal import qrels` takes on the real INEX 2010 qrels (39,031 lines), and the export.

Runs on a fresh SQLite file; set FOCAL_BENCH_POSTGRES_URL to a PostgreSQL database URL to time
that too. Prints absolute times (machines are shared and noisy; orientation only).

Run with `python -P` (keeps benchmarks/ off sys.path, where the script names assessor.py and
pooling.py would hide the packages): `.venv/bin/python -P benchmarks/qrels_import.py`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from focal.assessor.campaign.results.qrels_export import collect_qrels, qrels_text
from focal.assessor.campaign.setup.qrels_import import import_qrels
from focal.assessor.store import migrate
from focal.assessor.store.db import normalise_url

QRELS = Path(__file__).resolve().parents[2] / "shared/data/inex2010/inex2010.qrels"


def run(url: str) -> None:
    engine = create_engine(url)
    migrate.upgrade(engine)
    began = time.perf_counter()
    with Session(engine) as session:
        summary = import_qrels(session, QRELS, "inex2010")
        session.commit()
    imported = time.perf_counter() - began
    began = time.perf_counter()
    with Session(engine) as session:
        text = qrels_text(collect_qrels(session, assessor="inex2010"))
    exported = time.perf_counter() - began
    engine.dispose()
    print(
        f"{engine.url.get_backend_name()}: {summary.judgements} lines imported in "
        f"{imported:.2f} s, exported ({len(text)} characters) in {exported:.2f} s"
    )


def main() -> int:
    if not QRELS.exists():
        print(f"skipped: {QRELS} is absent")
        return 0
    with tempfile.TemporaryDirectory() as directory:
        run(f"sqlite:///{directory}/bench.sqlite")
    postgres = os.environ.get("FOCAL_BENCH_POSTGRES_URL")
    if postgres:
        run(normalise_url(postgres))
    return 0


if __name__ == "__main__":
    sys.exit(main())
