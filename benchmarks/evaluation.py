"""Speed of `focal eval`: the shared runs per task, and synthetic runs of 100 topics x 1500 results.

Figures (wall time, one machine, one run of the script):
- `focal eval` as a process (start-up, parsing, evaluation, output) for each task on the shared
  indri-passages runs, when ../shared is present;
- one synthetic 1500-result run over 100 topics: `focal eval` as a process, and the evaluation
  alone in-process against a straightforward per-line Python loop (the ratio baseline);
- 100 synthetic runs in one call: one process (-j 1) against all cores (the process pool).

    .venv/bin/python benchmarks/evaluation.py [--topics 100 --results 1500 --runs 100]
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.evaluate import PreparedQrels, evaluate  # noqa: E402
from evaluation.formats.qrels import read_qrels  # noqa: E402
from evaluation.formats.records import Judgement, Run  # noqa: E402
from evaluation.formats.runs import read_run  # noqa: E402

FOCAL = [sys.executable, "-c", "import sys; from assessor.cli import main; sys.exit(main())"]
SHARED = ROOT.parent / "shared" / "data" / "inex2010"
SHARED_CASES = {"focused": "fol", "thorough": "fol", "ric": "ric", "bic": "bic", "t2i": "ric"}


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


def per_line_baseline(qrels: dict[str, dict[str, Judgement]], run: Run) -> dict[str, float]:
    """Focused rows the straightforward way: every line, every passage, Python floats; the
    same output as `evaluate` (counts, sizes, overlap check, iP curve, AiP)."""
    scores = {}
    for topic, results in run.topics.items():
        judged = qrels.get(topic, {})
        total = sum(j.rel_chars for j in judged.values())
        relret = ret = 0
        curve = [0.0] * 101
        taken: dict[str, list[tuple[int, int]]] = {}
        for result in results:
            assert result.start is not None and result.length is not None
            end = result.start + result.length
            spans = taken.setdefault(result.article, [])
            if any(s < end and result.start < e for s, e in spans):
                raise ValueError(f"overlap on line {result.line}")
            spans.append((result.start, end))
            judgement = judged.get(result.article)
            if judgement is not None:
                for s, e in judgement.passages:
                    relret += max(0, min(end, e) - max(result.start, s))
            ret += result.length
            level = math.floor(100 * (relret / total)) if total else 0
            curve[level] = max(curve[level], relret / ret)
        for i in range(99, -1, -1):
            curve[i] = max(curve[i], curve[i + 1])
        relevant = {a for a, j in judged.items() if j.rel_chars > 0}
        counts = (len(taken), len(relevant), len(relevant & taken.keys()), ret, total, relret)
        assert counts[0] > 0
        scores[topic] = sum(curve) / 101
    return scores


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=100)
    arguments = parser.parse_args()

    if SHARED.exists():
        print("shared indri-passages runs, `focal eval -q` as a process:")
        for task, kind in SHARED_CASES.items():
            run = SHARED / "runs" / f"indri-passages.{kind}.run"
            seconds = wall(
                [*FOCAL, "eval", "--task", task, "-q", str(SHARED / "inex2010.qrels"), str(run)]
            )
            print(f"  {task:9s} {seconds:6.3f} s")
    else:
        print(f"(no shared data at {SHARED}: shared-run figures skipped)")

    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        paths = write_synthetic(folder, arguments.topics, arguments.results, arguments.runs, seed=7)
        qrels_path = folder / "synthetic.qrels"
        size = f"{arguments.topics} topics x {arguments.results} results"
        print(f"one synthetic run ({size}):")
        seconds = wall([*FOCAL, "eval", str(qrels_path), str(paths[0])])
        print(f"  focal eval (process, all steps)   {seconds:6.3f} s")
        qrels = read_qrels(qrels_path)
        start = time.perf_counter()
        run = read_run(paths[0])
        parse = time.perf_counter() - start
        start = time.perf_counter()
        ours = evaluate(PreparedQrels(qrels), run, "focused")
        vectorised = time.perf_counter() - start
        start = time.perf_counter()
        baseline = per_line_baseline(qrels, run)
        loop = time.perf_counter() - start
        for topic in ours.topics:
            assert abs(float(topic.values["AiP"]) - baseline[topic.topic]) < 1e-12
        print(f"  read_run                          {parse:6.3f} s")
        print(f"  evaluate (focused, vectorised)    {vectorised:6.3f} s")
        print(
            f"  per-line Python loop (baseline)   {loop:6.3f} s   ratio {loop / vectorised:5.1f}x"
        )
        for task in ("thorough", "ric", "t2i"):  # bic needs one line per article
            start = time.perf_counter()
            evaluate(PreparedQrels(qrels), run, task)
            print(f"  evaluate ({task:8s})               {time.perf_counter() - start:6.3f} s")
        batch = [str(p) for p in paths]
        print(f"{len(paths)} synthetic runs in one call:")
        one = wall([*FOCAL, "eval", "-j", "1", str(qrels_path), *batch])
        both = wall([*FOCAL, "eval", str(qrels_path), *batch])
        print(f"  -j 1 (one process)                {one:6.3f} s")
        print(f"  all cores (process pool)          {both:6.3f} s   ratio {one / both:5.2f}x")


if __name__ == "__main__":
    main()
