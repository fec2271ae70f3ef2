"""Numeric options are bounded alike in every command (`focal.evaluation.cli.numbers`): an absurd
count, a number that is not one, NaN or an infinity is refused in one line, exit code 2, before
the command reads anything or runs, instead of a command silent for hours or a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main
from focal.evaluation.cli import numbers

from ...reliability.conftest import RUNS, qrels_text, run_text

HUGE = str(10**20)


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    """QRELS and three runs that the commands below would otherwise accept."""
    qrels = tmp_path / "campaign.qrels"
    qrels.write_text(qrels_text(), encoding="utf-8")
    runs = []
    for run_id in list(RUNS)[:3]:
        path = tmp_path / f"{run_id}.run"
        path.write_text(run_text(run_id), encoding="utf-8")
        runs.append(str(path))
    return [str(qrels), *runs]


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [
        (["pool", "simulate"], "--repeats", HUGE),
        (["reliability", "queries"], "--trials", HUGE),
        (["reliability", "topics"], "--trials", HUGE),
        (["reliability", "sample"], "--repeats", HUGE),
        (["reliability", "queries"], "--seed", "1" + "0" * 40),
        (["reliability", "queries"], "--alpha", "nan"),
        (["reliability", "queries"], "--threshold", "inf"),
        (["reliability", "sample"], "--jobs", HUGE),
        (["pool", "simulate"], "--repeats", "many"),
        (["compare"], "--samples", HUGE),
        (["compare"], "--beta", "nan"),
        (["eval"], "--beta", "-inf"),
        (["eval"], "-n", HUGE),
    ],
)
def test_an_absurd_number_is_one_line_before_anything_runs(
    files: list[str], command: list[str], option: str, value: str
) -> None:
    started = time.monotonic()
    result = CliRunner().invoke(main, [*command, option, value, *files])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "Invalid value for" in lines[0] and f"'{option}'" in lines[0] and value in lines[0]
    assert time.monotonic() - started < 30  # refused before any work


def test_pool_sizes_and_depths_fit_the_rank_columns(files: list[str]) -> None:
    for option in ("--size", "--depth"):
        result = CliRunner().invoke(main, ["pool", "build", option, HUGE, *files[1:]])
        assert result.exit_code == 2
        assert f"is not in the range 1<=x<={2**31 - 1}" in result.stderr


def test_values_within_the_bounds_pass_unchanged() -> None:
    assert numbers.TRIALS.convert("100000", None, None) == numbers.MAX_TRIALS
    assert numbers.SEED.convert("-5", None, None) == -5
    assert numbers.Real(0, 1).convert("0.25", None, None) == 0.25
    with pytest.raises(click.ClickException, match="not a finite number"):
        numbers.Real(min=0).convert("inf", None, None)
