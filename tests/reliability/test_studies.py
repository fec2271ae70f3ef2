"""The studies end to end on the hand-made campaign: leave-out equals evaluating qrels
restricted by hand, sampling everything changes nothing, and the commands refuse bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.formats.fol.columns import read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.measures.evaluate import evaluate
from focal.reliability.cli.commands import reliability
from focal.reliability.studies import Setup, pool_sampling

from .conftest import GROUPS, RUNS, qrels_text

Campaign = tuple[Path, list[Path], Path]


def invoke(*args: str | Path) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(reliability, [str(arg) for arg in args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


def setup(campaign: Campaign) -> Setup:
    runs = [read_run_columns(path) for path in campaign[1]]
    return Setup(read_qrels(campaign[0]), runs, "focused", "AiP")


def test_sampling_everything_keeps_the_ranking_and_the_scores(campaign: Campaign) -> None:
    (row,) = pool_sampling(setup(campaign), [1.0], 2, seed=5)
    assert (row.tau_ap.mean, row.change.mean, row.kept.mean) == (1.0, 0.0, 1.0)
    assert row.tau.mean == pytest.approx(1.0, abs=1e-12)  # scipy sums in floating point
    assert row.relevant == 15


def test_sampling_is_reproducible_and_the_same_on_two_processes(campaign: Campaign) -> None:
    one = pool_sampling(setup(campaign), [0.5, 0.25], 3, seed=11)
    base = setup(campaign)
    two = pool_sampling(Setup(base.qrels, base.runs, "focused", "AiP", jobs=2), [0.5, 0.25], 3, 11)
    assert one == two


def hand_restricted_qrels(depth: int, group: set[str]) -> str:
    """The qrels lines of articles some run outside `group` returns within `depth` distinct
    articles (the pool of all runs at that depth, without the group's sole contributions)."""
    kept: dict[str, set[str]] = {}
    for run_id, topics in RUNS.items():
        if run_id in group:
            continue
        for topic, articles in topics.items():
            distinct = list(dict.fromkeys(articles.split()))[:depth]
            kept.setdefault(topic, set()).update(distinct)
    lines = [line for line in qrels_text().splitlines(keepends=True)]
    return "".join(line for line in lines if line.split()[2] in kept[line.split()[0]])


def test_leave_out_unique_equals_evaluating_qrels_restricted_by_hand(
    campaign: Campaign, tmp_path: Path
) -> None:
    code, out, err = invoke(
        "leave-out", "--groups", campaign[2], "--depth", "2", "--format", "json",
        campaign[0], *campaign[1],
    )  # fmt: skip
    assert code == 0, err
    rows = {row["run"]: row for row in json.loads(out)["runs"]}
    assert set(rows) == set(RUNS)
    for group in {*GROUPS.values(), "delta"}:
        members = {run for run, name in GROUPS.items() if name == group} or {group}
        restricted = tmp_path / f"without-{group}.qrels"
        restricted.write_text(hand_restricted_qrels(2, members), encoding="utf-8")
        qrels = read_qrels(restricted)
        qrels = {**{t: {} for t in "123"}, **qrels}  # every qrels topic counts (-c)
        for run_id in members:
            run = read_run_columns(campaign[1][list(RUNS).index(run_id)])
            evaluation = evaluate(qrels, run, task="focused", complete=True)
            values = {t.topic: float(t.values["AiP"]) for t in evaluation.topics}
            expected = sum(values.get(topic, 0.0) for topic in "123") / 3
            assert rows[run_id]["score_left_out"] == pytest.approx(expected, abs=1e-12)
    assert "depth 2 pool, method unique" in err


def test_commands_print_their_tables(campaign: Campaign) -> None:
    code, out, err = invoke("sample", "--fractions", "50", "--repeats", "2", "--format", "tsv",
                            campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0].split("\t")[:4] == ["percent", "repeats", "relevant", "tau_mean"]
    code, out, err = invoke("depth", "--depths", "1,2,5", "--format", "tsv", campaign[0],
                            *campaign[1])  # fmt: skip
    assert code == 0, err
    table = out.split("\n\n")[0].splitlines()
    assert [line.split("\t")[0] for line in table] == ["depth", "1", "2", "5"]
    judged = [int(line.split("\t")[1]) for line in table[1:]]
    assert judged == sorted(judged)  # deeper pools never judge fewer articles
    code, out, err = invoke("topics", "--sizes", "1", "--trials", "5", "--format", "json",
                            campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    assert list(json.loads(out)) == ["error rates AiP", "fit"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["sample", "--fractions", "0"], "outside (0, 100]"),
        (["sample", "--fractions", "120"], "outside (0, 100]"),
        (["sample", "--fractions", "abc"], "not a number"),
        (["topics", "--sizes", "2"], "outside [1, 1]"),
        (["depth", "-m", "nDCG@10"], "no per-topic measure"),
    ],
)
def test_bad_parameters_are_one_line(
    campaign: Campaign, arguments: list[str], message: str
) -> None:
    code, out, err = invoke(*arguments, campaign[0], *campaign[1])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_groups_file_naming_an_unknown_run_is_refused(campaign: Campaign) -> None:
    campaign[2].write_text("alpha\tA\nomega\tZ\n", encoding="utf-8")
    code, out, err = invoke("leave-out", "--groups", campaign[2], "--depth", "2", campaign[0],
                            *campaign[1])  # fmt: skip
    assert code == 2 and out == "" and "'omega' is not among the given runs" in err


def test_fewer_than_three_runs_are_refused(campaign: Campaign, tmp_path: Path) -> None:
    code, out, err = invoke("sample", campaign[0], *campaign[1][:2])
    assert code == 2 and out == "" and "at least three" in err
    table = tmp_path / "eval.tsv"
    table.write_text("run_id\tmeasure\ttopic\tvalue\na\tMAiP\tall\t0.1\nb\tMAiP\tall\t0.2\n")
    code, out, err = invoke("rankcorr", table, table)
    assert code == 2 and out == "" and "at least three runs" in err


@pytest.mark.parametrize(
    ("test", "correction"), [("t", "none"), ("t", "holm"), ("wilcoxon", "none")]
)
def test_significant_pairs_are_those_focal_compare_finds(
    campaign: Campaign, test: str, correction: str
) -> None:
    from focal.evaluation.cli.compare import compare_command

    options = ["--test", test, "--correction", correction, "--alpha", "0.3"]
    compared = CliRunner().invoke(
        compare_command,
        ["-c", "--format", "tsv", *options, str(campaign[0]), *map(str, campaign[1])],
    )
    assert compared.exit_code == 0, compared.stderr
    decisions = [line.split("\t")[8] for line in compared.stdout.splitlines()[1:]]
    assert len(decisions) == 10 and set(decisions) <= {"true", "false"}
    significant = decisions.count("true")
    code, out, err = invoke("depth", "--depths", "1", "--format", "json", *options,
                            campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    (row,) = json.loads(out)["depth AiP"]
    assert row["significant_full"] == significant > 0


def test_rankcorr_reads_the_all_rows_and_names_a_bad_line(tmp_path: Path) -> None:
    # Reference ranks a b c; the other file b a c: one swap at the top, τ = 1/3, τ_AP = 0.
    reference = tmp_path / "reference.tsv"
    reference.write_text(
        "run_id\tmeasure\ttopic\tvalue\na\tMAiP\tall\t0.3\nb\tMAiP\tall\t0.2\n"
        "c\tMAiP\tall\t0.1\na\tAiP\t1\t0.9\n"
    )
    other = tmp_path / "other.tsv"
    other.write_text("a\tMAiP\tall\t0.2\nb\tMAiP\tall\t0.3\nc\tMAiP\tall\t0.1\n")
    code, out, err = invoke("rankcorr", "--format", "json", reference, other)
    assert code == 0, err
    (row,) = json.loads(out)["rankcorr"]
    assert row["measure"] == "MAiP" and row["tau_ap"] == pytest.approx(0.0, abs=1e-12)
    assert row["tau_b"] == pytest.approx(1 / 3, abs=1e-12)
    other.write_text("a\tMAiP\tall\tmuch\n")
    code, out, err = invoke("rankcorr", reference, other)
    assert code == 2 and out == "" and f"{other}:1:" in err and "finite number" in err
