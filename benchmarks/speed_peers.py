"""The peers of benchmarks/speed_goals.py, each run as a child process of its own.

    python -P benchmarks/speed_peers.py TOOL QRELS RUN...

TOOL is one of:
- `pytrec_eval`: TREC qrels and runs read into dicts by a plain Python loop (as
  benchmarks/articles.py reads them), one RelevanceEvaluator, `evaluate` per run;
- `pytrec_eval_fol`: the same on FOL qrels and runs, read in Python the way Focal reduces them to
  articles (docs/trec_eval.md): an article is relevant (grade 1) when it has relevant characters,
  and a run's article scores its best result;
- `ir_measures`, `ranx`: their own TREC readers and evaluation of the same measures;
- `pyarrow`: the floor, pyarrow's CSV reader reading every run into a table, nothing more.
- `pyarrow_inputs`: the same with the qrels read too (every input Focal reads).

Every tool prints one JSON object on its last line: the mean of MAP, P@10 and nDCG@10 of each run
over its topics (trec_eval's names), or `{}` for the floor. Timing and memory are the launcher's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

MEASURES = ("map", "P.10", "ndcg_cut.10")
Means = dict[str, dict[str, float]]
Judged = dict[str, dict[str, int]]
Ranked = dict[str, dict[str, float]]


def trec_qrels(path: str) -> Judged:
    judged: Judged = {}
    with open(path) as stream:
        for line in stream:
            topic, _, doc, grade = line.split()
            judged.setdefault(topic, {})[doc] = int(grade)
    return judged


def trec_run(path: str) -> tuple[str, Ranked]:
    run: Ranked = {}
    run_id = ""
    with open(path) as stream:
        for line in stream:
            topic, _, doc, _, score, run_id = line.split()
            run.setdefault(topic, {})[doc] = float(score)
    return run_id, run


def fol_qrels(path: str) -> Judged:
    """`topic Q0 article rel_chars article_chars ...`: grade 1 when rel_chars > 0."""
    judged: Judged = {}
    with open(path) as stream:
        for line in stream:
            fields = line.split()
            judged.setdefault(fields[0], {})[fields[2]] = 1 if int(fields[3]) > 0 else 0
    return judged


def fol_run(path: str) -> tuple[str, Ranked]:
    """`topic Q0 article rank score run_id offset length`: an article scores its best result."""
    run: Ranked = {}
    run_id = ""
    with open(path) as stream:
        for line in stream:
            topic, _, article, _, text, run_id = line.split()[:6]
            score, scores = float(text), run.setdefault(topic, {})
            if scores.get(article, -float("inf")) < score:
                scores[article] = score
    return run_id, run


def with_pytrec(
    read_qrels: Callable[[str], Judged], read_run: Callable[[str], tuple[str, Ranked]]
) -> Callable[[str, list[str]], Means]:
    def evaluate(qrels: str, runs: list[str]) -> Means:
        import pytrec_eval

        evaluator = pytrec_eval.RelevanceEvaluator(read_qrels(qrels), set(MEASURES))
        means = {}
        for path in runs:  # one run in memory at a time
            run_id, run = read_run(path)
            per_topic = evaluator.evaluate(run)
            names = next(iter(per_topic.values())).keys()
            means[run_id] = {
                name: sum(values[name] for values in per_topic.values()) / len(per_topic)
                for name in names
            }
        return means

    return evaluate


def ir_measures(qrels: str, runs: list[str]) -> Means:
    import ir_measures as irm
    from ir_measures import AP, P, nDCG

    judged = list(irm.read_trec_qrels(qrels))
    means = {}
    for path in runs:
        values = irm.calc_aggregate([AP, P @ 10, nDCG @ 10], judged, irm.read_trec_run(path))
        means[path] = {str(name): float(value) for name, value in values.items()}
    return means


def ranx(qrels: str, runs: list[str]) -> Means:
    from ranx import Qrels, Run, evaluate

    judged = Qrels.from_file(qrels, kind="trec")
    means = {}
    for path in runs:
        values: Any = evaluate(judged, Run.from_file(path, kind="trec"),
                               ["map", "precision@10", "ndcg@10"])  # fmt: skip
        means[path] = {name: float(value) for name, value in values.items()}
    return means


def pyarrow_floor(qrels: str, runs: list[str]) -> Means:
    """What reading the runs costs at the least: pyarrow's reader, its tables dropped."""
    from pyarrow import csv

    names = ["topic", "q0", "doc", "rank", "score", "run"]
    for path in runs:
        csv.read_csv(path, read_options=csv.ReadOptions(column_names=names),
                     parse_options=csv.ParseOptions(delimiter=" "))  # fmt: skip
    return {}


def pyarrow_inputs(qrels: str, runs: list[str]) -> Means:
    """What reading every input costs at the least: the qrels too (the read floor of
    benchmarks/trec_eval_cli.py)."""
    from pyarrow import csv

    csv.read_csv(qrels, read_options=csv.ReadOptions(column_names=["topic", "it", "doc", "grade"]),
                 parse_options=csv.ParseOptions(delimiter=" "))  # fmt: skip
    return pyarrow_floor(qrels, runs)


TOOLS: dict[str, Callable[[str, list[str]], Means]] = {
    "pytrec_eval": with_pytrec(trec_qrels, trec_run),
    "pytrec_eval_fol": with_pytrec(fol_qrels, fol_run),
    "ir_measures": ir_measures,
    "ranx": ranx,
    "pyarrow": pyarrow_floor,
    "pyarrow_inputs": pyarrow_inputs,
}

if __name__ == "__main__":
    tool, qrels_path, *run_paths = sys.argv[1:]
    print(json.dumps(TOOLS[tool](qrels_path, run_paths)))
