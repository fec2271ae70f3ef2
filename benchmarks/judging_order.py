"""Judging orders on a generated campaign: how many judgements each policy needs, and its cost.

Generates a campaign of `--runs` runs × `--topics` topics (article runs of 100 results over 2,000
candidate articles per topic, 5 to 80 of them relevant; a run of quality q puts a relevant article
ahead with probability growing with q), judges the depth-`--depth` pool of the runs completely
(FOL qrels, one relevant passage per relevant article), then runs `focal pool simulate` with every
policy on those files in a subprocess and prints its budgets (`all` rows), the rankings at each
budget, and its wall time and peak memory. The numbers of docs/pooling.md come from here.

    .venv/bin/python -P benchmarks/judging_order.py [--runs 30 --topics 50 --depth 50]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CANDIDATES = 2000
RESULTS = 100


def write_campaign(folder: Path, runs: int, topics: int, depth: int, seed: int) -> list[Path]:
    rng = np.random.default_rng(seed)
    relevant = {t: set(rng.choice(CANDIDATES, int(rng.integers(5, 81)), replace=False).tolist())
                for t in range(topics)}  # fmt: skip
    quality = rng.uniform(0.2, 3.0, runs)
    rankings: dict[int, dict[int, list[int]]] = {}
    for r in range(runs):
        rankings[r] = {}
        for t in range(topics):
            boost = np.zeros(CANDIDATES)
            boost[list(relevant[t])] = quality[r]
            keys = rng.gumbel(size=CANDIDATES) + boost
            rankings[r][t] = np.argsort(-keys)[:RESULTS].tolist()
    paths = []
    for r in range(runs):
        lines = [
            f"{t + 1} Q0 d{t}-{c} {rank} {1 / rank:.5f} run{r} 0 400\n"
            for t in range(topics)
            for rank, c in enumerate(rankings[r][t], 1)
        ]
        path = folder / f"run{r}.fol"
        path.write_text("".join(lines))
        paths.append(path)
    qrels = []
    for t in range(topics):
        pooled = sorted({c for r in range(runs) for c in rankings[r][t][:depth]})
        for c in pooled:
            if c in relevant[t]:
                qrels.append(f"{t + 1} Q0 d{t}-{c} 300 4000 0 0:300\n")
            else:
                qrels.append(f"{t + 1} Q0 d{t}-{c} 0 4000\n")
    (folder / "qrels").write_text("".join(qrels))
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    focal = Path(sys.executable).with_name("focal")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        runs = write_campaign(folder, arguments.runs, arguments.topics, arguments.depth, 1)
        judged = sum(1 for _ in (folder / "qrels").open())
        print(f"campaign: {arguments.runs} runs x {arguments.topics} topics, depth-"
              f"{arguments.depth} pool judged: {judged} judgements")  # fmt: skip
        command = [
            str(focal), "pool", "simulate", "--task", "articles", "--repeats",
            str(arguments.repeats), "--budgets", "50,100,200,400", "--steps", "50,100,200,400",
            "--plot", str(folder / "curves.png"), str(folder / "qrels"), *map(str, runs),
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(done.stdout, end="")
        print(f"\nfocal pool simulate: {seconds:.1f} s wall, peak {peak:.0f} MiB")


if __name__ == "__main__":
    main()
