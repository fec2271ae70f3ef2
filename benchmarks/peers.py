"""Focal beside a peer on the same generated files, end to end, each in a fresh process.

Pooling lines of docs/performance.md: `focal pool build --size 500 -o POOL RUN...` against a plain
Python top-n pooler that reads the same FOL run files with `line.split()` and keeps dicts and
lists (the program one would write without Focal). Both write the pool in Focal's format; the two
files must be identical. Printed: wall seconds, peak resident memory (VmHWM of the process) and
the ratios Focal / peer, with the load average when the line was measured.

Run files are synthetic (as benchmarks/pooling.py draws them: runs agree near the top, a quarter
of a run's articles come back several times, about 30 rounds fill a pool of 500), generated one
run at a time into a temporary folder:

- `--runs 100 --topics 50 --results 1500` (the default): about 340 MB of runs;
- `--inex` adds INEX 2006 scale, 333 runs x 125 topics x 1500 results (2.8 GB of runs, several
  minutes to write): the figures of docs/performance.md.

Article measures against pytrec_eval, ir_measures and trectools are benchmarks/articles.py; passage
measures against the official INEX program are benchmarks/evaluation.py.

    .venv/bin/python -P benchmarks/peers.py [--runs 100 --topics 50 --results 1500] [--inex]
        [--folder DIR]

Each line ends with a `TABLE |` row of docs/performance.md's table (benchmarks/table.py gathers
them); wall time, CPU time (user + system) and peak memory of each side are printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = 5000
INEX_SCALE = (333, 125, 1500)  # runs, topics, results of INEX 2006

# Peak memory: VmHWM, the high-water mark of the process's own memory, printed last on stderr.
FOCAL = """
import sys
from pathlib import Path
from focal.assessor.cli.main import main
try:
    main(sys.argv[1:], prog_name="focal")
finally:
    print(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0], file=sys.stderr)
"""

PEER = """
import sys
from pathlib import Path

def natural(identifier):
    return (0, int(identifier), "") if identifier.isdigit() else (1, 0, identifier)

def main(size, output, paths):
    runs = []
    for path in paths:
        topics = {}
        with open(path) as stream:
            for line in stream:
                fields = line.split()
                topics.setdefault(fields[0], []).append(fields[2])
        runs.append((fields[5], topics))
    rows = ["topic\\tarticle\\tfirst_round\\tbest_rank\\tcontributing_runs\\n"]
    for topic in sorted({t for _, topics in runs for t in topics}, key=natural):
        lists = [(run_id, topics.get(topic, [])) for run_id, topics in runs]
        longest = max(len(articles) for _, articles in lists)
        pool, k = {}, 0
        while len(pool) < size and k < longest:
            k += 1
            for index, (_, articles) in enumerate(lists):
                if k <= len(articles):
                    row = pool.setdefault(articles[k - 1], [k, set()])
                    row[1].add(index)
        for article in sorted(pool, key=natural):
            first, contributors = pool[article]
            names = ",".join(lists[index][0] for index in sorted(contributors))
            rows.append(f"{topic}\\t{article}\\t{first}\\t{first}\\t{names}\\n")
    Path(output).write_text("".join(rows))

try:
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3:])
finally:
    print(Path("/proc/self/status").read_text().split("VmHWM:")[1].split()[0], file=sys.stderr)
"""


def write_runs(folder: Path, runs: int, topics: int, results: int, seed: int) -> list[Path]:
    """FOL run files drawn as benchmarks/pooling.py draws its runs, one run in memory at a time."""
    rng = np.random.default_rng(seed)
    paths = []
    ranks = np.arange(1, results + 1)
    scores = [f"{(results - rank + 1) / results:.4f}" for rank in ranks.tolist()]
    for r in range(runs):
        run_id = f"run{r:03d}"
        lines = []
        for t in range(topics):
            quality = (rng.pareto(0.7, results) * 500).astype(np.int64) % CANDIDATES
            order = np.argsort(quality + rng.normal(0.0, 300.0, results), kind="stable")
            articles = (quality[order] + 1_000_000 + t * CANDIDATES).tolist()
            offsets = rng.integers(0, 20_000, results).tolist()
            lengths = rng.integers(1, 3_000, results).tolist()
            topic = 2006_001 + t
            lines.extend(
                f"{topic} Q0 {a} {k} {s} {run_id} {o} {n}\n"
                for a, k, s, o, n in zip(
                    articles, ranks.tolist(), scores, offsets, lengths, strict=True
                )
            )
        path = folder / f"{run_id}.fol.run"
        path.write_text("".join(lines), encoding="ascii")
        paths.append(path)
    return paths


def timed(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak resident MiB (the VmHWM in KiB the command prints last) and CPU
    seconds (user + system, from `wait4`) of a command."""
    with tempfile.TemporaryFile("w+") as errors:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        errors.seek(0)
        text = errors.read()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{command[:6]} failed:\n{text}")
    return seconds, int(text.split()[-1]) / 1024, usage.ru_utime + usage.ru_stime


def table_row(job: str, ours: tuple[float, float, float], peer: str, ratio: str, aim: str) -> str:
    """A line of the table of docs/performance.md (benchmarks/table.py collects them)."""
    seconds, mib, cpu = ours
    load = os.getloadavg()[0]
    focal = f"{seconds:.2f} s (CPU {cpu:.2f} s), {mib:.0f} MiB"
    return f"TABLE | {job} | {focal} | {peer} | {ratio} | {aim} | {load:.1f} |"


def pooling_line(
    runs: int, topics: int, results: int, seed: int, repeat: int, keep: Path | None
) -> bool:
    with tempfile.TemporaryDirectory(prefix="peers-") as name:
        folder = Path(name)
        started = time.perf_counter()
        if keep is None:
            paths = write_runs(folder, runs, topics, results, seed)
        else:  # files kept between calls (`--folder`): written once per size
            kept = keep / f"{runs}x{topics}x{results}-{seed}"
            if not (kept / "complete").exists():
                kept.mkdir(parents=True, exist_ok=True)
                write_runs(kept, runs, topics, results, seed)
                (kept / "complete").touch()
            paths = sorted(kept.glob("*.fol.run"))
        size = sum(path.stat().st_size for path in paths) / 2**20
        print(
            f"\ntop-500 pool, {runs} runs x {topics} topics x {results} results "
            f"({size:.0f} MiB of FOL runs, written in {time.perf_counter() - started:.0f} s)"
        )
        files = list(map(str, paths))
        focal_pool, peer_pool = folder / "focal.tsv", folder / "peer.tsv"
        focal = [sys.executable, "-P", "-c", FOCAL, "pool", "build", "--size", "500"]
        peer = [sys.executable, "-P", "-c", PEER, "500", str(peer_pool), *files]
        best: dict[str, tuple[float, float, float]] = {}
        for _ in range(repeat):  # alternate, so that both see the same load
            for who, command in (
                ("focal", [*focal, "-o", str(focal_pool), *files]),
                ("peer", peer),
            ):
                figures = timed(command)
                if who not in best or figures[0] < best[who][0]:
                    best[who] = figures
        if focal_pool.read_bytes() != peer_pool.read_bytes():
            print("focal and the plain Python pooler wrote different pools", file=sys.stderr)
            return False
    (ours, our_mib, our_cpu), (theirs, their_mib, their_cpu) = best["focal"], best["peer"]
    print(f"{'':<28}{'wall s':>9}{'CPU s':>9}{'peak MiB':>10}")
    print(f"{'focal pool build':<28}{ours:>9.2f}{our_cpu:>9.2f}{our_mib:>10.0f}")
    print(f"{'plain Python pooler':<28}{theirs:>9.2f}{their_cpu:>9.2f}{their_mib:>10.0f}")
    print(
        f"{'ratio focal / peer':<28}{ours / theirs:>9.2f}{our_cpu / their_cpu:>9.2f}"
        f"{our_mib / their_mib:>10.2f}"
        f"   (best of {repeat}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    inex = (runs, topics, results) == INEX_SCALE
    job = f"top-500 pool{' at INEX 2006 scale' if inex else ''}, {runs} × {topics} × {results}"
    peer = f"plain Python pooler: {theirs:.2f} s (CPU {their_cpu:.2f} s), {their_mib:.0f} MiB"
    ratio = f"**{ours / theirs:.2f}**, {our_cpu / their_cpu:.2f}, {our_mib / their_mib:.2f}"
    print(table_row(job, best["focal"], peer, ratio, "< 10 s, < 1 GiB" if inex else "≤ 0.5"))
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=2006)
    parser.add_argument("--repeat", type=int, default=2, help="Calls per side (best is kept).")
    parser.add_argument("--inex", action="store_true", help="Also 333 x 125 x 1500 (minutes).")
    parser.add_argument(
        "--folder",
        type=Path,
        help="Keep the generated runs here and reuse them (2.8 GiB at INEX scale).",
    )
    options = parser.parse_args()
    sizes = [(options.runs, options.topics, options.results)]
    if options.inex:
        sizes.append(INEX_SCALE)
    for runs, topics, results in sizes:
        if not pooling_line(runs, topics, results, options.seed, options.repeat, options.folder):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
