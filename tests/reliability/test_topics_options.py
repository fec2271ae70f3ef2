"""`focal reliability topics`' optional tables and checks on the hand-made campaign: the
difference bins of `--bins` (Voorhees & Buckley 2002), and the refusal of a bin size or a
tolerance out of range."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.reliability.cli.commands import reliability

Campaign = tuple[Path, list[Path], Path]


def invoke(*args: str | Path) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(reliability, [str(arg) for arg in args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


def test_bins_add_a_table_of_swaps_over_comparisons(campaign: Campaign) -> None:
    code, out, err = invoke("topics", "--sizes", "1", "--trials", "5", "--bins", "1",
                            "--format", "json", campaign[0], *campaign[1])  # fmt: skip
    assert code == 0, err
    tables = json.loads(out)
    assert list(tables) == ["error rates AiP", "fit", "bins"]
    bins = tables["bins"]
    assert bins, "the campaign's runs differ, so some bin has comparisons"
    for row in bins:
        assert set(row) == {"difference", "swaps", "comparisons", "error"}
        assert 0 <= row["swaps"] <= row["comparisons"]
        assert row["error"] == pytest.approx(row["swaps"] / row["comparisons"])
    lows = [row["difference"] for row in bins]
    assert lows == sorted(lows)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bins", "2"], "--bins 2 is outside [1, 1]"),
        (["--bins", "0"], "--bins 0 is outside [1, 1]"),
        (["--tolerance", "5,-1"], "a tolerance is a percentage of at least 0"),
    ],
)
def test_a_bin_size_or_tolerance_out_of_range_is_one_line(
    campaign: Campaign, arguments: list[str], message: str
) -> None:
    code, out, err = invoke("topics", "--trials", "2", *arguments, campaign[0], *campaign[1])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
