"""`focal compare --task elements` on the demo's element run (and two runs made from it):
the per-topic values are `focal eval --task elements -q`'s, under the chosen quantisation."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.compare import compare_command
from focal.evaluation.cli.eval.command import eval_command
from tests.reliability.test_elements import COLLECTION, QRELS, element_runs


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return element_runs(tmp_path_factory.mktemp("element-runs"))


def means(runs: list[str], quant: str, measure: str) -> dict[str, float]:
    """Each run's `all` value of `measure` as `focal eval --task elements` prints it."""
    result = CliRunner().invoke(eval_command, [
        "--task", "elements", "--format", "tsv", "-m", measure, "--quant", quant,
        "--collection", COLLECTION, QRELS, *runs,
    ])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()[1:]]
    return {run: float(value) for run, name, topic, value in rows if topic == "all"}


@pytest.mark.parametrize("quant", ["gen5", "anyrel", "generalised"])
def test_compare_scores_element_runs_as_eval_does(runs: list[str], quant: str) -> None:
    result = CliRunner().invoke(compare_command, [
        "--task", "elements", "--quant", quant, "--collection", COLLECTION, "--format", "tsv",
        "-j", "1", QRELS, *runs,
    ])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f"quantisation {quant}" in result.stderr
    assert ("four-grade scale" in result.stderr) is (quant == "generalised")
    expected = means(runs, quant, "MAep")
    assert expected["base"] > 0
    lines = [line.split("\t") for line in result.stdout.splitlines()]
    header, pairs = lines[0], [dict(zip(lines[0], row, strict=True)) for row in lines[1:]]
    assert header[:4] == ["run_a", "run_b", "mean_a", "mean_b"] and len(pairs) == 3
    for pair in pairs:
        for side in "ab":
            run = pair[f"run_{side}"]
            assert float(pair[f"mean_{side}"]) == pytest.approx(expected[run], abs=1e-12)


def test_compare_with_a_named_element_measure(runs: list[str]) -> None:
    result = CliRunner().invoke(compare_command, [
        "--task", "elements", "--quant", "gen5", "--collection", COLLECTION, "-m", "nxCG@10",
        "-j", "1", QRELS, *runs,
    ])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    # Every qrels topic counts by default (a topic a run missed scores 0), then each run's count.
    assert "nxCG@10: paired on all 5 topics" in result.stderr


def test_compare_refusals(runs: list[str], tmp_path: Path) -> None:
    base = ["--task", "elements", "--collection", COLLECTION, QRELS, *runs]
    result = CliRunner().invoke(compare_command, ["-m", "nxCG@k", *base])
    assert result.exit_code == 2 and "name one, e.g. nxCG@5" in result.stderr
    result = CliRunner().invoke(compare_command, ["--quant", "nonsense", *base])
    assert result.exit_code == 2 and "unknown quantisation" in result.stderr
    result = CliRunner().invoke(compare_command, ["--quant", "gen5", QRELS, *runs])
    assert result.exit_code == 2 and "--task elements" in result.stderr
    result = CliRunner().invoke(compare_command, ["--task", "elements", QRELS, *runs])
    assert result.exit_code == 2 and "--collection" in result.stderr
    assert "Traceback" not in result.stderr


def test_quantisation_agreement_as_seed_000_table_3(runs: list[str], tmp_path: Path) -> None:
    """docs/measures.md's rebuild of seed 000 Table 3, on three runs: per-topic inex_eval under
    each quantisation from `focal eval`, then `focal compare agreement` for each pair."""
    scores = {}
    for quant in ("strict", "generalised", "anyrel"):
        result = CliRunner().invoke(eval_command, [
            "--task", "elements", "-q", "--format", "tsv", "-m", "inex_eval", "--quant", quant,
            "--collection", COLLECTION, QRELS, *runs,
        ])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        scores[quant] = tmp_path / f"{quant}.tsv"
        scores[quant].write_text(result.stdout, encoding="utf-8")
    cells = {}
    for x in scores:
        for y in scores:
            result = CliRunner().invoke(compare_command, [
                "agreement", "--scores", str(scores[x]), "--scores", str(scores[y]),
                "--format", "tsv", "--seed", "1",
            ])  # fmt: skip
            assert result.exit_code == 0, result.stderr
            header, row = (line.split("\t") for line in result.stdout.splitlines())
            cells[x, y] = dict(zip(header, row, strict=True))
    for (x, y), cell in cells.items():
        both, sx, sy = (int(cell[k]) for k in ("both", "significant_x", "significant_y"))
        assert both <= min(sx, sy) and sy == int(cells[y, x]["significant_x"])
        if sx:  # precision |X ∩ Y| / |X|, recall |X ∩ Y| / |Y| (seed 000 §3.4)
            assert float(cell["precision"]) == both / sx
        if x == y and sx:
            assert float(cell["f1"]) == 1.0
    # the demo's run against its reversal differs under every quantisation here
    assert all(int(cells[q, q]["significant_x"]) >= 1 for q in scores)


def test_eval_on_workers_prints_what_one_process_prints(runs: list[str]) -> None:
    outputs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(eval_command, [
            "--task", "elements", "-q", "--format", "tsv", "-m", "MAep", "-m", "overlap@k",
            "--quant", "gen5", "--collection", COLLECTION, "-j", jobs, QRELS, *runs,
        ])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") > 3 * 5
