"""`focal eval --task focused` loads the evaluation and its two array libraries, nothing more.

Start-up is a fixed part of every call that docs/performance.md compares with the INEX program:
the web stack (Flask, SQLAlchemy, Jinja), plotting (matplotlib) and the statistics libraries
(scipy, statsmodels) are imported only by the commands that use them, and neither is
`pyarrow.compute` (it builds a wrapper for every kernel as it is imported; the FOL reader calls
the kernels it needs by name). The check runs the real command line in a fresh interpreter and
reads `sys.modules` as it exits, after the runs are evaluated and printed (two runs and two
workers: the threaded path too).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

QRELS = "1 Q0 100 50 1000 10 10:50\n1 Q0 200 0 800\n2 Q0 300 20 500 0 0:20\n"
RUN = "1 Q0 100 1 0.9 probe 0 100\n1 Q0 200 2 0.8 probe 0 300\n2 Q0 300 1 0.7 probe 0 40\n"
NOT_ON_THE_EVAL_PATH = (
    "flask", "sqlalchemy", "alembic", "jinja2", "werkzeug", "matplotlib", "scipy",
    "statsmodels", "pandas", "lxml",
)  # fmt: skip

PROBE = """
import atexit, sys
atexit.register(lambda: print("MODULES", ",".join(sorted(sys.modules))))
from focal.assessor.cli.main import main
main()
"""


def test_focused_eval_imports_no_web_plotting_or_statistics_library(tmp_path: Path) -> None:
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    qrels, run = str(tmp_path / "q.qrels"), str(tmp_path / "r.run")
    command = [sys.executable, "-c", PROBE, "eval", "--task", "focused", "-j", "2", qrels, run, run]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "MAiP" in done.stdout
    modules = set(done.stdout.rsplit("MODULES ", 1)[1].split()[0].split(","))
    loaded = {module.split(".")[0] for module in modules}
    assert {"focal", "numpy", "pyarrow"} <= loaded
    assert "focal.evaluation.measures" in modules
    assert "pyarrow.compute" not in modules
    assert loaded.isdisjoint(NOT_ON_THE_EVAL_PATH), sorted(loaded & set(NOT_ON_THE_EVAL_PATH))


BLAS_PROBE = """
import atexit, os, sys
from focal.assessor.cli.main import main
print("LOADED", "numpy" in sys.modules, os.environ.get("OPENBLAS_NUM_THREADS"))
main()
"""


def test_numpy_loads_with_one_blas_thread(tmp_path: Path) -> None:
    """numpy's OpenBLAS starts a thread per core as it loads unless OPENBLAS_NUM_THREADS says
    otherwise (evaluation does no linear algebra, and the threads spin for a while): the
    command line sets it, when the user has not, before anything loads numpy."""
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    qrels, run = str(tmp_path / "q.qrels"), str(tmp_path / "r.run")
    command = [sys.executable, "-c", BLAS_PROBE, "eval", qrels, run]
    for given, expected in ((None, "1"), ("2", "2")):
        environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        if given is not None:
            environment["OPENBLAS_NUM_THREADS"] = given
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
        assert "MAiP" in done.stdout
        assert done.stdout.split("\n")[0] == f"LOADED False {expected}"
