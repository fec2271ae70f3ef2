"""Speed and peak memory of `focal trec_eval` against the C trec_eval 10.0, pytrec_eval,
ir_measures and ranx, one run per call as trec_eval is called, on the same generated files.

Generated: TREC qrels of TOPICS topics (RESULTS/2 judged documents each: grades 0, 1, 2 and a
few -1) and RUNS runs of TOPICS × RESULTS documents (scores with 3 decimals: ties occur). Each
tool computes trec_eval's `official` set, end to end from the files, in a fresh process (cold:
interpreter start, imports, reading, evaluation, output):
- `trec_eval`: the C program (`--trec-eval PATH` or $TREC_EVAL; skipped when absent), one call
  per run;
- `focal trec_eval`: the `focal` script, one call per run; before timing, its bytes are checked
  against the C program's on the first run;
- `focal (one process)`: every run in one interpreter through the Python API, one call
  `focal.evaluation.evaluate(qrels, runs, task="articles", measures=["official"])` (a warm
  Focal: the whole-file pass of each run, the per-topic values kept);
- `... (numpy)`: the two Focal rows again with FOCAL_KERNEL=numpy, the path of an install
  without a C compiler (docs/trec_eval.md, "The C part"), with the ratio numpy ÷ compiled
  (`--skip numpy` leaves them out); the compiled rows run with FOCAL_KERNEL=auto, and the first
  line says whether the compiled module is active;
- pytrec_eval, ir_measures (its default provider for these measures is pytrec_eval), ranx
  (skipped when absent): one process reads the qrels and every run and evaluates them;
- `pyarrow read floor`: one process reading the qrels and every run with pyarrow's CSV reader
  and nothing else, the least any columnar Python reader pays.
Time is wall-clock, and CPU time (user + system) beside it; memory the largest resident size
of any one process (both from `wait4`).

    .venv/bin/python -P benchmarks/trec_eval_cli.py [--runs 10 --topics 10000 --results 100]
    .venv/bin/python -P benchmarks/trec_eval_cli.py --runs 3 --topics 50 --results 1500 \
        --options '-m all_trec'      # another measure set: the two programs only
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
FOCAL = Path(sys.executable).with_name("focal")


def write_files(folder: Path, runs: int, topics: int, results: int, seed: int) -> list[Path]:
    """The qrels and runs of benchmarks/articles.py, its generator loaded by path (in a child
    process: this one stays small, for its children's peak memory starts at their parent's
    when they are forked)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_articles", HERE / "articles.py")
    assert spec is not None and spec.loader is not None
    articles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(articles)
    paths: list[Path] = articles.write_files(folder, runs, topics, results, seed)
    return paths


def timed(commands: list[list[str]], kernel: str) -> tuple[float, float, float] | None:
    """Wall and CPU seconds of the commands one after another (FOCAL_KERNEL=kernel), and the
    largest peak RSS (MiB); None, with the error printed, when one fails (the other rows still
    run)."""
    start, cpu, peak = time.perf_counter(), 0.0, 0.0
    env = kernel_env(kernel)
    for command in commands:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
            _, status, usage = os.wait4(process.pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                err.seek(0)
                lines = err.read().decode(errors="replace").strip().splitlines()
                print(f"{command[:3]} failed: {lines[-1][:200] if lines else 'no message'}")
                return None
        cpu += usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss / 1024)
    return time.perf_counter() - start, cpu, peak


def kernel_env(kernel: str) -> dict[str, str]:
    """This process's environment with FOCAL_KERNEL=kernel (auto: the compiled module when the
    install built it; numpy: the path without it)."""
    return {**os.environ, "FOCAL_KERNEL": kernel}


def same_bytes(command: list[str], reference: list[str], kernel: str) -> bool:
    """Whether the command prints the bytes `reference` prints, with FOCAL_KERNEL=kernel for the
    command. The outputs go from child to child (bash's `cmp`), never through this process: a
    child's peak resident size starts at this process's peak (Linux counts the parent's pages
    until the child's exec), and `-q -m all_trec` prints 33 MiB on 10,000 topics."""
    ours = shlex.join(["env", f"FOCAL_KERNEL={kernel}", *command])
    theirs = shlex.join(["env", "FOCAL_KERNEL=auto", *reference])
    return subprocess.run(["bash", "-c", f"cmp -s <({ours}) <({theirs})"]).returncode == 0


def child(tool: str, qrels: str, runs: list[str]) -> None:
    """One peer in this process: read everything, evaluate `official`."""
    if tool == "floor":
        import pyarrow as pa
        import pyarrow.csv as pa_csv

        def read(path: str, names: list[str], keep: list[str]) -> None:
            pa_csv.read_csv(path, read_options=pa_csv.ReadOptions(column_names=names),
                            parse_options=pa_csv.ParseOptions(delimiter=" "),
                            convert_options=pa_csv.ConvertOptions(
                                include_columns=keep,
                                column_types={n: pa.large_binary() for n in keep[:2]}))  # fmt: skip

        read(qrels, ["topic", "iter", "doc", "grade"], ["topic", "doc", "grade"])
        for path in runs:
            read(path, ["topic", "q0", "doc", "rank", "score", "run"], ["topic", "doc", "score"])
    elif tool == "focal-warm":  # (the Python API: docs/python.md)
        from focal.evaluation import evaluate

        evaluate(qrels, runs, task="articles", measures=["official"])
    elif tool == "pytrec_eval":
        import pytrec_eval

        evaluator = pytrec_eval.RelevanceEvaluator(_qrels_dict(qrels), {"official"})
        for path in runs:
            evaluator.evaluate(_run_dict(path))
    elif tool == "ir_measures":
        import ir_measures
        from ir_measures import AP, RR, Bpref, NumQ, NumRel, NumRelRet, NumRet, P, Rprec

        measures = [NumQ, NumRet, NumRel, NumRelRet, AP, Rprec, Bpref, RR,
                    *[P @ k for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]]  # fmt: skip
        judgements = list(ir_measures.read_trec_qrels(qrels))
        for path in runs:
            ir_measures.calc_aggregate(measures, judgements, ir_measures.read_trec_run(path))
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate

        truth = Qrels.from_file(qrels, kind="trec")
        for path in runs:
            evaluate(truth, Run.from_file(path, kind="trec"),
                     ["map", "precision@5", "precision@10", "r-precision", "mrr"])  # fmt: skip
    print(json.dumps({"ok": True}))


def _qrels_dict(path: str) -> dict[str, dict[str, int]]:
    judged: dict[str, dict[str, int]] = {}
    with open(path) as stream:
        for line in stream:
            topic, _, doc, grade = line.split()
            judged.setdefault(topic, {})[doc] = int(grade)
    return judged


def _run_dict(path: str) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    with open(path) as stream:
        for line in stream:
            topic, _, doc, _, score, _ = line.split()
            run.setdefault(topic, {})[doc] = float(score)
    return run


def available(module: str) -> bool:
    """Installed, found without importing it (an import would grow this process, and with it
    the peak memory its children start from)."""
    import importlib.util

    return importlib.util.find_spec(module) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--topics", type=int, default=10000)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL", "trec_eval"))
    parser.add_argument("--focal", type=Path, default=FOCAL, help="the focal script to time")
    parser.add_argument("--skip", nargs="*", default=[], help="rows to leave out (ranx, numpy)")
    parser.add_argument(
        "--options",
        default="",
        help="trec_eval options for both programs, "
        "such as '-q -m all_trec' (then only the two programs are timed)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "generate":
        write_files(Path(args.files[0]), args.runs, args.topics, args.results, seed=11)
        return
    if args.child:
        child(args.child, args.files[0], args.files[1:])
        return
    c_program = shutil.which(args.trec_eval)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        sizes = ["--runs", str(args.runs), "--topics", str(args.topics), "--results",
                 str(args.results)]  # fmt: skip
        subprocess.run([sys.executable, "-P", __file__, *sizes, "--child", "generate",
                        "--files", name], check=True)  # fmt: skip
        runs = sorted(folder.glob("run*.txt"))
        qrels = str(folder / "qrels.txt")
        size = sum(p.stat().st_size for p in runs) / 2**20
        print(f"{args.runs} runs x {args.topics} topics x {args.results} results ({size:.1f} MiB)")
        paths = list(map(str, runs))
        given = shlex.split(args.options)
        if given:
            print(f"options: {args.options}")
        version = subprocess.run([str(args.focal), "--version"], capture_output=True, text=True,
                                 env=kernel_env("auto")).stdout  # fmt: skip
        print("focal:", next((x.strip() for x in version.splitlines() if "C part" in x), "?"))
        first = [str(args.focal), "trec_eval", *given, qrels, paths[0]]
        reference = [c_program, *given, qrels, paths[0]] if c_program else first
        if c_program:
            assert same_bytes(first, reference, "auto"), "focal differs from trec_eval"
            print("checked: focal trec_eval prints trec_eval's bytes on the first run")
        numpy = "numpy" not in args.skip
        if numpy:
            assert same_bytes(first, reference, "numpy"), "the numpy path prints other bytes"
            print("checked: FOCAL_KERNEL=numpy prints the same bytes as "
                  f"{'trec_eval' if c_program else 'the compiled path'}, first run")  # fmt: skip
        plans: dict[str, tuple[list[list[str]], str]] = {}
        if c_program:
            plans["trec_eval (C)"] = ([[c_program, *given, qrels, p] for p in paths], "auto")
        calls = [[str(args.focal), "trec_eval", *given, qrels, p] for p in paths]
        plans["focal trec_eval"] = (calls, "auto")
        if numpy:
            plans["focal trec_eval (numpy)"] = (calls, "numpy")
        here = [sys.executable, "-P", __file__, "--child"]
        for tool, label in (("focal-warm", "focal (one process)"), ("pytrec_eval", "pytrec_eval"),
                            ("ir_measures", "ir_measures"), ("ranx", "ranx"),
                            ("floor", "pyarrow read floor")):  # fmt: skip
            module = {"focal-warm": "focal", "floor": "pyarrow"}.get(tool, tool)
            if tool in args.skip or given:  # (the peers compute the official set only)
                continue
            if not available(module):
                print(f"{tool}: not installed, skipped")
                continue
            plans[label] = ([[*here, tool, "--files", qrels, *paths]], "auto")
            if tool == "focal-warm" and numpy:
                plans[f"{label[:-1]}, numpy)"] = (plans[label][0], "numpy")
        figures = {label: timed(commands, kernel) for label, (commands, kernel) in plans.items()}
        print_table(figures)


def print_table(timings: dict[str, tuple[float, float, float] | None]) -> None:
    """Every row: wall and CPU seconds, their ratios to the C program (or the first peer
    present), wall over the floor's, numpy over compiled (wall; CPU) on the numpy rows, peak."""
    figures = {label: figure for label, figure in timings.items() if figure is not None}
    base = next((figures[k] for k in ("trec_eval (C)", "pytrec_eval", "focal trec_eval")
                 if k in figures), (0.0, 0.0, 0.0))  # fmt: skip
    floor = figures.get("pyarrow read floor", (0.0, 0.0, 0.0))[0]
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    print(f"{'tool':<29}{'seconds':>8}{'CPU s':>8}{'x C':>7}{'CPU x C':>8}{'x floor':>8}"
          f"{'peak MiB':>9}  numpy / compiled")  # fmt: skip
    for label in [label for label in timings if label not in figures]:
        print(f"{label:<29}{'failed':>8}")
    for label, (seconds, cpu, peak) in figures.items():
        compiled = figures.get(label.replace(" (numpy)", "").replace(", numpy)", ")"))
        versus = ""
        if "numpy" in label and compiled is not None:
            versus = f"  {seconds / compiled[0]:.2f} (CPU {cpu / compiled[1]:.2f})"
        over_floor = f"{seconds / floor:>8.2f}" if floor else f"{'-':>8}"
        ratios = f"{seconds / base[0]:>7.2f}{cpu / base[1]:>8.2f}" if base[0] else f"{'-':>15}"
        print(f"{label:<29}{seconds:>8.2f}{cpu:>8.2f}{ratios}{over_floor}{peak:>9.0f}"
              f"{versus}")  # fmt: skip


if __name__ == "__main__":
    main()
