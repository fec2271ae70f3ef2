"""`EvalOptions` and `CompareOptions`: the command line and the Python API refuse the same
combinations of options with the same words (the command: a usage error, exit code 2; Python:
`OptionError`, a ValueError), and the options' defaults give `focal eval`'s layouts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import focal
import focal.evaluation
from focal.assessor.cli.main import main
from focal.evaluation.running.options import CompareOptions, EvalOptions, OptionError

DEMO = Path(__file__).resolve().parents[3] / "demo"
QRELS = str(DEMO / "qrels" / "demo.qrels")
RUNS = [str(DEMO / "runs" / "bm25-articles.run"), str(DEMO / "runs" / "bm25-passages.run")]

NG = "inex_eval_ng"  # counts characters: needs --collection
# (the command line's switches, `focal.evaluation.evaluate`'s keywords): one refused combination
EVAL_CASES: list[tuple[list[str], dict[str, Any]]] = [
    (["--task", "focused", "--quant", "gen"], {"task": "focused", "quant": "gen"}),
    (["--task", "thorough", "--alpha", "0.5"], {"task": "thorough", "alpha": 0.5}),
    (["--task", "ric", "-l", "2"], {"task": "ric", "level": 2}),
    (["--task", "focused", "--trec-version", "9"], {"task": "focused", "trec_version": 9}),
    (["--task", "focused", "-m", "map"], {"task": "focused", "measures": ["map"]}),
    (["--task", "elements", "--strict"], {"task": "elements", "strict": True}),
    (["--task", "elements", "--quant", "nope"], {"task": "elements", "quant": "nope"}),
    (["--task", "elements", "-m", "nope"], {"task": "elements", "measures": ["nope"]}),
    (["--task", "elements", "-m", "inex_eval_ng"], {"task": "elements", "measures": [NG]}),
    (["--task", "bic", "--beta", "-1"], {"task": "bic", "beta": -1.0}),
]


def usage_error(*arguments: str) -> str:
    """The message of the usage error the command prints (exit code 2)."""
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr
    return result.stderr.rsplit("Error: ", 1)[1].strip()


@pytest.mark.parametrize(("switches", "keywords"), EVAL_CASES, ids=lambda c: str(c))
def test_eval_and_evaluate_refuse_a_combination_in_the_same_words(
    switches: list[str], keywords: dict[str, Any]
) -> None:
    said = usage_error("eval", *switches, QRELS, *RUNS)
    with pytest.raises(OptionError) as refused:
        focal.evaluation.evaluate(QRELS, RUNS, **keywords)
    assert str(refused.value) == said
    assert isinstance(refused.value, ValueError)


def test_compare_and_focal_compare_refuse_a_combination_in_the_same_words() -> None:
    said = usage_error("compare", "--task", "focused", "--quant", "gen5", QRELS, *RUNS)
    assert said == "--quant and --collection are for --task elements"
    with pytest.raises(OptionError) as refused:
        focal.compare(QRELS, RUNS, task="focused", quant="gen5")
    assert str(refused.value) == said


def test_only_the_command_line_checks_its_layouts() -> None:
    """The layouts' combinations are the command's: its words, from the same check."""
    said = usage_error("eval", "--format", "table", "-q", QRELS, *RUNS)
    with pytest.raises(OptionError) as refused:
        EvalOptions(output_format="table", per_topic=True).checked()
    assert str(refused.value) == said


@pytest.mark.parametrize(
    ("options", "runs", "default", "expected"),
    [
        (EvalOptions(), 1, "inex", "inex"),
        (EvalOptions(), 2, "inex", "table"),
        (EvalOptions(per_topic=True), 2, "inex", "inex"),
        (EvalOptions(confidence=0.9), 2, "trec", "tsv"),  # trec_eval's layout only when asked
        (EvalOptions(), 1, "trec", "table"),
        (EvalOptions(per_topic=True), 1, "trec", "tsv"),
        (EvalOptions(output_format="trec"), 1, "trec", "trec"),
        (EvalOptions(output_format="inex"), 1, "trec", "trec"),
        (EvalOptions(output_format="tsv"), 3, "trec", "tsv"),
    ],
)
def test_the_layout_is_the_given_one_else_a_table_of_several_runs_else_the_engines(
    options: EvalOptions, runs: int, default: str, expected: str
) -> None:
    assert options.layout(runs, default) == expected


def test_compare_options_check_their_own_combinations() -> None:
    with pytest.raises(OptionError, match="--curve is the ASL curve of --test sakai"):
        CompareOptions(curve="asl.txt").checked()
    with pytest.raises(OptionError, match=r"--plot FILE must end in \.png or \.svg"):
        CompareOptions(plot="heat.pdf").checked()
    elements = CompareOptions(EvalOptions("elements", quant="nope"))
    with pytest.raises(OptionError, match="unknown quantisation 'nope'"):
        elements.checked()
    assert CompareOptions(EvalOptions("elements", quant="nope"), scores=("s.tsv",)).checked()


def test_a_seed_is_drawn_only_when_none_is_given() -> None:
    assert CompareOptions(seed=7).seeded().seed == 7
    drawn = CompareOptions().seeded().seed
    assert drawn is not None and 0 <= drawn < 2**31
