"""Seed 004's query sampling (Fig 3, Table 6) and pool sampling summary (Table 3), and seed
003's Table V "Other" row, on hand-worked inputs and against an independent recomputation."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.measures.evaluate import evaluate
from focal.reliability.cli.commands import reliability
from focal.reliability.queries import query_sampling, threshold
from focal.reliability.scores import ScoreMatrix

from .conftest import GROUPS, RUNS
from .test_studies import hand_restricted_qrels

Campaign = tuple[Path, list[Path], Path]

# Three runs on three topics, worked by hand. Means over all topics: A .5333, B .4833, C .4 (A >
# B > C). Topics 1 and 2 alone, and every pair of topics but {2, 3}, keep A > B > C (τ = 1);
# topic 3 alone (C .7 > B .45 > A .1) and topics {2, 3} (C .55 > B .475 > A .35) reverse it
# (τ = −1, and τ_AP = −1: every run below its reference place).
HAND = ScoreMatrix(
    ("A", "B", "C"), ("1", "2", "3"),
    np.array([[0.9, 0.6, 0.1], [0.5, 0.5, 0.45], [0.1, 0.4, 0.7]]),
)  # fmt: skip


def invoke(*args: str | Path) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(reliability, [str(arg) for arg in args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


def test_query_sampling_worked_by_hand() -> None:
    every, pairs, single = query_sampling(HAND, [3, 2, 1], trials=40, seed=2)
    assert (every.tau.mean, every.tau.sd, every.tau_ap.mean) == (1.0, 0.0, 1.0)
    for row, reversed_share in ((pairs, 1 / 3), (single, 1 / 3)):
        # every trial is +1 or −1, so mean = 1 − 2 · (share of reversing draws)
        share = (1 - row.tau.mean) / 2
        assert share * 40 == pytest.approx(round(share * 40), abs=1e-9)
        assert abs(share - reversed_share) < 0.25 and row.tau_min == -1.0
        assert row.tau_ap.mean == pytest.approx(row.tau.mean, abs=1e-12)
    assert query_sampling(HAND, [2], 40, seed=2)[0] == pairs  # a size's draws are its own


def test_thresholds_read_as_tables_3_and_6() -> None:
    found = threshold([10, 20, 30, 40], [0.5, 0.85, 0.92, 0.97])
    assert (found.reaching, found.below) == (30, 20)
    assert found.text(50) == ">20 (40%), <=30 (60%)"
    assert threshold([10, 20], [0.95, 0.91]).text(40) == "<=10 (25%)"
    assert threshold([10, 20], [0.95, 0.89]).text(40) == ">20 (50%)"


def test_queries_and_sample_commands_print_the_summaries(campaign: Campaign) -> None:
    code, out, err = invoke("queries", "--sizes", "3,2", "--trials", "4", "--format", "json",
                            campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert [row["topics"] for row in document["queries AiP"]] == [3, 2]
    assert document["queries AiP"][0]["tau_mean"] == pytest.approx(1.0)
    assert document["summary"][0]["topics_all"] == 3
    code, out, err = invoke("sample", "--fractions", "100,50", "--repeats", "2", "--format",
                            "json", campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    (summary,) = json.loads(out)["summary"]
    assert summary["relevant_all"] == 15 and summary["needed"].startswith(("<=", ">"))


def test_table_v_other_row_equals_an_independent_count(campaign: Campaign, tmp_path: Path) -> None:
    """Scores of every run on the baseline (set A: depth-2 pool of all runs) and on each
    group's reduced qrels (set B), by `evaluate` on qrels written by hand; the significant order
    of a pair by scipy's two-sided paired t test at alpha 0.3."""
    code, out, err = invoke("leave-out", "--groups", campaign[2], "--depth", "2", "--alpha",
                            "0.3", "--format", "json", campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    same, other = json.loads(out)["table_v"]
    runs = {run_id: read_run_columns(path) for run_id, path in zip(RUNS, campaign[1], strict=True)}

    def scores(qrels_text: str, name: str) -> dict[str, list[float]]:
        path = tmp_path / f"{name}.qrels"
        path.write_text(qrels_text, encoding="utf-8")
        qrels = {**{t: {} for t in "123"}, **read_qrels(path)}
        found = {}
        for run_id, run in runs.items():
            evaluation = evaluate(qrels, run, task="focused", complete=True)
            values = {t.topic: float(t.values["AiP"]) for t in evaluation.topics}
            found[run_id] = [values.get(topic, 0.0) for topic in "123"]
        return found

    def order(values: dict[str, list[float]], x: str, y: str) -> int:
        d = np.subtract(values[x], values[y])
        if np.all(d == d[0]):
            return 0  # t undefined: not significant
        p = stats.ttest_rel(values[x], values[y]).pvalue
        return int(np.sign(d.mean())) if p < 0.3 else 0

    baseline = scores(hand_restricted_qrels(2, set()), "baseline")
    changed = compared = 0
    for group in {*GROUPS.values(), "delta"}:
        members = {run for run, name in GROUPS.items() if name == group} or {group}
        reduced = scores(hand_restricted_qrels(2, members), f"without-{group}")
        for x, y in combinations(RUNS, 2):
            if x in members or y in members:
                compared += 1
                changed += order(baseline, x, y) != order(reduced, x, y)
    assert other == {"row": "Other", "count": changed, "of": compared,
                     "percent": pytest.approx(100 * changed / compared)}  # fmt: skip
    assert compared == 7 + 4 + 4 + 4  # group A (2 runs): 10 pairs − 3 without it; B, C, delta: 4
    assert same["row"] == "Same" and same["of"] == len(RUNS)
    assert changed > 0  # the depth-2 pools without a group do change some orders


def test_percent_pools_worked_by_hand(campaign: Campaign) -> None:
    """Topic 1 of the campaign has 8 judged articles (its original pool). The runs' articles by
    depth (distinct rank): depth 1 a1 x2 a6 q4; depth 2 adds x1 a2 a4 a3 (8 in all); depth 3
    adds none; depth 4 adds a5 q2; depth 5 q1. So d_Q(100) = 2 (8 ≥ 8), d_Q(50) = 1 (4 ≥ 4),
    d_Q(60) = 2 (5 needed)."""
    from focal.pooling.ranked import as_ranked, read_ranked_run
    from focal.reliability.judgements import percent_pools

    ranked = as_ranked(read_ranked_run(path) for path in campaign[1])
    pools, depths = percent_pools(ranked, read_qrels(campaign[0]), [50, 60, 100])
    assert (depths[50]["1"], depths[60]["1"], depths[100]["1"]) == (1, 2, 2)
    assert pools[50]["1"] == {"a1", "x2", "a6", "q4"}
    assert pools[100]["1"] == {"a1", "x2", "a6", "q4", "x1", "a2", "a4", "a3"}
    code, out, err = invoke("depth", "--pool-percent", "50,60", "--format", "json",
                            campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert [row["percent"] for row in document["pool percent AiP"]] == [50, 60]
    assert document["topics"][0] == {"topic": "1", "original_pool": 8, "d_Q(50)": 1,
                                     "d_Q(60)": 2, "d_Q(100)": 2}  # fmt: skip


def test_coverage_of_a_run_not_pooled_worked_by_hand(campaign: Campaign, tmp_path: Path) -> None:
    """Top-4 pools of alpha and beta (rounds of their k-th articles until 4 are in): topic 1
    {a1, x2, x1, a4}, topic 2 {b1, y1, b3, b2}, topic 3 {c1, z2, c2, c4}. gamma's first results
    a6, b2, c3: 1 of 3 pooled; down to rank 3 (a6 a1 x1, b2 q3, c3 z1 c1): 4 of 8."""
    paths = dict(zip(RUNS, campaign[1], strict=True))
    plot = tmp_path / "coverage.png"
    code, out, err = invoke("coverage", "--new", paths["gamma"], "--sizes", "4", "--ranks",
                            "3,1", "--format", "json", "--plot", plot, paths["alpha"],
                            paths["beta"])  # fmt: skip
    assert code == 0, err
    rows = json.loads(out)["coverage (topn pools)"]
    assert [(r["rank"], r["in_pool"], r["results"]) for r in rows] == [(1, 1, 3), (3, 4, 8)]
    assert plot.stat().st_size > 0


def test_topics_margin_and_the_table_7_reading(campaign: Campaign) -> None:
    code, out, err = invoke("topics", "--sizes", "1", "--trials", "20", "--margin", "at-least",
                            "--format", "json", campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    fits = json.loads(out)["fit"]
    assert all("minimum_reported" in row for row in fits)
    code, _, err = invoke("topics", "--margin", "maybe", campaign[0], *campaign[1])
    assert code == 2 and "maybe" in err


def test_doctests() -> None:
    import doctest

    from focal.reliability import coverage, queries

    for module in (coverage, queries):
        failures, tried = doctest.testmod(module)
        assert failures == 0 and tried > 0, module.__name__


def test_sample_and_depth_draw_seed_004_figures(campaign: Campaign, tmp_path: Path) -> None:
    commands = [
        ["sample", "--fractions", "100,50", "--repeats", "2"],
        ["depth", "--depths", "1,2"],
        ["depth", "--pool-percent", "50,60"],
    ]
    for arguments in commands:
        target = tmp_path / f"{arguments[0]}-{len(list(tmp_path.iterdir()))}.svg"
        code, _, err = invoke(*arguments, "--plot", target, campaign[0], *campaign[1])
        assert code == 0, err
        assert f"plot written to {target}" in err
        assert target.read_text(encoding="utf-8").lstrip().startswith("<?xml")
