"""Focused iP/MAiP of many runs in one call: `focal eval` beside the INEX evaluation program.

The passage line of docs/performance.md. Generated as benchmarks/evaluation.py generates them:
FOL qrels of 100 topics (60 relevant articles with three passages each, 400 judged non-relevant)
and FOL runs of 100 topics x 1500 results. Both programs evaluate the focused task of every run
in one call, each in a fresh process; wall time, CPU time (user + system, workers included) and
peak resident memory (the largest process of the call) come from `wait4`. Before a ratio is
printed, the `all` rows of both (MAiP, iP[x], ircl_prn.x, counts) are checked to agree to 1e-12
(the last bits differ: the INEX program sums topics in string order, Focal in natural order).

The INEX program is not shipped with Focal: give its compiled classes or jar with `--inex-eval`
(or the INEX_EVAL environment variable); it is called as `java -cp PATH inex_eval.inex_eval -f
QRELS RUN...`, the command line of inex_eval 1.0 (INEX 2009-2010). Without it the line says
"peer not available". Focal's peak memory is also measured with 10, 20 and 40 runs: it must not
grow with the number of runs (runs are evaluated one at a time per worker, `-j` all cores).

    .venv/bin/python -P benchmarks/passages.py [--runs 20 --topics 100 --results 1500]
        [--inex-eval PATH] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOCAL = [sys.executable, "-P", "-c", "import sys; from focal.assessor.cli.main import main; main()"]
MEMORY_RUNS = (10, 20, 40)
AIM = 0.25
_ALL_ROW = re.compile(r"^(\S+)\s+all\s+(\S+)$")


def write_synthetic(folder: Path, topics: int, results: int, runs: int) -> list[Path]:
    """The qrels and runs of benchmarks/evaluation.py (loaded by path: `-P` keeps it off
    sys.path, and its name would shadow the evaluation package)."""
    spec = importlib.util.spec_from_file_location("bench_eval", ROOT / "benchmarks/evaluation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    paths: list[Path] = module.write_synthetic(folder, topics, results, runs, seed=7)
    return paths


# Runs a command as its own child and prints the child's wall time (from fork to exit), peak
# memory and CPU time. `wait4` on a command started straight from here would count this
# process's memory too: Linux carries the peak resident size across fork and exec, and this
# process holds the generated files' numpy work. The launcher's own start-up (a Python
# interpreter, some 20 ms) is left out of both sides' wall times.
LAUNCHER = """
import os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - started, usage.ru_maxrss, usage.ru_utime + usage.ru_stime,
      os.waitstatus_to_exitcode(status), file=sys.stderr)
"""


def measured(command: list[str], output: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (workers included) and peak MiB of `command` (stdout to
    `output`)."""
    with output.open("w") as stream:
        done = subprocess.run(
            [sys.executable, "-c", LAUNCHER, *command],
            cwd=ROOT, stdout=stream, stderr=subprocess.PIPE, text=True, check=True,
        )  # fmt: skip
    seconds, kib, cpu, status = done.stderr.split()
    if int(status):
        raise SystemExit(f"{command[0]} failed (exit {status}); see {output}")
    return float(seconds), float(cpu), int(kib) / 1024


def compile_focal() -> None:
    """Write the bytecode of Focal's packages before measuring, as installing it does: where
    PYTHONDONTWRITEBYTECODE is set, every call would otherwise compile them again (about 40
    modules on the `focal eval` path), a cost no installed Focal pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "focal"], cwd=ROOT, check=True)


def all_rows(output: Path) -> dict[tuple[str, str], float]:
    """(run id, row) -> value of the `all` rows of an INEX-format output."""
    rows, run = {}, ""
    for line in output.read_text().splitlines():
        if line.startswith("<eval run-id="):
            run = line.split('"')[1]
        elif match := _ALL_ROW.match(line.replace("\t\t", "\t")):
            rows[run, match[1]] = float(match[2])
    return rows


def agree(ours: Path, theirs: Path) -> bool:
    """Whether every `all` row the INEX program prints has the same value in Focal's output."""
    mine, official = all_rows(ours), all_rows(theirs)
    return bool(official) and all(
        key in mine and math.isclose(mine[key], value, rel_tol=1e-12, abs_tol=1e-15)
        for key, value in official.items()
    )


def row(job: str, ours: tuple[float, float, float], peer: str, ratio: str, load: float) -> str:
    seconds, cpu, mib = ours
    return (
        f"TABLE | {job} | {seconds:.2f} s (CPU {cpu:.2f} s), {mib:.0f} MiB | {peer} | {ratio} "
        f"| ≤ {AIM} | {load:.1f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3, help="calls per side (best is kept)")
    parser.add_argument("--inex-eval", default=os.environ.get("INEX_EVAL"), help="classes or jar")
    options = parser.parse_args()
    peer_path = options.inex_eval
    runs = max(options.runs, *MEMORY_RUNS)
    compile_focal()
    with tempfile.TemporaryDirectory(prefix="passages-") as name:
        folder = Path(name)
        paths = list(map(str, write_synthetic(folder, options.topics, options.results, runs)))
        qrels = str(folder / "synthetic.qrels")
        batch = paths[: options.runs]
        focal = [*FOCAL, "eval", qrels, *batch]
        java = ["java", "-cp", str(peer_path), "inex_eval.inex_eval", "-f", qrels, *batch]
        best: dict[str, tuple[float, float, float]] = {}
        for _ in range(options.repeat):  # alternate, so that both see the same load
            for who, command in (("focal", focal), ("peer", java)):
                if who == "peer" and not peer_path:
                    continue
                figures = measured(command, folder / f"{who}.out")
                if who not in best or figures[0] < best[who][0]:
                    best[who] = figures
        load = os.getloadavg()[0]
        size = f"{options.runs} runs x {options.topics} topics x {options.results}"
        print(f"\nfocused iP/MAiP, {size}, one call ({os.cpu_count()} cores, load {load:.1f})")
        print(f"{'':<24}{'wall s':>9}{'CPU s':>9}{'peak MiB':>10}")
        for who, (seconds, cpu, mib) in best.items():
            print(f"{'focal eval' if who == 'focal' else 'INEX program':<24}"
                  f"{seconds:>9.2f}{cpu:>9.2f}{mib:>10.0f}")  # fmt: skip
        for count in MEMORY_RUNS:
            figures = measured([*FOCAL, "eval", qrels, *paths[:count]], folder / "memory.out")
            print(f"  focal eval, {count} runs: {figures[0]:.2f} s, peak {figures[2]:.0f} MiB")
        job = f"focused iP/MAiP, {options.runs} × {options.topics} × {options.results}, one call"
        if "peer" not in best:
            print(row(job, best["focal"], "peer not available (give --inex-eval)", "-", load))
            return 0
        if not agree(folder / "focal.out", folder / "peer.out"):
            print("focal eval and the INEX program print different values", file=sys.stderr)
            return 1
        print(f"checked: the `all` rows of the {options.runs} runs agree to 1e-12")
        ours, our_cpu, our_mib = best["focal"]
        theirs, their_cpu, their_mib = best["peer"]
        peer = f"inex_eval 1.0 (Java): {theirs:.2f} s (CPU {their_cpu:.2f} s), {their_mib:.0f} MiB"
        ratio = f"**{ours / theirs:.2f}**, {our_cpu / their_cpu:.2f}, {our_mib / their_mib:.2f}"
        print(row(job, best["focal"], peer, ratio, load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
