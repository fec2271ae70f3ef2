"""Reliability studies against per-trial Python loops, on the same generated inputs.

1. Swap rates (seed 004, "Error Rates"): 30 runs x 100 topics of per-topic scores, 50 trials,
   subset sizes 5, 10, ..., 50 and tolerances 0, 5, 10, 20, 30 %. Focal's `swap_rates` (one
   matrix of topic draws per size, all pairs at once) against a loop over trials and pairs that
   computes each subset mean in Python, both given the same draws; both must count the same
   swaps.
2. Pool sampling (seed 004, "Random Sampling"): 10 repeats x 4 fractions over generated FOL
   qrels and runs, end to end from the files: `focal reliability sample` in a subprocess
   against a loop in this process that reads the same files once, then for every trial samples
   the relevant articles with `random.sample`, evaluates every run with `focal.evaluation.evaluate`
   and computes τ with scipy. Both rank by AiP with every qrels topic counted.

3. Per trial of pool sampling, in this process on the same files: the runs scored topic by topic
   on each trial's sampled qrels (`focal.reliability.scores.score_matrix`, the path every trial took
   before) against `focal.reliability.rescoring` (the full scoring's arrays, masked per trial); both
   must give identical scores. Article ids are `d<topic>-<n>`, not plain numbers.

Prints wall times, the ratio Focal / loop, and peak memory (tracemalloc peak for in-process
calls; the child's maximum resident set for the command).

    .venv/bin/python -P benchmarks/reliability.py [--runs 30 --topics 100 --results 100]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.measures.evaluate import evaluate
from focal.evaluation.statistics.swap_rates import swap_rates

SIZES = list(range(5, 51, 5))  # cut to half the topics when there are fewer than 100
TOLERANCES = [0.0, 0.05, 0.10, 0.20, 0.30]


def score_matrix(runs: int, topics: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quality = rng.random(runs) * 0.3
    difficulty = rng.random(topics) * 0.5
    noise = rng.normal(0, 0.12, (runs, topics))
    return np.clip(quality[:, None] + difficulty[None, :] + noise, 0, 1)


def loop_swap_rates(scores: np.ndarray, trials: int, seed: int) -> list[list[int]]:
    """Per trial, per pair: Python means of the two subsets, then the tolerance rule."""
    rng = np.random.default_rng(seed)
    rows = scores.tolist()
    runs, topics = scores.shape
    counts = []
    for size in SIZES:
        draws = np.argsort(rng.random((trials, topics)), axis=1)[:, : 2 * size].tolist()
        swaps = [0] * len(TOLERANCES)
        for draw in draws:
            first, second = draw[:size], draw[size:]
            m1 = [sum(row[t] for t in first) / size for row in rows]
            m2 = [sum(row[t] for t in second) / size for row in rows]
            for i in range(runs):
                for j in range(i + 1, runs):
                    d1, d2 = m1[i] - m1[j], m2[i] - m2[j]
                    top1, top2 = max(m1[i], m1[j]), max(m2[i], m2[j])
                    for k, p in enumerate(TOLERANCES):
                        if (d1 > p * top1 and d2 < -p * top2) or (d1 < -p * top1 and d2 > p * top2):
                            swaps[k] += 1
        counts.append(swaps)
    return counts


def timed(function, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = function(*args)
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    function(*args)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, elapsed, peak / 2**20


def write_campaign(
    folder: Path, runs: int, topics: int, results: int, seed: int, run_id: str = "run{}"
) -> list[Path]:
    """FOL qrels (100 judged articles a topic, 30 relevant) and FOL runs drawing from them;
    `run_id` names run r (`run_id.format(r)`)."""
    rng = np.random.default_rng(seed)
    lines = []
    for t in range(topics):
        for a in range(100):
            if a < 30:
                offset = int(rng.integers(0, 2000))
                lines.append(f"{t + 1} Q0 d{t}-{a} 500 4000 {offset} {offset}:500\n")
            else:
                lines.append(f"{t + 1} Q0 d{t}-{a} 0 4000\n")
    (folder / "qrels").write_text("".join(lines))
    paths = []
    for r in range(runs):
        skill = rng.random()
        out = []
        for t in range(topics):
            candidates = np.argsort(rng.random(300) - skill * (np.arange(300) < 30))[:results]
            for rank, c in enumerate(candidates.tolist(), start=1):
                offset = int(rng.integers(0, 3000))
                name = run_id.format(r)
                out.append(f"{t + 1} Q0 d{t}-{c} {rank} {1 / rank:.5f} {name} {offset} 400\n")
        path = folder / f"run{r}.fol"
        path.write_text("".join(out))
        paths.append(path)
    return paths


def loop_sampling(
    folder: Path, paths: list[Path], fractions: list[float], repeats: int
) -> list[float]:
    qrels = read_qrels(folder / "qrels")
    runs = [read_run_columns(path) for path in paths]

    def means(judged: dict) -> list[float]:  # type: ignore[type-arg]
        scores = []
        for run in runs:
            evaluation = evaluate(judged, run, task="focused", complete=True)
            scores.append(sum(float(t.values["AiP"]) for t in evaluation.topics) / len(judged))
        return scores

    full = means(qrels)
    taus = []
    generator = random.Random(0)
    for fraction in fractions:
        for _ in range(repeats):
            sampled = {}
            for topic, judgements in qrels.items():
                relevant = [a for a, j in judgements.items() if j.relevant]
                keep = set(generator.sample(relevant, max(1, round(fraction * len(relevant)))))
                sampled[topic] = {
                    a: j for a, j in judgements.items() if not j.relevant or a in keep
                }
            taus.append(stats.kendalltau(full, means(sampled)).statistic)
    return taus


def per_trial(folder: Path, paths: list[Path], trials: int) -> str:
    """Per-trial seconds of the topic-by-topic path and of the incremental one, and whether
    their scores are identical."""
    from focal.reliability.judgements import sample_judgements
    from focal.reliability.rescoring import rescorer
    from focal.reliability.scores import score_matrix

    qrels = read_qrels(folder / "qrels")
    runs = [read_run_columns(path) for path in paths]
    topics = tuple(qrels)
    start = time.perf_counter()
    fast = rescorer(qrels, runs, "focused", "AiP", topics)
    arrays_s = time.perf_counter() - start
    assert fast is not None
    fractions = [0.8, 0.6, 0.4, 0.2]
    sampled = [
        sample_judgements(qrels, fractions[n % 4], np.random.default_rng([0, n]))
        for n in range(trials)
    ]
    start = time.perf_counter()
    before = [score_matrix(q, runs, "focused", "AiP", topics).values for q in sampled]
    before_s = (time.perf_counter() - start) / trials
    start = time.perf_counter()
    after = [fast.score(q).values for q in sampled]  # type: ignore[union-attr]
    after_s = (time.perf_counter() - start) / trials
    same = all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    return (
        f"  per trial: topic by topic {1000 * before_s:8.1f} ms | incremental "
        f"{1000 * after_s:8.1f} ms | ratio {after_s / before_s:.3f} | arrays once "
        f"{1000 * arrays_s:.0f} ms | identical scores: {same}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=10)
    arguments = parser.parse_args()

    SIZES[:] = [size for size in SIZES if size <= arguments.topics // 2]
    scores = score_matrix(arguments.runs, arguments.topics, seed=1)
    ours, ours_s, ours_mb = timed(
        lambda: swap_rates(scores, SIZES, arguments.trials, TOLERANCES, np.random.default_rng(7))
    )
    loop, loop_s, loop_mb = timed(loop_swap_rates, scores, arguments.trials, 7)
    same = ours.swaps.tolist() == loop
    print(f"swap rates, {arguments.runs} runs x {arguments.topics} topics, {arguments.trials} "
          f"trials, {len(SIZES)} sizes x {len(TOLERANCES)} tolerances")  # fmt: skip
    print(f"  focal {ours_s:8.3f} s {ours_mb:8.1f} MiB | loop {loop_s:8.3f} s {loop_mb:8.1f} MiB"
          f" | ratio {ours_s / loop_s:.3f} | same swaps: {same}")  # fmt: skip

    fractions = [0.8, 0.6, 0.4, 0.2]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        paths = write_campaign(folder, arguments.runs, arguments.topics, arguments.results, 3)
        command = [
            sys.executable, "-m", "focal.assessor.cli.main", "reliability", "sample",
            "--fractions", "80,60,40,20", "--repeats", str(arguments.repeats), "--format", "tsv",
            str(folder / "qrels"), *map(str, paths),
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        focal_s = time.perf_counter() - start
        child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        _, loop_s, loop_mb = timed(loop_sampling, folder, paths, fractions, arguments.repeats)
        trial_line = per_trial(folder, paths, 8)
    print(f"pool sampling, {arguments.repeats} repeats x 4 fractions, {arguments.runs} runs x "
          f"{arguments.topics} topics x {arguments.results} results, from files")  # fmt: skip
    print(f"  focal {focal_s:8.3f} s {child_mb:8.1f} MiB (max RSS) | loop {loop_s:8.3f} s "
          f"{loop_mb:8.1f} MiB (traced) | ratio {focal_s / loop_s:.3f}")  # fmt: skip
    print("  " + done.stdout.splitlines()[1])
    print(f"pool sampling re-scoring, 8 trials, {arguments.runs} runs x {arguments.topics} topics")
    print(trial_line)


if __name__ == "__main__":
    main()
