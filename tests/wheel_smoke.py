"""A smoke test of an installed Focal, run by cibuildwheel on every wheel it builds
(pyproject.toml, `[tool.cibuildwheel]` test-command) and by tests/test_wheel.py.

Standard library only, so that it runs in the fresh environment that holds nothing but the wheel
and its dependencies: it writes small TREC qrels and a run into a temporary folder, runs the
installed `focal trec_eval` on them and checks the `map` row against mean average precision
computed here, from the same generated judgements and scores (docs/trec_eval.md).

    python tests/wheel_smoke.py [FOCAL]     # FOCAL: the `focal` script to run (default: on PATH)
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

Qrels = dict[str, dict[str, int]]
Scores = dict[str, dict[str, float]]


def generated(seed: int = 7, topics: int = 4, documents: int = 12) -> tuple[Qrels, Scores]:
    """Judgements (grades 0-2, at least one relevant document per topic) and a run's distinct
    scores, made from `seed`."""
    chooser = random.Random(seed)
    qrels: Qrels = {}
    scores: Scores = {}
    for topic in range(1, topics + 1):
        names = [f"doc{topic}-{number:02d}" for number in range(documents)]
        grades = {name: chooser.choice((0, 0, 1, 2)) for name in names}
        grades[chooser.choice(names)] = 1 + chooser.randrange(2)
        qrels[str(topic)] = grades
        values = chooser.sample(range(1, 1000), documents)
        scores[str(topic)] = {name: value / 10 for name, value in zip(names, values, strict=True)}
    return qrels, scores


def write_inputs(folder: Path, seed: int = 7) -> tuple[Path, Path]:
    """The generated qrels and run as TREC files in `folder`: (qrels, run)."""
    qrels, scores = generated(seed)
    qrels_path, run_path = folder / "smoke.qrels", folder / "smoke.run"
    qrels_path.write_text(
        "".join(f"{t} 0 {d} {g}\n" for t, judged in qrels.items() for d, g in judged.items()),
        encoding="utf-8",
    )
    lines = []
    for topic, scored in scores.items():
        ranked = sorted(scored, key=lambda doc: -scored[doc])
        lines += [f"{topic} Q0 {doc} {rank} {scored[doc]} smoke\n" for rank, doc in
                  enumerate(ranked, 1)]  # fmt: skip
    run_path.write_text("".join(lines), encoding="utf-8")
    return qrels_path, run_path


def mean_average_precision(qrels: Qrels, scores: Scores) -> float:
    """Average precision per topic (relevant: grade > 0), averaged over the run's topics."""
    values = []
    for topic, scored in scores.items():
        relevant = {doc for doc, grade in qrels[topic].items() if grade > 0}
        ranked = sorted(scored, key=lambda doc: -scored[doc])
        found, total = 0, 0.0
        for rank, doc in enumerate(ranked, 1):
            if doc in relevant:
                found += 1
                total += found / rank
        values.append(total / len(relevant))
    return sum(values) / len(values)


def main(focal: str) -> int:
    with tempfile.TemporaryDirectory() as folder:
        qrels_path, run_path = write_inputs(Path(folder))
        done = subprocess.run(
            [focal, "trec_eval", str(qrels_path), str(run_path)], capture_output=True, text=True
        )
    if done.returncode != 0:
        print(f"focal trec_eval failed ({done.returncode}):\n{done.stderr}", file=sys.stderr)
        return 1
    rows = {line.split()[0]: line.split()[-1] for line in done.stdout.splitlines() if line.strip()}
    expected = f"{mean_average_precision(*generated()):.4f}"
    if rows.get("map") != expected:
        print(f"focal trec_eval: map {rows.get('map')}, expected {expected}", file=sys.stderr)
        return 1
    print(f"focal trec_eval: map {expected} as expected")
    return 0


if __name__ == "__main__":
    found = sys.argv[1] if len(sys.argv) > 1 else shutil.which("focal")
    if found is None:
        sys.exit("wheel_smoke.py: no `focal` on PATH; give the script's path")
    sys.exit(main(found))
