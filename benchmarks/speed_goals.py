"""The speed goals of the third pass, one command: every job beside its peer, ratio against goal.

Each row generates its files (the generators of the other benchmarks), then runs Focal and its
peer end to end from the files, each in a fresh process of its own, in this same run; wall time,
CPU time and peak memory (the child's maximum resident set, from `wait4`) come from
benchmarks/passages.py's launcher. Values are checked before a ratio is printed.

1. `focal eval --task articles` on FOL runs (50 runs x 50 topics x 1500 results, FOL qrels; the
   files of benchmarks/evaluation.py), measures spelt Focal's way (MAP, P@10, nDCG@10) and
   trec_eval's (map, P.10, ndcg_cut.10), against pytrec_eval reading the same files in Python.
2. The same on TREC runs (benchmarks/articles.py's files); ir_measures, ranx and the C trec_eval
   (when on PATH) are timed beside it for information.
3. 10,000 queries x 100 documents x 10 TREC runs: Focal's peak memory against pytrec_eval's, and
   its time against the floor (pyarrow's CSV reader reading the runs and nothing else), and for
   information against pyarrow reading every input, the qrels too (benchmarks/trec_eval_cli.py's
   floor); Focal and the floors three calls each in turn, their medians.
4. `focal eval --task elements -j 0` (benchmarks/elements.py's files): the cost per run and the
   fixed cost, from two numbers of runs; the `-j 0` output must equal the `-j 1` output.
5. `focal reliability sample` (benchmarks/reliability.py's campaign): the cost per trial, from
   two repeat counts (2 and 10, 4 fractions each; runs named d3-N), with its incremental
   re-scoring and with it switched off (every trial topic by topic): same output required.
6. `focal --help`, cold: the median of 7 calls, and the heavy modules `python -X importtime`
   shows it imports.

Rows 1-3 check MAP, P@10 and nDCG@10 of every run against pytrec_eval to 1e-9 (Focal with
`--trec-version 9`, pytrec_eval's semantics). `--scale` shrinks topics and queries (not runs nor
results) for a quick run; the goals hold at scale 1. A row whose feature is missing from the code
prints "n/a (reason)".

    .venv/bin/python -P benchmarks/speed_goals.py [--scale 1] [--only ROW...] [--skip PEER...]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the packages before benchmarks/, whose evaluation.py
sys.path.append(str(HERE))  # and reliability.py share their names: siblings load by path

from speed_launch import (  # noqa: E402
    FOCAL,
    PASSAGES,
    ROOT,
    Figures,
    NotAvailable,
    Row,
    optional,
    per_unit,
    run,
    said,
    show,
    sibling,
)

PEERS = [sys.executable, "-P", str(HERE / "speed_peers.py")]
FOCAL_NAMES, TREC_NAMES = ("MAP", "P@10", "nDCG@10"), ("map", "P.10", "ndcg_cut.10")
HEAVY = ("flask", "sqlalchemy", "scipy", "matplotlib", "pandas", "pyarrow")
Means = dict[str, dict[str, float]]


def focal_means(output: Path) -> Means:
    """The `all` rows of `focal eval --format tsv` by run id."""
    means: Means = {}
    with output.open() as stream:
        for record in csv.DictReader(stream, delimiter="\t"):
            if record["topic"] == "all":
                means.setdefault(record["run_id"], {})[record["measure"]] = float(record["value"])
    return means


def agreement(ours: Means, theirs: Means) -> str:
    """MAP, P@10 and nDCG@10 of every run equal to 1e-9, or the first difference."""
    if set(ours) != set(theirs):
        return f"DIFFER: runs {sorted(set(ours) ^ set(theirs))[:3]}"
    for run_id, values in theirs.items():
        for name, value in values.items():
            if abs(ours[run_id].get(name, float("nan")) - value) > 1e-9 or name not in ours[run_id]:
                return f"DIFFER: {run_id} {name} {ours[run_id].get(name)} against {value}"
    return f"same ({len(theirs)} runs x {len(TREC_NAMES)} measures, 1e-9)"


def focal_eval(folder: Path, qrels: Path, runs: list[Path], names: tuple[str, ...],
               tag: str) -> tuple[Figures, Means]:  # fmt: skip
    command = [*FOCAL, "eval", "--task", "articles", "--trec-version", "9", "--format", "tsv"]
    for name in names:
        command += ["-m", name]
    output = folder / f"focal-{tag}.tsv"
    figures = run([*command, str(qrels), *map(str, runs)], output)
    return figures, focal_means(output)


def peer(folder: Path, tool: str, qrels: Path, runs: list[Path]) -> tuple[Figures, Means]:
    output = folder / f"{tool}.json"
    figures = run([*PEERS, tool, str(qrels), *map(str, runs)], output)
    return figures, json.loads(output.read_text().splitlines()[-1])


def versus(job: str, ours: Figures, theirs: Figures, name: str, goal: float, values: str) -> Row:
    """A row of time ratios: the goal is on wall time, CPU time is the steadier figure on a
    shared machine (printed beside it)."""
    ratio = ours[0] / theirs[0]
    return Row(job, said(ours), f"{name} {said(theirs)}", ratio, ours[1] / theirs[1],
               f"≤ {goal}", ratio <= goal, f"{ours[2]:.0f} / {theirs[2]:.0f} MiB",
               values)  # fmt: skip


def articles_rows(folder: Path, scale: float, fol: bool, skip: list[str]) -> list[Row]:
    topics = max(2, round(50 * scale))
    size = f"50 runs × {topics} topics × 1500"
    if fol:
        runs = PASSAGES.write_synthetic(folder, topics, 1500, 50)
        qrels, tool, kind = folder / "synthetic.qrels", "pytrec_eval_fol", "FOL"
    else:
        runs = sibling("articles").write_files(folder, 50, topics, 1500, seed=7)
        qrels, tool, kind = folder / "qrels.txt", "pytrec_eval", "TREC"
    theirs, expected = peer(folder, tool, qrels, runs)
    rows = []
    for names, spelt in ((FOCAL_NAMES, "Focal's names"), (TREC_NAMES, "trec_eval names")):
        if not fol and names is FOCAL_NAMES:
            continue
        ours, means = focal_eval(folder, qrels, runs, names, spelt[:5])
        job = f"`eval --task articles`, {kind} runs, {size}" + (f" ({spelt})" if fol else "")
        rows.append(versus(job, ours, theirs, "pytrec_eval", 0.5 if fol else 0.35,
                           agreement(means, expected)))  # fmt: skip
    if not fol:
        for other in ("ir_measures", "ranx", "trec_eval"):
            job = f"(information) {other}, the same TREC files"
            if other in skip:
                rows.append(Row(job, "n/a (--skip)"))
            else:
                rows.append(optional(job, lambda o=other, j=job: information(
                    j, o, folder, qrels, runs, theirs)))  # fmt: skip
    return rows


def information(job: str, tool: str, folder: Path, qrels: Path, runs: list[Path],
                reference: Figures) -> Row:  # fmt: skip
    """Another peer's time on the same files, as a ratio to pytrec_eval's (not a goal)."""
    figures = c_trec(folder, qrels, runs) if tool == "trec_eval" else peer(
        folder, tool, qrels, runs)[0]  # fmt: skip
    return Row(job, "-", f"{tool} {said(figures)}", figures[0] / reference[0],
               figures[1] / reference[1], "(× pytrec_eval)", None,
               f"{figures[2]:.0f} MiB")  # fmt: skip


def c_trec(folder: Path, qrels: Path, runs: list[Path]) -> Figures:
    program = shutil.which("trec_eval")
    if program is None:
        raise NotAvailable("trec_eval not on PATH; benchmarks/ does not build it")
    wall = cpu = mib = 0.0
    for path in runs:  # one process per run, as trec_eval takes one run
        figures = run([program, "-m", "map", "-m", "P.10", "-m", "ndcg_cut.10", str(qrels),
                       str(path)], folder / "trec_eval.txt")  # fmt: skip
        wall, cpu, mib = wall + figures[0], cpu + figures[1], max(mib, figures[2])
    return wall, cpu, mib


def middle(calls: list[Figures]) -> Figures:
    """The median wall and CPU time of a side's calls, and its largest peak."""
    return (statistics.median(c[0] for c in calls), statistics.median(c[1] for c in calls),
            max(c[2] for c in calls))  # fmt: skip


def large_rows(folder: Path, scale: float) -> list[Row]:
    queries = max(10, round(10_000 * scale))
    runs = sibling("articles").write_files(folder, 10, queries, 100, seed=11)
    os.sync()  # the 400 MB just written reach the disk now, not while the first side is timed
    qrels = folder / "qrels.txt"
    size = f"{queries:,} queries × 100 docs × 10 TREC runs"
    theirs, expected = peer(folder, "pytrec_eval", qrels, runs)
    # Focal and the floors, three calls each in turn, their medians: the first process after
    # the files are written pays a one-off cost of the machine's (0.3-0.5 s here), whichever
    # side it is
    calls: dict[str, list[Figures]] = {"ours": [], "floor": [], "inputs": []}
    for _ in range(3):
        ours, means = focal_eval(folder, qrels, runs, TREC_NAMES, "large")
        calls["ours"].append(ours)
        calls["floor"].append(peer(folder, "pyarrow", qrels, runs)[0])
        calls["inputs"].append(peer(folder, "pyarrow_inputs", qrels, runs)[0])
    ours, floor, inputs = (middle(calls[side]) for side in ("ours", "floor", "inputs"))
    memory = ours[2] / theirs[2]
    values = agreement(means, expected)
    return [
        Row(f"{size}, peak memory", f"{ours[2]:.0f} MiB", f"pytrec_eval {theirs[2]:.0f} MiB",
            memory, None, "≤ 1.0", memory <= 1.0, f"{ours[2]:.0f} / {theirs[2]:.0f} MiB",
            values),
        versus(f"{size}, time against the floor", ours, floor, "pyarrow reads the runs", 2.0,
               values),
        Row(f"{size}, time against reading every input (information)", said(ours),
            f"pyarrow reads the qrels and the runs {said(inputs)}", ours[0] / inputs[0],
            ours[1] / inputs[1], "-", None, f"{ours[2]:.0f} / {inputs[2]:.0f} MiB", values),
    ]  # fmt: skip


def elements_row(folder: Path, scale: float) -> Row:
    topics = max(2, round(100 * scale))
    qrels, runs = sibling("elements").write_synthetic(folder, topics, 1500, 16)
    command = [*FOCAL, "eval", "--task", "elements", "--format", "tsv", "-q"]
    for name in ("P@k", "overlap@k", "inex_eval", "nxCG@k", "MAep"):
        command += ["-m", name]
    sizes = []
    for n in (4, 16):
        sizes.append((n, run([*command, "-j", "0", str(qrels), *map(str, runs[:n])],
                             folder / f"elements-{n}.tsv")))  # fmt: skip
    serial = run([*command, "-j", "1", str(qrels), *map(str, runs[:4])], folder / "one.tsv")
    same = (folder / "one.tsv").read_bytes() == (folder / "elements-4.tsv").read_bytes()
    slope, fixed = per_unit(sizes[0], sizes[1])
    return Row(f"`eval --task elements -j 0`, {topics} topics × 1500, per run (4 and 16 runs)",
               f"{slope:.3f} s a run + {fixed:.2f} s fixed", f"-j 1, 4 runs: {said(serial)}",
               None, None, "≤ 0.25 s a run", slope <= 0.25, f"{sizes[1][1][2]:.0f} MiB",
               "-j 0 = -j 1" if same else "DIFFER: -j 0 and -j 1 outputs")  # fmt: skip


# `focal reliability sample` with the incremental re-scoring switched off: every trial scored
# topic by topic, as before the re-scoring existed (exit 3 where the code has only that path).
TOPIC_BY_TOPIC = """
import sys
import focal.reliability.studies as studies
if not hasattr(studies, "rescorer"):
    sys.exit(3)
studies.rescorer = lambda *arguments: None
from focal.assessor.cli.main import main
main()
"""


def per_trial(folder: Path, paths: list[Path], focal: list[str],
              tag: str) -> tuple[float, float, float, float, str]:  # fmt: skip
    """Wall and CPU seconds a trial, fixed wall seconds (from 2 and 10 repeats of 4 fractions),
    and the peak MiB and output of the larger call."""
    figures = []
    for repeats in (2, 10):
        output = folder / f"{tag}-{repeats}.tsv"
        command = [*focal, "reliability", "sample", "--repeats", str(repeats), "--format", "tsv"]
        figures.append((4 * repeats, run([*command, str(folder / "qrels"), *map(str, paths)],
                                         output)))  # fmt: skip
    wall, fixed = per_unit(figures[0], figures[1])
    cpu = (figures[1][1][1] - figures[0][1][1]) / (figures[1][0] - figures[0][0])
    return wall, cpu, fixed, figures[1][1][2], output.read_text()


def reliability_row(folder: Path, scale: float, before: float) -> Row:
    """The incremental re-scoring against the topic-by-topic path, in the same run, with the
    same output required; where the code has one path, against `--trial-before`."""
    topics = max(4, round(100 * scale))
    # run ids of the form d3-17: the form the issue found off the fast path
    paths = sibling("reliability").write_campaign(folder, 30, topics, 100, 3, "d3-{}")
    wall, cpu, fixed, mib, text = per_trial(folder, paths, FOCAL, "sample")
    job = f"`reliability sample`, 30 runs (ids d3-N) × {topics} topics × 100, per trial (8, 40)"
    ours = f"{wall:.3f} s a trial (CPU {cpu:.3f} s) + {fixed:.2f} s fixed"
    try:
        slow = per_trial(folder, paths, [sys.executable, "-P", "-c", TOPIC_BY_TOPIC], "topics")
    except NotAvailable:
        return Row(job, ours, f"before: CPU {before:.3f} s a trial (--trial-before)", None,
                   cpu / before, "≤ 0.1 (CPU)", cpu / before <= 0.1, f"{mib:.0f} MiB",
                   "n/a (one path in the code)")  # fmt: skip
    same = "same output as topic by topic" if slow[4] == text else "DIFFER from topic by topic"
    return Row(job, ours, f"topic by topic: {slow[0]:.3f} s a trial (CPU {slow[1]:.3f} s)",
               wall / slow[0], cpu / slow[1], "≤ 0.1 (CPU)", cpu / slow[1] <= 0.1,
               f"{mib:.0f} / {slow[3]:.0f} MiB",
               same)  # fmt: skip


def help_row(folder: Path) -> Row:
    script = Path(sys.executable).with_name("focal")
    command = [str(script)] if script.exists() else [*FOCAL]
    walls = [run([*command, "--help"], folder / "help.txt")[0] for _ in range(7)]
    median = statistics.median(walls)
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "from focal.assessor.cli.main "
                           "import main; main(['--help'])"], cwd=ROOT, capture_output=True,
                          text=True)  # fmt: skip
    top: dict[str, int] = {}
    for line in done.stderr.splitlines():
        fields = line.removeprefix("import time:").split("|")
        if len(fields) == 3 and fields[1].strip().isdigit():
            name = fields[2].strip().split(".")[0]
            top[name] = max(top.get(name, 0), int(fields[1]))
    heavy = [name for name in HEAVY if name in top]
    slowest = sorted(top.items(), key=lambda item: -item[1])[:5]
    listed = ", ".join(f"{name} {micro / 1000:.0f} ms" for name, micro in slowest)
    ok = median <= 0.15 and not heavy
    return Row("`focal --help`, cold (median of 7)", f"{median:.3f} s",
               "trec_eval starts in milliseconds", None, None, "≤ 0.15 s, nothing heavy", ok,
               "-", f"heavy: {', '.join(heavy) or 'none'}; slowest imports: {listed}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="Topics and queries x this.")
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        help="Peers for information to leave "
        "out: ir_measures, ranx (its first call compiles for minutes), trec_eval.",
    )
    parser.add_argument("--only", nargs="*", default=[], help="Rows to run: fol, trec, "
                        "large, elements, studies, help (default: all).")  # fmt: skip
    parser.add_argument("--trial-before", type=float, default=0.37,
                        help="CPU seconds a trial topic by topic, where the code cannot switch "
                        "its re-scoring off (the issue's figure).")  # fmt: skip
    options = parser.parse_args()
    PASSAGES.compile_focal()
    scale = options.scale
    jobs: list[tuple[str, Callable[[Path], Any]]] = [
        ("fol", lambda f: articles_rows(f, scale, True, options.skip)),
        ("trec", lambda f: articles_rows(f, scale, False, options.skip)),
        ("large", lambda f: large_rows(f, scale)),
        ("elements", lambda f: elements_row(f, scale)),
        ("studies", lambda f: reliability_row(f, scale, options.trial_before)),
        ("help", help_row),
    ]  # fmt: skip
    table = []
    for job, build in jobs:
        if options.only and job not in options.only:
            continue
        print(f"== {job}", flush=True)
        with tempfile.TemporaryDirectory(prefix="speed-") as name:
            made = optional(job, lambda b=build, n=name: b(Path(n)))
        for row in made if isinstance(made, list) else [made]:
            table.append(show(row))
            print(table[-1], flush=True)
    load = os.getloadavg()[0]
    print(f"\n--scale {scale}; load average {load:.1f} on {os.cpu_count()} cores "
          f"({sibling('table').machine()})\n")  # fmt: skip
    print("| job | Focal | peer | ratio (wall; CPU) | goal | met | peak memory (Focal / peer) "
          "| values |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
