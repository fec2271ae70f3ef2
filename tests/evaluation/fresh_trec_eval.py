"""`focal trec_eval` in a fresh interpreter, as the `focal` script starts it, reporting which of
numpy, pyarrow and click it loaded (the last line on stderr: `LOADED` and their names, written
as the process ends, by `os._exit` or at exit): the start-up paths of docs/trec_eval.md, "The C
part", checked from outside."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import atexit, os, sys
def report():
    loaded = sorted({name.split(".")[0] for name in sys.modules} & {"numpy", "pyarrow", "click"})
    sys.stderr.write("LOADED " + " ".join(loaded) + "\\n")
    sys.stderr.flush()
atexit.register(report)  # (an exit through sys.exit)
leave = os._exit  # (`run_process` ends the process at once: atexit runs no hook)
def report_and_leave(code):
    report()
    leave(code)
os._exit = report_and_leave
sys.argv = ["focal", "trec_eval", *sys.argv[1:]]
from focal.assessor.cli import launch
launch()
"""


def fresh_trec_eval(argv: list[str], kernel_choice: str) -> subprocess.CompletedProcess[str]:
    """`focal trec_eval ARGV` with FOCAL_KERNEL=`kernel_choice` and no other FOCAL_ setting."""
    environment = {"FOCAL_KERNEL": kernel_choice, "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True,
                          env=environment, check=False, timeout=120)  # fmt: skip
