"""`focal compare --test bootstrap` over every pair of 100 runs × 100 topics (4,950 pairs,
B = 10,000), end to end from a generated `--scores` file, against a per-pair loop of
`scipy.stats.bootstrap` (the ratio baseline).

The scores file is what `focal eval -q --format tsv` writes: `run_id measure topic value` with
synthetic AiP values (a topic difficulty, a run quality and noise, clipped to [0, 1]). Focal
runs as `focal compare --scores FILE --test bootstrap --samples 10000 --seed 1 --format tsv` in a
subprocess: the time includes starting Python, reading the file, the test and writing 4,950 rows;
its peak memory is the child's maximum resident set size. The in-process time of the test alone
(`bootstrap_tests` on the matrix) and its traced peak memory are printed too.

scipy's bootstrap (percentile, `n_resamples` = B, vectorised over resamples) runs pair by pair on
d = a − b; the p-value is read from its bootstrap distribution as Focal defines it. A loop over
all 4,950 pairs takes minutes, so it is timed on `--baseline-pairs` pairs (evenly spread) and
extrapolated linearly to every pair; the output says so. Both p-values are compared on those
pairs (they differ by Monte Carlo error only: the resamples differ).

    .venv/bin/python -P benchmarks/statistics.py [--runs 100 --topics 100 --samples 10000]
        [--baseline-pairs 100]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from focal.evaluation.statistics.significance.resampling import bootstrap_tests
from focal.evaluation.statistics.significance.results import pairs


def synthetic_scores(runs: int, topics: int, seed: int) -> np.ndarray:
    """topics × runs AiP-like values: difficulty + quality + noise, in [0, 1]."""
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 5, size=(topics, 1))
    quality = rng.normal(0, 0.05, size=(1, runs))
    noise = rng.normal(0, 0.08, size=(topics, runs))
    return np.clip(difficulty + quality + noise, 0, 1)


def write_scores(matrix: np.ndarray, path: Path) -> None:
    topics, runs = matrix.shape
    lines = ["run_id\tmeasure\ttopic\tvalue\n"]
    for r in range(runs):
        values = matrix[:, r].tolist()
        lines.extend(f"run{r:03d}\tAiP\t{2010001 + t}\t{values[t]!r}\n" for t in range(topics))
    path.write_text("".join(lines), encoding="utf-8")


def focal_end_to_end(path: Path, samples: int, output: Path) -> tuple[float, int]:
    """(seconds, peak resident kilobytes) of `focal compare --scores` in a subprocess."""
    focal = Path(sys.executable).with_name("focal")
    command = [str(focal), "compare", "--scores", str(path), "--test", "bootstrap",
               "--samples", str(samples), "--seed", "1", "--format", "tsv"]  # fmt: skip
    start = time.perf_counter()
    with output.open("w") as stream:
        subprocess.run(command, check=True, stdout=stream, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def scipy_pairs(matrix: np.ndarray, chosen: list[int], samples: int) -> tuple[float, list[float]]:
    """(seconds, p-values) of scipy.stats.bootstrap on the chosen pairs, one call each."""
    from scipy import stats

    first, second = pairs(matrix.shape[1])
    p_values = []
    start = time.perf_counter()
    for n in chosen:
        d = matrix[:, first[n]] - matrix[:, second[n]]
        result = stats.bootstrap(
            (d,), np.mean, n_resamples=samples, method="percentile", random_state=n
        )
        distribution = result.bootstrap_distribution
        tail = np.mean(distribution <= 0) if d.mean() >= 0 else np.mean(distribution >= 0)
        p_values.append(min(1.0, 2 * float(tail)))
    return time.perf_counter() - start, p_values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--samples", type=int, default=10_000)
    parser.add_argument("--baseline-pairs", type=int, default=100)
    arguments = parser.parse_args()
    matrix = synthetic_scores(arguments.runs, arguments.topics, seed=2006)
    total = arguments.runs * (arguments.runs - 1) // 2
    print(f"{arguments.runs} runs × {arguments.topics} topics: {total} pairs, "
          f"B = {arguments.samples} bootstrap samples")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        scores, output = Path(folder, "scores.tsv"), Path(folder, "compare.tsv")
        write_scores(matrix, scores)
        seconds, peak_kb = focal_end_to_end(scores, arguments.samples, output)
        rows = output.read_text().splitlines()[1:]
    assert len(rows) == total, f"expected {total} rows, found {len(rows)}"
    focal_p = np.array([float(row.split("\t")[6]) for row in rows])
    print(f"focal compare --scores (subprocess, end to end): {seconds:8.3f} s, "
          f"peak RSS {peak_kb / 1024:.0f} MiB")  # fmt: skip

    tracemalloc.start()
    start = time.perf_counter()
    bootstrap_tests(matrix, samples=arguments.samples, seed=1)
    core = time.perf_counter() - start
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"bootstrap_tests alone (in process, traced):       {core:8.3f} s, "
          f"peak traced {traced / 2**20:.0f} MiB")  # fmt: skip

    count = min(arguments.baseline_pairs, total)
    chosen = np.linspace(0, total - 1, count).round().astype(int).tolist()
    tracemalloc.start()
    loop, scipy_p = scipy_pairs(matrix, chosen, arguments.samples)
    _, scipy_traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    extrapolated = loop / count * total
    print(f"scipy.stats.bootstrap loop: {count} pairs timed in {loop:.3f} s, "
          f"EXTRAPOLATED to {total} pairs: {extrapolated:8.1f} s, "
          f"peak traced {scipy_traced / 2**20:.0f} MiB")  # fmt: skip
    print(f"ratio scipy loop (extrapolated) / focal end to end: {extrapolated / seconds:8.1f}×")
    print(f"ratio scipy loop (extrapolated) / focal test alone: {extrapolated / core:8.1f}×")
    difference = np.abs(focal_p[chosen] - np.array(scipy_p))
    print(f"p-values on the timed pairs: max |focal − scipy| = {difference.max():.4f} "
          f"(Monte Carlo error: different resamples)")  # fmt: skip


if __name__ == "__main__":
    main()
