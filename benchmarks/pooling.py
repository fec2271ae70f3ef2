"""Pooling at INEX 2006 scale: 333 runs x 125 topics x 1500 results (62 million results).

Synthetic runs: every topic has 5000 candidate articles; a run draws 1500 results with a heavy
bias towards the topic's best candidates (so runs agree near the top, as real runs do) and
returns about a quarter of its articles several times (as passage runs do): about 1100 distinct
articles per run and topic, and a top-n pool of 500 takes about 30 rounds. The same in-memory
lists feed `pooling` and a plain dict-and-list reference written here; the figure is the ratio
of wall times and of peak memory (tracemalloc, measured in a second pass so that tracing does
not slow the timed pass). Both must give the same pools. Times are the best of `--repeat` calls.

End to end (`--files N`, 0 to skip): the first N runs are written as FOL run files to a
temporary folder and `focal pool build --size 500 -o POOL FILE...` runs in a subprocess twice,
reading the files as records (`ranked_run(read_run(path))`, the reader before columns) and as
the command does (`read_ranked_runs`: pyarrow for canonical FOL files, several at a time); both
pool files must be identical.

    .venv/bin/python -P benchmarks/pooling.py [--runs 333 --topics 125 --results 1500]
        [--repeat 3] [--files 40]
"""

from __future__ import annotations

import argparse
import gc
import operator
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from focal.pooling.records import Pool, RankedRun
from focal.pooling.stats import pool_statistics
from focal.pooling.strategies import depth_k_pool, fusion_pool, top_n_pool

PlainRuns = list[tuple[str, dict[str, list[str]]]]
CANDIDATES = 5000


def synthetic_runs(runs: int, topics: int, results: int, seed: int) -> PlainRuns:
    rng = np.random.default_rng(seed)
    vocabulary = [str(1_000_000 + n) for n in range(topics * CANDIDATES)]
    plain: PlainRuns = [(f"run{r:03d}", {}) for r in range(runs)]
    for t in range(topics):
        topic = str(2006_001 + t)
        base = t * CANDIDATES
        for _, per_topic in plain:
            quality = (rng.pareto(0.7, results) * 500).astype(np.int64) % CANDIDATES
            order = np.argsort(quality + rng.normal(0.0, 300.0, results), kind="stable")
            chosen = (quality[order] + base).tolist()
            per_topic[topic] = list(operator.itemgetter(*chosen)(vocabulary))
    return plain


# ---- the plain reference -------------------------------------------------------------------


Rows = dict[str, dict[str, list]]  # type: ignore[type-arg]
"""topic -> article -> [first_round, best_rank, contributing run ids]: what a pool file says."""


def reference_top_n(runs: PlainRuns, size: int, start: Rows | None = None) -> Rows:
    pools: Rows = {}
    for topic in sorted({t for _, per_topic in runs for t in per_topic}):
        pool = (start or {}).get(topic, {})
        longest = max(len(per_topic.get(topic, [])) for _, per_topic in runs)
        k = 0
        while len(pool) < size and k < longest:
            k += 1
            for run_id, per_topic in runs:
                results = per_topic.get(topic, [])
                if k <= len(results):
                    row = pool.setdefault(results[k - 1], [k, k, {}])
                    row[2][run_id] = None  # a dict keeps each contributor once, in order
        pools[topic] = pool
    return pools


def reference_depth_k(runs: PlainRuns, depth: int) -> Rows:
    pools: Rows = {}
    for run_id, per_topic in runs:
        for topic, results in per_topic.items():
            pool = pools.setdefault(topic, {})
            seen: dict[str, int] = {}
            for rank, article in enumerate(results, start=1):
                if article not in seen:
                    if len(seen) == depth:
                        break
                    seen[article] = len(seen) + 1
                    row = pool.setdefault(article, [seen[article], rank, {}])
                    row[0] = min(row[0], seen[article])
                    row[1] = min(row[1], rank)
                    row[2][run_id] = None
    return pools


def reference_borda(runs: PlainRuns, size: int, fused: int) -> Rows:
    top: Rows = {}
    for topic in sorted({t for _, per_topic in runs for t in per_topic}):
        distinct = [list(dict.fromkeys(per_topic.get(topic, []))) for _, per_topic in runs]
        longest = max(len(d) for d in distinct)
        scores: dict[str, int] = {}
        for d in distinct:
            for rank, article in enumerate(d):
                scores[article] = scores.get(article, 0) + longest - rank
        chosen = sorted(scores, key=lambda a, s=scores: (-s[a], int(a)))[:fused]
        rows: dict[str, list] = {article: [0, 0, {}] for article in chosen}  # type: ignore[type-arg]
        for run_id, per_topic in runs:
            results = per_topic.get(topic, [])
            for rank, article in enumerate(results, start=1):
                row = rows.get(article)
                if row is not None and run_id not in row[2]:
                    row[1] = rank if not row[1] else min(row[1], rank)
                    row[2][run_id] = None
        top[topic] = rows
    return reference_top_n(runs, size, top)


def reference_stats(runs: PlainRuns, pool: Pool) -> dict[str, object]:
    """Depths, contributions, unique contributions and pairwise overlaps with sets and dicts."""
    pooled = {topic: set(tp.article_ids()) for topic, tp in pool.topics.items()}
    depths: dict[str, list[int]] = {}
    for _, per_topic in runs:
        for topic, results in per_topic.items():
            depth = 0
            while depth < len(results) and results[depth] in pooled[topic]:
                depth += 1
            depths.setdefault(topic, []).append(depth)
    contributed: dict[str, set[tuple[str, str]]] = {run_id: set() for run_id, _ in runs}
    unique: dict[str, int] = {}
    for entry in pool.articles():
        for run_id in entry.contributing_runs:
            contributed[run_id].add((entry.topic, entry.article))
        if len(entry.contributing_runs) == 1:
            unique[entry.contributing_runs[0]] = unique.get(entry.contributing_runs[0], 0) + 1
    overlaps = {}
    run_ids = [run_id for run_id, _ in runs]
    for i, a in enumerate(run_ids):
        for b in run_ids[i + 1 :]:
            shared = len(contributed[a] & contributed[b])
            union = len(contributed[a] | contributed[b])
            overlaps[a, b] = (shared, shared / union if union else 0.0)
    mean_depths = {topic: sum(d) / len(d) for topic, d in depths.items()}
    return {"depths": mean_depths, "unique": unique, "overlaps": overlaps}


# ---- measuring -----------------------------------------------------------------------------


def measure(call: Callable[[], object], repeat: int = 1) -> tuple[float, float, object]:
    """Best wall seconds of `repeat` calls, then peak MiB of one more, traced call."""
    seconds = float("inf")
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        value = call()
        seconds = min(seconds, time.perf_counter() - started)
        del value
    gc.collect()
    tracemalloc.start()
    value = call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / 2**20, value


def normalised(rows: Rows) -> Rows:
    """Contributors in run order (run ids here sort in run order)."""
    return {
        topic: {article: [row[0], row[1], sorted(row[2])] for article, row in per_topic.items()}
        for topic, per_topic in rows.items()
    }


def rows_of(pool: Pool) -> Rows:
    return {
        topic: {
            e.article: [e.first_round, e.best_rank, list(e.contributing_runs)] for e in tp.articles
        }
        for topic, tp in pool.topics.items()
    }


# ---- end to end: `focal pool build` over run files ----------------------------------------

REPOSITORY = Path(__file__).resolve().parents[1]
# Peak memory: VmHWM, the high-water mark of this process's own memory (ru_maxrss would carry
# over the benchmark's 1 GB from before the fork that started the command).
DRIVER = """
import sys
from pathlib import Path
from focal.assessor.cli.main import main
if sys.argv[1] == "records":  # the reader `focal pool` used before columns
    import focal.pooling.ranked
    from focal.evaluation.formats.fol.runs import read_run
    focal.pooling.ranked.read_ranked_run = lambda path:
    focal.pooling.ranked.ranked_run(read_run(path))
try:
    main(sys.argv[2:], prog_name="focal")
finally:
    status = Path("/proc/self/status").read_text().split("VmHWM:")[1]
    print(status.split()[0], file=sys.stderr)
"""


def write_run_files(runs: PlainRuns, folder: Path, seed: int) -> list[Path]:
    """FOL run files: random offsets and lengths, decreasing 4-decimal scores."""
    rng = np.random.default_rng(seed)
    paths = []
    for run_id, per_topic in runs:
        lines = []
        for topic, articles in per_topic.items():
            offsets = rng.integers(0, 20_000, len(articles)).tolist()
            lengths = rng.integers(1, 3_000, len(articles)).tolist()
            for rank, (article, offset, length) in enumerate(
                zip(articles, offsets, lengths, strict=True), start=1
            ):
                score = f"{(len(articles) - rank + 1) / len(articles):.4f}"
                lines.append(f"{topic} Q0 {article} {rank} {score} {run_id} {offset} {length}\n")
        path = folder / f"{run_id}.fol.run"
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def time_command(reader: str, paths: list[Path], output: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of `focal pool build` reading runs with `reader`."""
    command = [sys.executable, "-P", "-c", DRIVER, reader, "pool", "build", "--size", "500"]
    started = time.perf_counter()
    finished = subprocess.run(
        [*command, "-o", str(output), *map(str, paths)],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - started
    return seconds, int(finished.stderr.split()[-1]) / 1024  # VmHWM is in KiB


def end_to_end(runs: PlainRuns, seed: int) -> int:
    with tempfile.TemporaryDirectory(prefix="pooling-benchmark-") as name:
        folder = Path(name)
        started = time.perf_counter()
        paths = write_run_files(runs, folder, seed)
        lines = sum(len(articles) for _, per_topic in runs for articles in per_topic.values())
        size = sum(path.stat().st_size for path in paths) / 2**20
        print(
            f"\nfocal pool build --size 500 over {len(paths)} FOL run files ({lines:,} lines, "
            f"{size:.0f} MiB), written in {time.perf_counter() - started:.1f} s"
        )
        print(f"{'reader':<20}{'wall s':>11}{'s per run':>13}{'peak RSS MiB':>14}")
        pools = []
        for reader in ("records", "columns"):
            output = folder / f"pool-{reader}.tsv"
            seconds, mib = time_command(reader, paths, output)
            pools.append(output.read_bytes())
            print(f"{reader:<20}{seconds:>11.2f}{seconds / len(paths):>13.3f}{mib:>14.0f}")
        if pools[0] != pools[1]:
            print("the pool files from records and from columns differ", file=sys.stderr)
            return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=333)
    parser.add_argument("--topics", type=int, default=125)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=2006)
    parser.add_argument("--repeat", type=int, default=3, help="Timed calls per case (best).")
    parser.add_argument("--files", type=int, default=40, help="Run files end to end (0: none).")
    parser.add_argument(
        "--cases",
        default="top-n,depth-k,borda,stats",
        help="Comma-separated cases to run (none: only the end-to-end figure).",
    )
    options = parser.parse_args()
    started = time.perf_counter()
    plain = synthetic_runs(options.runs, options.topics, options.results, options.seed)
    ranked = [RankedRun(run_id, per_topic) for run_id, per_topic in plain]
    total = options.runs * options.topics * options.results
    print(
        f"{options.runs} runs x {options.topics} topics x {options.results} results "
        f"= {total:,} results, generated in {time.perf_counter() - started:.1f} s"
    )
    top_pool = top_n_pool(ranked, 500) if "stats" in options.cases else None
    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("top-n 500", lambda: top_n_pool(ranked, 500), lambda: reference_top_n(plain, 500)),
        ("depth-k 100", lambda: depth_k_pool(ranked, 100), lambda: reference_depth_k(plain, 100)),
        (
            "borda 250+500",
            lambda: fusion_pool(ranked, 500, 250, "borda"),
            lambda: reference_borda(plain, 500, 250),
        ),
        (
            "stats (top-n 500)",
            lambda: pool_statistics(top_pool, ranked),  # type: ignore[arg-type]
            lambda: reference_stats(plain, top_pool),  # type: ignore[arg-type]
        ),
    ]
    print(
        f"{'case':<20}{'pooling s':>11}{'reference s':>13}{'time ratio':>12}"
        f"{'pooling MiB':>13}{'reference MiB':>15}{'memory ratio':>14}"
    )
    chosen = options.cases.split(",")
    for name, ours, reference in cases:
        if name.split()[0] not in chosen:
            continue
        our_seconds, our_mib, our_value = measure(ours, options.repeat)
        ref_seconds, ref_mib, ref_value = measure(reference, options.repeat)
        if isinstance(our_value, Pool) and rows_of(our_value) != normalised(ref_value):  # type: ignore[arg-type]
            print(f"{name}: pooling and the reference disagree", file=sys.stderr)
            return 1
        print(
            f"{name:<20}{our_seconds:>11.3f}{ref_seconds:>13.3f}{our_seconds / ref_seconds:>12.2f}"
            f"{our_mib:>13.1f}{ref_mib:>15.1f}{our_mib / max(ref_mib, 1e-9):>14.2f}"
        )
    if options.files > 0:
        return end_to_end(plain[: options.files], options.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
