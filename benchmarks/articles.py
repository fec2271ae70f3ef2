"""Speed of article evaluation in trec_eval's terms: Focal against pytrec_eval, ir_measures and
trectools on the same generated TREC files, end to end (reading included).

Generated: TREC qrels of 50 topics (600 judged documents each: grades 0, 1, 2 and a few -1),
and 50 TREC runs of 50 topics x 1500 documents (scores with 3 decimals, so ties occur). Every
tool evaluates trec_eval's `official` set (runid, num_q, num_ret, num_rel, num_rel_ret, map,
gm_map, Rprec, bpref, recip_rank, iprec_at_recall_0.00..1.00, P_5..P_1000) over all 50 runs, in
a fresh process of its own (so peak memory is its own):
- focal (process): `focal eval --task articles -m official QRELS RUN...` (output to a file);
- focal (in-process): `load_index`, then `load_run` + `evaluate_trec` per run;
- pytrec_eval: runs and qrels read into dicts by a plain Python loop, one RelevanceEvaluator,
  `evaluate` per run, means over topics;
- ir_measures: `read_trec_qrels`/`read_trec_run` and `calc_aggregate` with the same measures
  (it has no gm_map; its default provider for these is pytrec_eval);
- trectools (`make benchmarks` installs it; skipped when absent): TrecRun/TrecQrel and TrecEval
  for map, Rprec, bpref, recip_rank, P@k - it has no iprec_at_recall nor gm_map, so it does less.
Before timing, Focal's `all` rows with --trec-version 9 are checked against pytrec_eval's means
(1e-12); the timed Focal runs use the default, 10.0 (same work).

    .venv/bin/python -P benchmarks/articles.py [--runs 50 --topics 50 --results 1500]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LEVELS = tuple(i / 10 for i in range(11))


def write_files(folder: Path, runs: int, topics: int, results: int, seed: int) -> list[Path]:
    rng = np.random.default_rng(seed)
    pool = results * 2  # documents per topic a run may return
    judgements = min(600, pool)  # 600 a topic, fewer when the runs return few documents
    lines = []
    for t in range(topics):
        judged = rng.choice(pool, judgements, replace=False)
        grades = rng.choice([-1, 0, 0, 0, 1, 1, 2], judgements)
        lines += [f"{t + 1} 0 doc{t}-{d:06d} {g}\n" for d, g in zip(judged, grades, strict=True)]
    (folder / "qrels.txt").write_text("".join(lines))
    paths = []
    for r in range(runs):
        rows = []
        for t in range(topics):
            docs = rng.choice(pool, results, replace=False)
            scores = np.round(rng.random(results) * 10, 3)
            order = np.argsort(-scores, kind="stable")
            rows += [
                f"{t + 1} Q0 doc{t}-{docs[i]:06d} {rank} {scores[i]:.3f} run{r}\n"
                for rank, i in enumerate(order.tolist(), 1)
            ]
        path = folder / f"run{r:03d}.txt"
        path.write_text("".join(rows))
        paths.append(path)
    return paths


def focal_inprocess(qrels: str, runs: list[str], version: int = 10) -> dict[str, dict[str, float]]:
    from focal.evaluation.measures.registry.names import parse_trec as parse_measures
    from focal.evaluation.measures.trec_eval.engine.run import TrecOptions, evaluate_trec
    from focal.evaluation.running.articles import load_index, load_run

    index, selection, options = (
        load_index(qrels),
        parse_measures(["official"]),
        TrecOptions(version=version),
    )
    summaries = {}
    for path in runs:
        evaluation = evaluate_trec(index, load_run(path), selection, options)
        summaries[evaluation.run_id] = {k: float(v) for k, v in evaluation.summary.items()}
    return summaries


def _read_qrels_dict(qrels: str) -> dict[str, dict[str, int]]:
    judged: dict[str, dict[str, int]] = {}
    with open(qrels) as stream:
        for line in stream:
            topic, _, doc, grade = line.split()
            judged.setdefault(topic, {})[doc] = int(grade)
    return judged


def _read_run_dict(path: str) -> tuple[str, dict[str, dict[str, float]]]:
    run: dict[str, dict[str, float]] = {}
    run_id = ""
    with open(path) as stream:
        for line in stream:
            topic, _, doc, _, score, run_id = line.split()
            run.setdefault(topic, {})[doc] = float(score)
    return run_id, run


def pytrec(qrels: str, runs: list[str]) -> dict[str, dict[str, float]]:
    """One evaluator; each run read into dicts and evaluated in turn (one run in memory)."""
    import pytrec_eval

    evaluator = pytrec_eval.RelevanceEvaluator(_read_qrels_dict(qrels), {"official"})
    summaries = {}
    for path in runs:
        run_id, run = _read_run_dict(path)
        per_topic = evaluator.evaluate(run)
        names = next(iter(per_topic.values())).keys()
        summaries[run_id] = {
            name: pytrec_eval.compute_aggregated_measure(
                name, [values[name] for values in per_topic.values()]
            )
            for name in names
        }
    return summaries


def irm(qrels: str, runs: list[str]) -> None:
    import ir_measures
    from ir_measures import AP, RR, Bpref, IPrec, NumQ, NumRel, NumRelRet, NumRet, P, Rprec

    measures = [NumQ, NumRet, NumRel, NumRelRet, AP, Rprec, Bpref, RR]
    measures += [IPrec @ level for level in LEVELS] + [P @ k for k in CUTS]
    judgements = list(ir_measures.read_trec_qrels(qrels))
    for path in runs:
        ir_measures.calc_aggregate(measures, judgements, ir_measures.read_trec_run(path))


def trectools(qrels: str, runs: list[str]) -> None:
    from trectools import TrecEval, TrecQrel, TrecRun

    judged = TrecQrel(qrels)
    for path in runs:
        evaluation = TrecEval(TrecRun(path), judged)
        evaluation.get_map(depth=1000)
        evaluation.get_rprec()
        evaluation.get_bpref()
        evaluation.get_reciprocal_rank()
        for k in CUTS:
            evaluation.get_precision(depth=k)


TOOLS = {"focal-inprocess": focal_inprocess, "pytrec_eval": pytrec, "ir_measures": irm,
         "trectools": trectools}  # fmt: skip


def child(tool: str, qrels: str, runs: list[str]) -> None:
    start = time.perf_counter()
    TOOLS[tool](qrels, runs)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mib()}))


def peak_mib() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from the
    parent across fork and exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(arguments: list[str]) -> dict[str, float] | None:
    """The figures a child prints, with its CPU time (user + system, from `wait4`)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(arguments, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"  failed: {stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    result: dict[str, float] = json.loads(stdout.strip().splitlines()[-1])
    result["cpu"] = usage.ru_utime + usage.ru_stime
    return result


FOCAL_CHILD = """
import json, sys, time
from pathlib import Path
start = time.perf_counter()
out = sys.argv.pop(1)
sys.argv[0] = "focal"
sys.stdout = open(out, "w")
from focal.assessor.cli.main import main
try:
    main()
except SystemExit:
    pass
sys.stdout.close()
status = Path("/proc/self/status").read_text().splitlines()
peak = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
print(json.dumps({"seconds": time.perf_counter() - start, "peak_mb": peak}), file=sys.__stdout__)
"""


def focal_process(qrels: Path, runs: list[Path], out: Path) -> dict[str, float] | None:
    """`focal eval` in a fresh interpreter: imports, reading, evaluation, output."""
    command = [sys.executable, "-c", FOCAL_CHILD, str(out), "eval", "--task", "articles"]
    return measure([*command, "-m", "official", str(qrels), *map(str, runs)])


def check(qrels: str, runs: list[str]) -> None:
    ours, theirs = focal_inprocess(qrels, runs[:3], version=9), pytrec(qrels, runs[:3])
    for run_id, values in theirs.items():
        for name, value in values.items():
            if name == "runid":
                continue
            assert math.isclose(ours[run_id][name], value, abs_tol=1e-12), (run_id, name)
    print(
        f"checked: Focal's `all` rows (--trec-version 9) equal pytrec_eval's on {len(theirs)} runs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--results", type=int, default=1500)
    parser.add_argument("--skip", nargs="*", default=[], help="peers to leave out (trectools...)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.files[0], args.files[1:])
        return
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        runs = write_files(folder, args.runs, args.topics, args.results, seed=7)
        qrels = folder / "qrels.txt"
        size = sum(p.stat().st_size for p in runs) / 2**20
        print(f"{args.runs} runs x {args.topics} topics x {args.results} results "
              f"({size:.0f} MiB), written in {time.perf_counter() - started:.1f} s")  # fmt: skip
        check(str(qrels), list(map(str, runs)))
        figures: dict[str, dict[str, float]] = {}
        process = focal_process(qrels, runs, folder / "out.txt")
        if process is not None:
            figures["focal (process)"] = process
        for tool in TOOLS:
            if tool in args.skip:
                continue
            if tool == "trectools":
                try:
                    import trectools  # noqa: F401
                except ImportError:
                    print("trectools: not installed, skipped")
                    continue
            arguments = [sys.executable, "-P", __file__, "--child", tool, "--files", str(qrels)]
            result = measure([*arguments, *map(str, runs)])
            if result is not None:
                figures[tool] = result
        base = figures["pytrec_eval"]["seconds"]
        print(f"{'tool':<18}{'seconds':>9}{'x pytrec_eval':>15}{'peak MiB':>10}")
        for tool, figure in figures.items():
            ratio = figure["seconds"] / base
            print(f"{tool:<18}{figure['seconds']:>9.2f}{ratio:>15.2f}{figure['peak_mb']:>10.0f}")
        print(table_row(args, figures))


def table_row(args: argparse.Namespace, figures: dict[str, dict[str, float]]) -> str:
    """The line of docs/performance.md's table (benchmarks/table.py collects it)."""
    job = (
        f"article measures (trec_eval `official` set), {args.runs} × {args.topics} × {args.results}"
    )
    peer, focal = figures["pytrec_eval"], figures.get("focal (process)")
    theirs = (
        f"pytrec_eval, runs read into dicts: {peer['seconds']:.2f} s (CPU {peer['cpu']:.2f} s), "
        f"{peer['peak_mb']:.0f} MiB"
    )
    if focal is None:
        return f"TABLE | {job} | failed | {theirs} | - | ≤ 1.0, same values | |"
    ours = f"{focal['seconds']:.2f} s (CPU {focal['cpu']:.2f} s), {focal['peak_mb']:.0f} MiB"
    ratio = (
        f"**{focal['seconds'] / peer['seconds']:.2f}**, {focal['cpu'] / peer['cpu']:.2f}, "
        f"{focal['peak_mb'] / peer['peak_mb']:.2f}"
    )
    load = os.getloadavg()[0]
    return f"TABLE | {job} | {ours} | {theirs} | {ratio} | ≤ 1.0, same values | {load:.1f} |"


if __name__ == "__main__":
    main()
