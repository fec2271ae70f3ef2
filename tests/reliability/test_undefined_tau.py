"""Kendall's τ that is undefined: a study whose runs all score the same on the full judgements (no
run retrieves a relevant article) says so in one line, exit code 2; a trial whose runs all tie
is NaN in its row, never a traceback from `statistics.pstdev`."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main
from focal.reliability.queries import query_sampling
from focal.reliability.scores import ScoreMatrix
from focal.reliability.studies import Spread, reference_ranking

from .conftest import NOT_RELEVANT, qrels_text


@pytest.fixture
def nothing_found(tmp_path: Path) -> list[str]:
    """QRELS and three runs that retrieve only non-relevant or unjudged articles."""
    qrels = tmp_path / "campaign.qrels"
    qrels.write_text(qrels_text(), encoding="utf-8")
    paths = [str(qrels)]
    for number in range(3):
        lines = [
            f"{topic} Q0 {article} {rank} {1 / rank:.4f} miss{number} 0 100\n"
            for topic, articles in NOT_RELEVANT.items()
            for rank, article in enumerate([*articles, f"u{number}"][number:], start=1)
        ]
        path = tmp_path / f"miss{number}.run"
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize(
    "command", [["reliability", "queries"], ["reliability", "sample"], ["pool", "simulate"]]
)
def test_a_study_where_no_run_finds_anything_says_so(
    nothing_found: list[str], command: list[str]
) -> None:
    result = CliRunner().invoke(main, [*command, "--task", "focused", *nothing_found])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "every run has the same mean score (0)" in lines[0]
    assert "Kendall's tau is undefined" in lines[0]


def test_trials_whose_runs_all_tie_are_nan_not_an_error() -> None:
    """Topic t0 ties every run (τ against it is 0/0); t1 ranks them. Samples of one topic draw
    either, so some trials are undefined and their size's spread is NaN."""
    full = ScoreMatrix(
        ("a", "b", "c"), ("t0", "t1"), np.array([[0.0, 0.9], [0.0, 0.5], [0.0, 0.1]])
    )
    assert list(reference_ranking(full)) == ["a", "b", "c"]
    (row,) = query_sampling(full, [1], trials=20, seed=0)
    assert math.isnan(row.tau.mean) and math.isnan(row.tau.sd) and math.isnan(row.tau_min)
    (whole,) = query_sampling(full, [2], trials=3, seed=0)
    assert (whole.tau.mean, whole.tau.sd, whole.tau_min) == (1.0, 0.0, 1.0)


def test_a_spread_of_defined_values_is_unchanged() -> None:
    assert Spread.of([0.5, 1.0]) == Spread(0.75, 0.25)
    assert Spread.of([0.5]) == Spread(0.5, 0.0)
    assert math.isnan(Spread.of([0.5, math.nan]).mean)
