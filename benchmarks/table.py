"""The table of docs/performance.md: every job of Focal beside its peer, with the ratios and aims.

Runs the three side-by-side benchmarks, each in a process of its own, shows their output as it
comes, and prints at the end the `TABLE |` rows they end with as one Markdown table, with the
machine, the date and the load average:

- benchmarks/peers.py: top-500 pool of 100 runs x 50 topics x 1500 results against a plain
  Python pooler (with `--inex`, also the INEX 2006 scale, 333 x 125 x 1500: 2.8 GiB of runs
  written, and the plain pooler needs 4.4 GiB of memory; minutes, so not by default);
- benchmarks/articles.py: article measures against pytrec_eval (and ir_measures);
- benchmarks/passages.py: focused iP/MAiP of 20 runs in one call against the INEX program, when
  it is given (`--inex-eval PATH` or INEX_EVAL; otherwise "peer not available").

    .venv/bin/python -P benchmarks/table.py [--inex] [--folder DIR] [--inex-eval PATH]

`make benchmarks` runs it (INEX_EVAL=PATH and BENCH_INEX=1 pass the two options on).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = (
    "| job | Focal | peer | ratio (wall, CPU, memory) | aim | load |\n|---|---|---|---|---|---|"
)


def rows_of(script: str, arguments: list[str]) -> list[str]:
    """Run a benchmark, echo its output, return its table rows (without the `TABLE ` mark)."""
    print(f"== benchmarks/{script}", flush=True)
    command = [sys.executable, "-P", str(HERE / script), *arguments]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    rows = []
    for line in process.stdout:
        print(line, end="", flush=True)
        if line.startswith("TABLE | "):
            rows.append(line.removeprefix("TABLE ").rstrip("\n"))
    if process.wait():
        raise SystemExit(f"benchmarks/{script} failed (exit {process.returncode})")
    return rows


def machine() -> str:
    """CPU model, cores, memory and Python: the line above the table."""
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return (
        f"{model}, {os.cpu_count()} cores, {pages / 2**30:.0f} GiB, "
        f"Python {platform.python_version()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--inex", action="store_true", default=bool(os.environ.get("BENCH_INEX")))
    parser.add_argument("--folder", help="where peers.py keeps (and reuses) its generated runs")
    parser.add_argument("--inex-eval", default=os.environ.get("INEX_EVAL"))
    options = parser.parse_args()
    pooling = ["--inex"] if options.inex else []
    if options.folder:
        pooling += ["--folder", options.folder]
    rows = rows_of("peers.py", pooling)
    rows += rows_of("articles.py", [])
    rows += rows_of("passages.py", ["--inex-eval", options.inex_eval] if options.inex_eval else [])
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"\n{stamp}, {machine()}; load average now {os.getloadavg()[0]:.1f}\n")
    print(HEADER)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
