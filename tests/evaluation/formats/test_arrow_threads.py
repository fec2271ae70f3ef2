"""Reading TREC files starts no thread of Arrow's CPU pool: such threads, still joinable when the
interpreter tears Arrow down at exit, aborted `focal trec_eval` now and then ("terminate called
without an active exception") where the C part is not built. A threaded read starts four here;
a serial one at most the single reader thread of Arrow's I/O pool."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TASKS = Path("/proc/self/task")
PROBE = """
import os, sys
import pyarrow as pa
from focal.evaluation.formats.trec import arrow_table, QRELS_COLUMNS
QRELS_TYPES = {"grade": pa.int64()}
data = open(sys.argv[1], "rb").read()
before = len(os.listdir("/proc/self/task"))
for _ in range(5):
    assert arrow_table(data, QRELS_COLUMNS, QRELS_TYPES) is not None
    assert arrow_table(sys.argv[1], QRELS_COLUMNS, QRELS_TYPES) is not None
print(before, len(os.listdir("/proc/self/task")))
"""


@pytest.mark.skipif(not TASKS.exists(), reason="counts threads in /proc/self/task (Linux)")
def test_reading_qrels_with_arrow_starts_no_thread(tmp_path: Path) -> None:
    qrels = tmp_path / "q.qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {d % 3}\n" for t in range(1, 40) for d in range(300)))
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(qrels)],
        capture_output=True, text=True, check=True, env=environment,
    )  # fmt: skip
    before, after = map(int, done.stdout.split())
    assert after - before <= 1, done.stdout
