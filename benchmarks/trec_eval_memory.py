"""Peak memory and time of `focal trec_eval` as the number of queries grows, beside the C
trec_eval 10.0: does memory stay bounded by a topic block, and does time grow linearly?

Generated for each N of `--queries` (10,000, 100,000 and 1,000,000 by default): plain TREC qrels
of N queries (50 judged documents each, grades 0, 1, 2 and a few -1, drawn as in
benchmarks/articles.py) and one run of N queries × 100 documents (scores with 3 decimals, so
ties occur; ranks in score order), both grouped by topic in ascending order, as campaign files
are. The files are written in blocks of 10,000 queries, never held whole in memory (1,000,000
queries is 4.1 GB of run and 1.4 GB of qrels); free disk is checked first, and a size
that does not fit is refused before anything is written. `--keep DIR` keeps them for the next
call (generating 1,000,000 queries took three minutes on the loaded 2-core machine).

Per N, each program evaluates the pair in one process, as users call it, `--repeat` times
(medians; one call when the first takes over a minute):
- `trec_eval (C)`: the C program (`--trec-eval PATH` or $TREC_EVAL; skipped when absent), only
  up to `--c-max` queries (100,000 by default): it holds both whole files in memory, and it
  finds each query's results by a linear search over all queries (trec_eval.c's main loop), so
  its time grows with the square of the queries (minutes at 100,000, hours at 1,000,000);
- `focal trec_eval`: the `focal` script, under a cap on its address space (`--cap-gib`, 8 by
  default, `RLIMIT_AS` set in the child before it starts), so that a path whose memory grows
  with the file fails (a MemoryError, or pyarrow's allocator aborting) instead of driving this
  machine (23 GiB, no swap) into the kernel's out-of-memory killer.
Where both ran, their outputs are compared byte for byte. Printed per N and program: wall
time, CPU time (user + system, from `wait4`), peak resident memory (`wait4`'s `ru_maxrss`; this
process imports neither numpy nor pyarrow, so a child's peak is its own), the peak as a multiple
of the smallest N's (the issue's goal: within 2× of the 10,000-query peak at 1,000,000) and
wall and CPU seconds per 10,000 queries (constant when time grows linearly). docs/performance.md,
"`focal trec_eval` beside the C program in `make benchmarks`", says how to read them.

    .venv/bin/python -P benchmarks/trec_eval_memory.py [--queries 10000 100000 1000000]
        [--options '-m all_trec'] [--keep DIR] [--repeat 3] [--kernel numpy]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

FOCAL = Path(sys.executable).with_name("focal")
BLOCK = 10_000  # queries generated at once
RESULTS, JUDGED = 100, 50  # documents per query in the run, judged documents per query
GRADES = (-1, 0, 0, 0, 1, 1, 2)  # benchmarks/articles.py's draw
SEED = 17
GIB = 2**30
LONG = 60.0  # seconds: a call longer than this is not repeated


def estimated_bytes(queries: int) -> tuple[int, int]:
    """Upper bounds of the run's and the qrels' sizes: a run line is `T Q0 docT-DDDDDD R S.SSS
    run0` (two ids of at most `digits` characters and 30 more), a qrels line `T 0 docT-DDDDDD G`
    (two ids and at most 17 more)."""
    digits = len(str(queries))
    return queries * RESULTS * (2 * digits + 30), queries * JUDGED * (2 * digits + 17)


def write_pair(folder: Path, queries: int, seed: int) -> None:
    """qrels.txt and run.txt of `queries` queries in `folder`, a block of queries at a time;
    written under temporary names and renamed when complete, so a kept folder holding both
    names holds whole files."""
    qrels_part, run_part = folder / "qrels.txt.part", folder / "run.txt.part"
    with qrels_part.open("wb") as qrels, run_part.open("wb") as run:
        for first in range(0, queries, BLOCK):
            judged, returned = block(first, min(BLOCK, queries - first), seed)
            qrels.write(judged)
            run.write(returned)
    qrels_part.rename(folder / "qrels.txt")
    run_part.rename(folder / "run.txt")


def block(first: int, count: int, seed: int) -> tuple[memoryview, memoryview]:
    """The qrels' and the run's lines of queries first + 1 .. first + count, drawn from a
    generator seeded by (seed, first): a block is the same whatever the file's size. The lines
    are made by pyarrow's string kernels (a Python loop would take minutes for 1,000,000)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    def text(values: np.ndarray) -> pa.Array:
        return pc.cast(pa.array(values.ravel()), pa.string())

    def raw(lines: pa.Array) -> memoryview:
        """The bytes of a string array's values: its lines one after another."""
        offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)
        span = offsets[lines.offset : lines.offset + len(lines) + 1]
        return memoryview(lines.buffers()[2])[span[0] : span[-1]]

    def ids(per_topic: int, numbers: np.ndarray) -> pa.Array:
        """`docT-DDDDDD`: T the query's index from 0, as benchmarks/articles.py names them."""
        prefix = pc.binary_join_element_wise("doc", text(np.repeat(topics, per_topic)), "-", "")
        return pc.binary_join_element_wise(prefix, pc.utf8_lpad(text(numbers), 6, "0"), "")

    rng = np.random.default_rng([seed, first])
    pool = 2 * RESULTS  # documents of a query that the run or the qrels may name
    topics = np.arange(first, first + count)
    judged = np.argsort(rng.random((count, pool)), axis=1)[:, :JUDGED]
    grades = rng.choice(np.array(GRADES), (count, JUDGED))
    docs = np.argsort(rng.random((count, pool)), axis=1)[:, :RESULTS]
    scores = rng.integers(0, 10_001, (count, RESULTS))  # thousandths of 0..10
    order = np.argsort(-scores, axis=1, kind="stable")
    docs, scores = np.take_along_axis(docs, order, 1), np.take_along_axis(scores, order, 1)
    qrels = pc.binary_join_element_wise(
        text(np.repeat(topics + 1, JUDGED)), "0", ids(JUDGED, judged),
        pc.binary_join_element_wise(text(grades), "\n", ""), " ",
    )  # fmt: skip
    score = pc.binary_join_element_wise(
        text(scores // 1000), pc.utf8_lpad(text(scores % 1000), 3, "0"), "."
    )
    run = pc.binary_join_element_wise(
        text(np.repeat(topics + 1, RESULTS)), "Q0", ids(RESULTS, docs),
        text(np.tile(np.arange(1, RESULTS + 1), count)), score, "run0\n", " ",
    )  # fmt: skip
    return raw(qrels), raw(run)


def prepare(root: Path, queries: int, output_bytes: int) -> Path:
    """The folder holding the pair of `queries` queries, generated unless kept from an earlier
    call; exits with code 2 when the disk is short."""
    folder = root / f"queries-{queries}-seed-{SEED}"
    if (folder / "qrels.txt").is_file() and (folder / "run.txt").is_file():
        print(f"{queries} queries: files kept from an earlier call ({folder})")
        return folder
    root.mkdir(parents=True, exist_ok=True)
    need = sum(estimated_bytes(queries)) + output_bytes + GIB  # a GiB left for everyone else
    free = shutil.disk_usage(root).free
    if free < need:
        print(
            f"error: {queries} queries need about {need / GIB:.1f} GiB of disk in {root} "
            f"(run, qrels, outputs, a GiB spare), and {free / GIB:.1f} GiB is free: give a "
            "folder with more room (--keep DIR) or fewer queries (--queries 10000 100000)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    folder.mkdir(exist_ok=True)
    started = time.perf_counter()
    # In a child: this process stays small, for a forked child's peak starts at its parent's.
    subprocess.run([sys.executable, "-P", __file__, "--generate", str(folder), str(queries)],
                   check=True)  # fmt: skip
    size = sum((folder / name).stat().st_size for name in ("run.txt", "qrels.txt"))
    print(f"{queries} queries: {size / 2**20:,.0f} MiB of run and qrels written in "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    return folder


class Call:
    """One call of a program: its exit, wall and CPU seconds, peak resident MiB, last error."""

    def __init__(self, command: Sequence[str], out: Path, env: dict[str, str], cap: int) -> None:
        def limit() -> None:
            if cap:
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

        with out.open("wb") as stdout, tempfile.TemporaryFile() as stderr:
            started = time.perf_counter()
            process = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=env,
                                       preexec_fn=limit)  # fmt: skip
            _, status, usage = os.wait4(process.pid, 0)
            self.wall = time.perf_counter() - started
            stderr.seek(0)
            lines = stderr.read().decode(errors="replace").strip().splitlines()
        self.code = os.waitstatus_to_exitcode(status)
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak = usage.ru_maxrss / 1024
        self.error = lines[-1][:160] if lines else ""


def measure(
    tool: str, command: list[str], out: Path, env: dict[str, str], cap: int, repeat: int
) -> dict[str, float] | None:
    """Medians of `repeat` calls (one only when the first takes more than LONG seconds), or
    None, with the reason printed, when a call fails."""
    calls: list[Call] = []
    while len(calls) < repeat and not (calls and calls[0].wall > LONG):
        call = Call(command, out, env, cap)
        if call.code != 0:
            memory = "MemoryError" in call.error or call.code < 0
            why = f"; out of its {cap / GIB:g} GiB address space" if cap and memory else ""
            print(f"  {tool}: failed (exit {call.code}, {call.cpu:.1f} s CPU, peak "
                  f"{call.peak:,.0f} MiB{why}): {call.error}")  # fmt: skip
            return None
        calls.append(call)
    if len(calls) < repeat:
        print(f"  {tool}: one call only (it took {calls[0].wall:.0f} s)")
    return {
        "wall": statistics.median(c.wall for c in calls),
        "cpu": statistics.median(c.cpu for c in calls),
        "peak": statistics.median(c.peak for c in calls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--options", default="", help="trec_eval options, such as '-m all_trec'")
    parser.add_argument("--keep", type=Path, help="folder keeping the generated files")
    parser.add_argument("--repeat", type=int, default=3, help="calls per program and size")
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL", "trec_eval"))
    parser.add_argument("--focal", type=Path, default=FOCAL, help="the focal script to time")
    parser.add_argument("--c-max", type=int, default=100_000, help="largest N for the C program")
    parser.add_argument("--cap-gib", type=float, default=8.0, help="Focal's address space")
    parser.add_argument("--kernel", default=os.environ.get("FOCAL_KERNEL", "auto"),
                        help="FOCAL_KERNEL for Focal: auto, c or numpy")  # fmt: skip
    parser.add_argument("--generate", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        write_pair(Path(args.generate[0]), int(args.generate[1]), SEED)
        return
    if min(args.queries) < 1 or args.repeat < 1 or args.cap_gib <= 0:
        parser.error("--queries, --repeat and --cap-gib take positive numbers (--queries 10000)")
    with tempfile.TemporaryDirectory() as scratch:
        run_all(args, args.keep or Path(scratch))


def run_all(args: argparse.Namespace, root: Path) -> None:
    """Every size in turn, then the table."""
    given = shlex.split(args.options)
    c_program = shutil.which(args.trec_eval)
    env = {**os.environ, "FOCAL_KERNEL": args.kernel}
    cap = int(args.cap_gib * GIB)
    version = subprocess.run(
        [str(args.focal), "--version"], capture_output=True, text=True, env=env
    )
    part = [line for line in version.stdout.splitlines() if "C part" in line]
    print(f"focal: {part[0].strip() if part else version.stdout.strip()}; "
          f"address space capped at {args.cap_gib:g} GiB; options: {args.options or '(none)'}; "
          f"medians of {args.repeat} calls")  # fmt: skip
    if not c_program:
        print(f"trec_eval (C): not found ({args.trec_eval}; set TREC_EVAL), skipped")
    rows: list[tuple[int, str, dict[str, float] | None]] = []
    differ = []
    for queries in sorted(set(args.queries)):
        per_query_output = 16_384 if "-q" in given else 0  # a generous bound of -q's lines
        folder = prepare(root, queries, 2 * per_query_output * queries)
        files = [str(folder / "qrels.txt"), str(folder / "run.txt")]
        figures: dict[str, dict[str, float] | None] = {}
        if c_program and queries > args.c_max:
            print(f"  trec_eval (C): skipped above {args.c_max:,} queries (--c-max): it holds "
                  "both whole files in memory, and its time grows with the square of the "
                  "queries (a linear search for each query's results)")  # fmt: skip
        elif c_program:
            command = [c_program, *given, *files]
            out = folder / "out-c.txt"
            figures["trec_eval (C)"] = measure("trec_eval (C)", command, out, env, 0, args.repeat)
        command = [str(args.focal), "trec_eval", *given, *files]
        figures["focal trec_eval"] = measure(
            "focal trec_eval", command, folder / "out-focal.txt", env, cap, args.repeat
        )
        if figures.get("trec_eval (C)") and figures["focal trec_eval"]:
            same = filecmp.cmp(folder / "out-c.txt", folder / "out-focal.txt", shallow=False)
            print(f"  {queries:,} queries: outputs {'identical' if same else 'DIFFER'} "
                  "(focal trec_eval, trec_eval), byte for byte")  # fmt: skip
            differ += [] if same else [queries]
        for name in ("out-c.txt", "out-focal.txt"):
            (folder / name).unlink(missing_ok=True)
        rows += [(queries, tool, figure) for tool, figure in figures.items()]
    print_table(rows)
    if differ:
        sys.exit(f"error: focal trec_eval's output differs from trec_eval's at {differ} queries")


def print_table(rows: list[tuple[int, str, dict[str, float] | None]]) -> None:
    """Per size and program: wall, CPU, peak, the peak over the smallest size's, and seconds per
    10,000 queries (wall and CPU)."""
    smallest: dict[str, float] = {}
    for _, tool, figure in sorted(rows, key=lambda row: row[0]):
        if figure is not None:
            smallest.setdefault(tool, figure["peak"])
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'queries':>10}  {'program':<16}{'wall s':>9}{'CPU s':>9}{'peak MiB':>10}"
          f"{'x peak':>8}{'wall/10k':>10}{'CPU/10k':>9}")  # fmt: skip
    for queries, tool, figure in rows:
        if figure is None:
            print(f"{queries:>10,}  {tool:<16}{'failed':>9}")
            continue
        per = 10_000 / queries
        print(f"{queries:>10,}  {tool:<16}{figure['wall']:>9.2f}{figure['cpu']:>9.2f}"
              f"{figure['peak']:>10,.0f}{figure['peak'] / smallest[tool]:>8.2f}"
              f"{figure['wall'] * per:>10.3f}{figure['cpu'] * per:>9.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
