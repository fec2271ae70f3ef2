"""Speed of the element measures (`focal eval --task elements`), end to end from files.

Synthetic material (generated into a temporary folder, the same for every step): element qrels of
100 topics (40 assessed articles a topic, each a tree article/bdy/sec[1..4]/p[1..5]: 1040 lines
per topic, four-grade scale) and 20 element runs of 1500 results a topic, nested on purpose
(sections, their paragraphs and whole articles mixed), scores with ties.

Figures printed: `focal eval --task elements` as one process over the 20 runs with every measure
that needs no collection (P@k, overlap@k, inex_eval, nxCG@k, MAep), with `-j 1` and with `-j 2`,
and its peak memory; in-process, the qrels prepared once (each topic's values, ideal vector and
element tree under the quantisation), then one run evaluated three ways with the same measures:
the whole run on columns (`run_columns`, what `focal eval` uses), topic by topic
(`evaluate_topic`), and a plain per-result Python loop (each result compared with every earlier
one for overlap, XCG's gains by `xcg.run_gains`, precall walked result by result for each recall
level); and every measure with inex_eval_ng (spans laid out from the paths; topic by topic).

    .venv/bin/python -P benchmarks/elements.py [--topics 100 --results 1500 --runs 20]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from focal.evaluation.formats.elements.qrels import read_element_qrels  # noqa: E402
from focal.evaluation.formats.elements.runs import read_element_run  # noqa: E402
from focal.evaluation.measures.elements.cutoffs import CUTOFFS, nested  # noqa: E402
from focal.evaluation.measures.elements.precall import LEVELS  # noqa: E402
from focal.evaluation.measures.elements.topic import ElementOptions  # noqa: E402
from focal.evaluation.measures.elements.xcg import XCG_CUTOFFS, RecallBase, run_gains  # noqa: E402
from focal.evaluation.measures.engines.element_topics import (  # noqa: E402
    PreparedElementQrels,
    evaluate_elements,
)
from focal.evaluation.measures.evaluate import Settings  # noqa: E402

FOCAL = [
    sys.executable,
    "-c",
    "import sys; from focal.assessor.cli.main import main; sys.exit(main())",
]
MEASURES = ["P@k", "overlap@k", "inex_eval", "nxCG@k", "MAep"]
ARTICLES = 40


def element_paths() -> list[str]:
    paths = ["/article[1]", "/article[1]/bdy[1]"]
    for s in range(1, 5):
        paths.append(f"/article[1]/bdy[1]/sec[{s}]")
        paths.extend(f"/article[1]/bdy[1]/sec[{s}]/p[{p}]" for p in range(1, 6))
    return paths


PATHS = element_paths()


def span_of(path: str) -> tuple[int, int]:
    """A layout of the synthetic tree: article 0-2000, sec s 500 characters, p 100."""
    steps = path.split("/")[1:]
    if len(steps) <= 2:
        return 0, 2000
    s = int(steps[2][4:-1]) - 1
    if len(steps) == 3:
        return s * 500, s * 500 + 500
    p = int(steps[3][2:-1]) - 1
    return s * 500 + p * 100, s * 500 + p * 100 + 100


def write_synthetic(folder: Path, topics: int, results: int, runs: int) -> tuple[Path, list[Path]]:
    rng = np.random.default_rng(7)
    lines = []
    for t in range(topics):
        for a in range(ARTICLES):
            for path in PATHS:
                e = int(rng.integers(0, 4))
                s = int(rng.integers(1, 4)) if e else 0
                lines.append(f"{t} {t * 1000 + a} {path} {e} {s}")
    qrels = folder / "elements.qrels"
    qrels.write_text("\n".join(lines) + "\n")
    run_paths = []
    for r in range(runs):
        out = []
        for t in range(topics):
            articles = rng.integers(0, 3 * ARTICLES, results)
            picks = rng.integers(0, len(PATHS), results)
            for rank in range(results):
                score = round(1.0 / (1 + rank // 3), 6)  # ties in threes
                article = t * 1000 + int(articles[rank])
                out.append(f"{t} Q0 {article} {rank + 1} {score} run{r} {PATHS[picks[rank]]}")
        path = folder / f"run{r:02d}.run"
        path.write_text("\n".join(out) + "\n")
        run_paths.append(path)
    return qrels, run_paths


def plain_loop(qrels_path: Path, run_path: Path) -> dict[str, float]:
    """Every measure but inex_eval_ng, result by result, with nothing clever: the baseline."""
    qrels = read_element_qrels(qrels_path)
    run, _ = read_element_run(run_path)
    table = {(1, 1): 0.25, (1, 2): 0.25, (1, 3): 0.5, (2, 1): 0.5, (2, 2): 0.5, (2, 3): 0.75,
             (3, 1): 0.75, (3, 2): 0.75, (3, 3): 1.0}  # fmt: skip
    sums: dict[str, float] = {}
    for topic, judged in qrels.topics.items():
        values = {key: table.get((j.e4, j.s4), 0.0) for key, j in judged.items()}
        results = run.topics.get(topic, [])
        keys = [(r.article, r.path or "") for r in results]
        gains = [values.get(key, 0.0) for key in keys]
        partner = [sys.maxsize] * len(keys)  # no partner
        for i, key in enumerate(keys):
            for j in range(i):
                if nested(key, keys[j]):
                    partner[i] = min(partner[i], j)
                    partner[j] = min(partner[j], i)
        base = RecallBase(values)
        seen_gain = run_gains(keys, base)
        row: dict[str, float] = {}
        for k in CUTOFFS:
            row[f"P@{k}"] = sum(gains[:k]) / k
            row[f"overlap@{k}"] = sum(1 for i in range(min(k, len(keys))) if partner[i] < k) / k
        total = sum(values.values())
        precall = 0.0
        for level in LEVELS:
            wanted, got, lost, i = level * total, 0.0, 0.0, 0
            while i < len(gains):
                block = [i]
                while (
                    block[-1] + 1 < len(gains) and results[block[-1] + 1].score == results[i].score
                ):
                    block.append(block[-1] + 1)
                r = sum(gains[b] for b in block)
                zero = sum(1 for b in block if gains[b] == 0)  # non-relevant: f = 0 (seed 000)
                if got + r >= wanted - 1e-9 * max(1.0, total):
                    esl = lost + (wanted - got) * zero / (r + 1)
                    precall += wanted / (wanted + esl)
                    break
                got, lost, i = got + r, lost + zero, block[-1] + 1
        row["inex_eval"] = precall / len(LEVELS)
        ideal = base.ideal_values
        for k in XCG_CUTOFFS:
            best = sum(ideal[:k])
            row[f"nxCG@{k}"] = sum(seen_gain[:k]) / best if best else 0.0
        for name, value in row.items():
            sums[name] = sums.get(name, 0.0) + value
    return {name: value / len(qrels.topics) for name, value in sums.items()}


CPU: dict[str, float] = {}


def timed(action, *args):  # type: ignore[no-untyped-def]
    """The result and the wall time; the CPU time goes to CPU[action name] (the machine is
    shared: CPU time is the steadier figure)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = action(*args)
    CPU[action.__name__] = time.process_time() - cpu
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=20)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        qrels, runs = write_synthetic(folder, arguments.topics, arguments.results, arguments.runs)
        print(f"{arguments.topics} topics x {arguments.results} element results, "
              f"{len(runs)} runs; qrels {ARTICLES * len(PATHS)} elements a topic")  # fmt: skip
        command = [*FOCAL, "eval", "--task", "elements", "--format", "tsv", "-q"]
        for measure in MEASURES:
            command += ["-m", measure]
        for jobs in (1, 2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                [*command, "-j", str(jobs), str(qrels), *map(str, runs)], capture_output=True
            )
            seconds = time.perf_counter() - start
            assert done.returncode == 0, done.stderr.decode()
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (usage.ru_utime + usage.ru_stime) - (before.ru_utime + before.ru_stime)
            print(
                f"  focal eval --task elements -j {jobs}, {len(runs)} runs, all measures but "
                f"inex_eval_ng (process): {seconds:.2f} s wall, {cpu:.2f} s CPU "
                f"({cpu / len(runs):.3f} s a run), peak {usage.ru_maxrss / 1024:.0f} MB"
            )

        settings = Settings(task="elements", measures=(*MEASURES, "inex_eval_ng"),
                            elements=ElementOptions(quant="generalised"))  # fmt: skip
        loaded, read_qrels_time = timed(read_element_qrels, qrels)
        (run, _), read_run_time = timed(read_element_run, runs[0])
        (second, _), _ = timed(read_element_run, runs[1])
        prepared = PreparedElementQrels(loaded)
        _, prepare_time = timed(prepared.prepare_all, ElementOptions(quant="generalised"))
        print(
            f"  in-process: read qrels {read_qrels_time:.3f} s wall "
            f"({CPU['read_element_qrels']:.3f} s CPU), read one run {read_run_time:.3f} s "
            f"({CPU['read_element_run']:.3f} s CPU), prepare the qrels (once for every run) "
            f"{prepare_time:.3f} s ({CPU['prepare_all']:.3f} s CPU)"
        )
        no_ng = Settings(task="elements", measures=tuple(MEASURES))

        def columns(run):  # type: ignore[no-untyped-def]
            return evaluate_elements(prepared, run, no_ng, None)

        def by_topic(run):  # type: ignore[no-untyped-def]
            return evaluate_elements(prepared, run, no_ng, None, by_topic=True)

        timed(columns, run)  # first use: the run's paths and articles numbered
        fast, fast_time = timed(columns, second)
        slow, slow_time = timed(by_topic, second)
        spans = {(r.article, r.path or ""): span_of(r.path or "")
                 for rs in second.topics.values() for r in rs}  # fmt: skip
        _, ng_time = timed(evaluate_elements, prepared, second, settings, spans)
        _, plain_time = timed(plain_loop, qrels, runs[1])
        print(
            f"  evaluate one run, all but inex_eval_ng: columns {fast_time:.3f} s wall "
            f"({CPU['columns']:.3f} s CPU), topic by topic {slow_time:.3f} s "
            f"({CPU['by_topic']:.3f} s CPU), plain per-result loop (reading included) "
            f"{plain_time:.2f} s ({CPU['plain_loop']:.2f} s CPU)"
        )
        print(f"  every measure with inex_eval_ng (topic by topic): {ng_time:.3f} s wall")
        for a, b in zip(fast.topics, slow.topics, strict=True):  # the two engines agree
            assert all(abs(a.values[n] - b.values[n]) < 1e-9 for n in a.values), a.topic
        plain = plain_loop(qrels, runs[1]) if arguments.topics <= 5 else None
        if plain is not None:
            mean = {n: sum(t.values[n] for t in fast.topics) / len(fast.topics) for n in plain}
            assert all(abs(mean[n] - plain[n]) < 1e-9 for n in plain), (mean, plain)
        peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  peak memory of this process (in-process steps): {peak_self:.0f} MB")


if __name__ == "__main__":
    main()
