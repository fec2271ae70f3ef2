"""`focal pool simulate` on the hand-made campaign of conftest.py: budgets worked by hand for the
rank order, the tables' columns, the rankings with every judgement made, plots and bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main


def simulate(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["pool", "simulate", *arguments])
    return result.exit_code, result.stdout, result.stderr


def budgets(tsv: str) -> list[dict[str, str]]:
    first = tsv.split("\n\n", 1)[0]
    return list(csv.DictReader(io.StringIO(first), delimiter="\t"))


def test_rank_order_budgets_worked_by_hand(campaign: tuple[Path, list[Path], Path]) -> None:
    qrels, runs, _ = campaign
    code, out, err = simulate(
        "--policy", "rank", "--task", "articles", "--format", "tsv", str(qrels), *map(str, runs)
    )
    assert code == 0, err
    rows = {(r["topic"], float(r["found"])): float(r["judgements"]) for r in budgets(out)}
    # Topic 2: the runs retrieve b1..b4 (relevant) and y1 (q3 is not judged: not pooled). Each
    # article at its best distinct rank, ties by run order: b1 (alpha, 1), y1 (beta, 1), b2
    # (gamma, 1), b4 (delta, 1), b3 (beta, 2). Relevant found: 1, 1, 2, 3, 4 of 4, so half needs
    # 3 judgements and 80, 90 and 95 % (4 articles) need all 5.
    assert [rows[("2", share)] for share in (0.5, 0.8, 0.9, 0.95)] == [3, 5, 5, 5]
    # `all` is the mean over the three topics.
    for share in (0.5, 0.8, 0.9, 0.95):
        per_topic = [rows[(topic, share)] for topic in ("1", "2", "3")]
        assert rows[("all", share)] == sum(per_topic) / 3


def test_every_policy_and_table(campaign: tuple[Path, list[Path], Path], tmp_path: Path) -> None:
    qrels, runs, _ = campaign
    figure = tmp_path / "curves.png"
    code, out, err = simulate(
        "--task", "articles", "--repeats", "2", "--budgets", "2,100", "--format", "json",
        "--plot", str(figure), str(qrels), *map(str, runs),
    )  # fmt: skip
    assert code == 0, err
    tables = json.loads(out)
    policies = {"rank", "random", "mtf", "ucb", "thompson", "thompson-ns"}
    assert {row["policy"] for row in tables["budgets"]} == policies
    assert set(tables["budgets"][0]) == {"policy", "topic", "found", "judgements"}
    assert {row["topic"] for row in tables["budgets"]} == {"1", "2", "3", "all"}
    # With every pooled article judged (budget 100 > any pool) each ranking is the full one.
    full = [row for row in tables["rankings MAP"] if row["budget"] == 100]
    assert len(full) == len(policies)
    assert all(row["tau"] == pytest.approx(1.0) and row["tau_ap"] == 1.0 for row in full)
    # The curves end where every relevant article is found.
    last = [row for row in tables["curves"] if row["judgements"] == 500]
    assert all(row["relevant_share"] == 1.0 for row in last)
    assert figure.read_bytes().startswith(b"\x89PNG")


def test_text_shows_the_mean_over_topics(campaign: tuple[Path, list[Path], Path]) -> None:
    qrels, runs, _ = campaign
    code, out, _ = simulate(
        "--policy", "mtf,rank", "--task", "articles", str(qrels), *map(str, runs)
    )
    assert code == 0
    budget_lines = out.split("\n\n")[0].splitlines()[2:]
    assert budget_lines and all(line.split()[1] == "all" for line in budget_lines)


def test_unknown_policy_is_one_line(campaign: tuple[Path, list[Path], Path]) -> None:
    qrels, runs, _ = campaign
    code, out, err = simulate("--policy", "greedy", str(qrels), *map(str, runs))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "unknown judging order 'greedy'" in err
