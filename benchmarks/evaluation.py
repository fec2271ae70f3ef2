"""Speed of `focal eval`: the shared runs per task, and synthetic runs of 100 topics x 1500 results.

Figures (wall time, one machine, one run of the script; processes: best of `--repeat`):
- `focal eval` as a process (start-up, parsing, evaluation, output) for each task on the shared
  indri-passages runs, when ../shared is present;
- one synthetic 1500-result run over 100 topics: `focal eval` as a process and its steps
  in-process, before (records: `read_run`, qrels line by line, measures from records) and after
  (columns: `read_run_columns`, the qrels fast path, measures from columns); and both against a
  straightforward per-line Python loop (the ratio baseline) for evaluating, and for reading plus
  evaluating;
- 100 synthetic runs in one call: one process (-j 1) against all cores (the process pool), with
  the CPU time the processes used (cores busy = CPU time / wall time).

    .venv/bin/python -P benchmarks/evaluation.py [--topics 100 --results 1500 --runs 100]

(`-P` keeps `benchmarks/` off `sys.path`, so that this file does not shadow the `evaluation`
package; the script also puts the repository first on `sys.path` for plain `python`.)
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from focal.evaluation.formats.fol.columns import read_run_columns  # noqa: E402
from focal.evaluation.formats.fol.qrels import _read_lines, read_qrels  # noqa: E402
from focal.evaluation.formats.fol.runs import read_run  # noqa: E402
from focal.evaluation.formats.records import Judgement  # noqa: E402
from focal.evaluation.formats.source import decode_lines, read_bytes  # noqa: E402
from focal.evaluation.measures.evaluate import PreparedQrels, evaluate  # noqa: E402

FOCAL = [
    sys.executable,
    "-c",
    "import sys; from focal.assessor.cli.main import main; sys.exit(main())",
]
SHARED = ROOT.parent / "shared" / "data" / "inex2010"
SHARED_CASES = {"focused": "fol", "thorough": "fol", "ric": "ric", "bic": "bic", "t2i": "ric"}
T = TypeVar("T")
Lines = dict[str, list[tuple[str, int, int, int]]]  # topic -> (article, start, length, line)


def write_synthetic(folder: Path, topics: int, results: int, runs: int, seed: int) -> list[Path]:
    """Qrels with 60 relevant and 400 non-relevant articles per topic, and `runs` FOL runs."""
    rng = np.random.default_rng(seed)
    lines = []
    for t in range(topics):
        for a in range(460):
            size = int(rng.integers(2000, 20000))
            if a < 60:
                cuts = np.sort(rng.choice(size, 6, replace=False))
                spans = [(int(cuts[i]), int(cuts[i + 1] - cuts[i])) for i in (0, 2, 4)]
                rel = sum(length for _, length in spans)
                passages = " ".join(f"{s}:{n}" for s, n in spans)
                lines.append(f"{t} Q0 {t * 1000 + a} {rel} {size} {spans[0][0]} {passages}")
            else:
                lines.append(f"{t} Q0 {t * 1000 + a} 0 {size}")
    (folder / "synthetic.qrels").write_text("\n".join(lines) + "\n")
    paths = []
    for r in range(runs):
        out = []
        for t in range(topics):
            articles = rng.choice(2000, results // 3, replace=False)
            for rank in range(results):
                article = t * 1000 + int(articles[rank // 3])
                start = (rank % 3) * 700
                out.append(f"{t} Q0 {article} {rank + 1} {1.0 / (rank + 1):.6f} run{r} {start} 600")
        path = folder / f"run{r:03d}.fol.run"
        path.write_text("\n".join(out) + "\n")
        paths.append(path)
    return paths


def per_line_read(path: Path) -> Lines:
    """A FOL run the straightforward way: split every line, convert the fields it needs."""
    topics: Lines = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            topics.setdefault(fields[0], []).append(
                (fields[2], int(fields[6]), int(fields[7]), number)
            )
    return topics


def per_line_baseline(qrels: dict[str, dict[str, Judgement]], run: Lines) -> dict[str, float]:
    """Focused rows the straightforward way: every line, every passage, Python floats; the
    same output as `evaluate` (counts, sizes, overlap check, iP curve, AiP)."""
    scores = {}
    for topic, results in run.items():
        judged = qrels.get(topic, {})
        total = sum(j.rel_chars for j in judged.values())
        relret = ret = 0
        curve = [0.0] * 101
        taken: dict[str, list[tuple[int, int]]] = {}
        for article, start, length, number in results:
            end = start + length
            spans = taken.setdefault(article, [])
            if any(s < end and start < e for s, e in spans):
                raise ValueError(f"overlap on line {number}")
            spans.append((start, end))
            judgement = judged.get(article)
            if judgement is not None:
                for s, e in judgement.passages:
                    relret += max(0, min(end, e) - max(start, s))
            ret += length
            level = math.floor(100 * (relret / total)) if total else 0
            curve[level] = max(curve[level], relret / ret)
        for i in range(99, -1, -1):
            curve[i] = max(curve[i], curve[i + 1])
        relevant = {a for a, j in judged.items() if j.rel_chars > 0}
        counts = (len(taken), len(relevant), len(relevant & taken.keys()), ret, total, relret)
        assert counts[0] > 0
        scores[topic] = sum(curve) / 101
    return scores


def timed(action: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def wall(command: list[str], repeat: int = 1) -> tuple[float, float]:
    """Best wall time of `repeat` runs of `command`, and the CPU time (user + system) it used."""
    best, cpu = math.inf, 0.0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if seconds < best:
            best = seconds
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return best, cpu


def row(label: str, before: float, after: float) -> None:
    print(f"  {label:38s} {before:7.3f} s  {after:7.3f} s  {before / after:6.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="processes: best of this many")
    arguments = parser.parse_args()

    if SHARED.exists():
        print("shared indri-passages runs, `focal eval -q` as a process:")
        for task, kind in SHARED_CASES.items():
            run_path = SHARED / "runs" / f"indri-passages.{kind}.run"
            qrels_file = SHARED / "inex2010.qrels"
            command = [*FOCAL, "eval", "--task", task, "-q", str(qrels_file), str(run_path)]
            print(f"  {task:9s} {wall(command, arguments.repeat)[0]:6.3f} s")
    else:
        print(f"(no shared data at {SHARED}: shared-run figures skipped)")

    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        paths = write_synthetic(folder, arguments.topics, arguments.results, arguments.runs, seed=7)
        qrels_path = folder / "synthetic.qrels"
        size = f"{arguments.topics} topics x {arguments.results} results"
        print(f"one synthetic run ({size}):")
        start_up, _ = wall(
            [
                sys.executable,
                "-c",
                "import focal.assessor.cli.main, focal.evaluation.cli.eval.command",
            ],
            3,
        )
        bare, _ = wall([sys.executable, "-c", "pass"], 3)
        seconds, _ = wall([*FOCAL, "eval", str(qrels_path), str(paths[0])], arguments.repeat)
        print(f"  {'focal eval (process, all steps)':38s} {seconds:7.3f} s")
        print(f"    of which interpreter start {bare:.3f} s, imports {start_up - bare:.3f} s")
        print(f"  {'in-process steps':38s} {'before':>9s}  {'after':>9s}  {'ratio':>7s}")
        print(f"  {'':38s} {'(records)':>9s}  {'(columns)':>9s}")
        lines = decode_lines(read_bytes(qrels_path), str(qrels_path))
        old_qrels, old_qrels_time = timed(lambda: _read_lines(lines, str(qrels_path)))
        qrels, qrels_time = timed(lambda: read_qrels(qrels_path))
        assert qrels == old_qrels
        row("read the qrels", old_qrels_time, qrels_time)
        records, records_time = timed(lambda: read_run(paths[0]))
        columns, columns_time = timed(lambda: read_run_columns(paths[0]))
        row("read the run", records_time, columns_time)
        prepared = PreparedQrels(qrels)
        _, prepare_time = timed(lambda: [prepared.text(topic) for topic in qrels])
        old, old_time = timed(lambda: evaluate(prepared, records, "focused"))
        ours, ours_time = timed(lambda: evaluate(prepared, columns, "focused"))
        assert [t.values for t in old.topics] == [t.values for t in ours.topics]
        print(f"  {'index the qrels (once per call)':38s} {prepare_time:7.3f} s")
        row("evaluate focused", old_time, ours_time)
        row(
            "total",
            old_qrels_time + records_time + prepare_time + old_time,
            qrels_time + columns_time + prepare_time + ours_time,
        )
        baseline_run, baseline_read = timed(lambda: per_line_read(paths[0]))
        baseline, baseline_time = timed(lambda: per_line_baseline(qrels, baseline_run))
        for topic in ours.topics:
            assert abs(float(topic.values["AiP"]) - baseline[topic.topic]) < 1e-12
        print("  against a per-line Python loop (baseline):")
        row("evaluate focused: loop / ours", baseline_time, prepare_time + ours_time)
        row(
            "read the run + evaluate: loop / ours",
            baseline_read + baseline_time,
            columns_time + prepare_time + ours_time,
        )
        for task in ("thorough", "ric", "t2i"):  # bic needs one line per article
            fresh = PreparedQrels(qrels)
            _, seconds = timed(lambda task=task, fresh=fresh: evaluate(fresh, columns, task))
            print(f"  {f'evaluate {task} (columns, indexing)':38s} {seconds:7.3f} s")

        batch = [str(p) for p in paths]
        cores = os.cpu_count() or 1
        print(f"{len(paths)} synthetic runs in one call ({cores} cores):")
        one, one_cpu = wall([*FOCAL, "eval", "-j", "1", str(qrels_path), *batch])
        both, both_cpu = wall([*FOCAL, "eval", str(qrels_path), *batch])
        busy = f"{one_cpu / one:4.2f} cores busy"
        print(f"  {'-j 1 (one process)':38s} {one:7.3f} s   {busy}")
        busy = f"{both_cpu / both:4.2f} cores busy"
        print(
            f"  {'all cores (process pool)':38s} {both:7.3f} s   {busy}   ratio {one / both:4.2f}x"
        )


if __name__ == "__main__":
    main()
