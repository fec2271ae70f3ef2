"""The studies on the real INEX 2010 qrels and runs (skipped when ../shared is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command
from focal.reliability.cli.commands import reliability

RUN_IDS = ("bert-passages", "bert-passages-half", "indri-passages", "indri-passages-b")


@pytest.fixture
def inputs(inex2010: Path) -> tuple[Path, list[Path]]:
    return inex2010 / "inex2010.qrels", [inex2010 / "runs" / f"{r}.fol.run" for r in RUN_IDS]


def pooled_by_hand(runs: list[Path], depth: int) -> dict[str, set[str]]:
    """Topic -> the first `depth` distinct articles of every run, read line by line."""
    pooled: dict[str, set[str]] = {}
    for path in runs:
        seen: dict[str, list[str]] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            topic, _, article = line.split()[:3]
            articles = seen.setdefault(topic, [])
            if article not in articles and len(articles) < depth:
                articles.append(article)
        for topic, articles in seen.items():
            pooled.setdefault(topic, set()).update(articles)
    return pooled


@pytest.mark.slow
def test_leave_out_unique_agrees_with_focal_eval_c_on_qrels_restricted_by_hand(
    inputs: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    qrels, runs = inputs
    groups = tmp_path / "groups.tsv"
    groups.write_text("bert-passages\tbert\nbert-passages-half\tbert\n", encoding="utf-8")
    outcome = CliRunner().invoke(
        reliability,
        ["leave-out", "--groups", str(groups), "--depth", "20", "--format", "json", "-j", "1",
         str(qrels), *map(str, runs)],
    )  # fmt: skip
    assert outcome.exit_code == 0, outcome.stderr
    left_out = {row["run"]: row["score_left_out"] for row in json.loads(outcome.stdout)["runs"]}
    others = pooled_by_hand(runs[2:], 20)
    restricted = tmp_path / "without-bert.qrels"
    lines = qrels.read_text(encoding="utf-8").splitlines(keepends=True)
    restricted.write_text(
        "".join(line for line in lines if line.split()[2] in others.get(line.split()[0], ())),
        encoding="utf-8",
    )
    evaluated = CliRunner().invoke(
        eval_command, ["-c", "--format", "tsv", "-j", "1", str(restricted), *map(str, runs[:2])]
    )
    assert evaluated.exit_code == 0, evaluated.stderr
    maip = {
        fields[0]: float(fields[3])
        for fields in (line.split("\t") for line in evaluated.stdout.splitlines()[1:])
        if fields[1] == "MAiP"
    }
    # `focal eval -c` averages over the restricted file's topics; a topic whose every
    # judgement fell out of the pool is missing there but counts 0 in the study.
    topics = {line.split()[0] for line in lines}
    kept = {line.split()[0] for line in restricted.read_text().splitlines()}
    for run_id in ("bert-passages", "bert-passages-half"):
        assert left_out[run_id] == pytest.approx(maip[run_id] * len(kept) / len(topics), abs=1e-12)


@pytest.mark.slow
def test_every_study_runs_on_the_shared_runs(
    inputs: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    qrels, runs = inputs
    files = [str(qrels), *map(str, runs)]
    for arguments in (
        ["sample", "--fractions", "50", "--repeats", "2", "-j", "1"],
        ["depth", "--depths", "10,50", "-j", "1"],
        ["topics", "--sizes", "5,10,20", "--trials", "10", "--plot", str(tmp_path / "s.svg")],
    ):
        outcome = CliRunner().invoke(reliability, [*arguments, *files])
        assert outcome.exit_code == 0, outcome.stderr
        assert outcome.stdout.startswith("# ")
    assert (tmp_path / "s.svg").read_text().startswith("<?xml")
    full = CliRunner().invoke(eval_command, ["--format", "tsv", "-j", "1", *files])
    (tmp_path / "full.tsv").write_text(full.stdout)
    outcome = CliRunner().invoke(
        reliability,
        ["rankcorr", "--format", "tsv", str(tmp_path / "full.tsv"), str(tmp_path / "full.tsv")],
    )
    assert outcome.exit_code == 0, outcome.stderr
    assert outcome.stdout.splitlines() == [
        "measure\ttau_a\ttau_b\ttau_ap\truns",
        "MAiP\t1.0\t1.0\t1.0\t4",
    ]
