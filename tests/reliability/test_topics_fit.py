"""`focal reliability topics`: a fit's value at all the topics is an extrapolation beyond the
sizes measured; stderr says so, and a value above every error measured is not printed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from focal.assessor.cli.main import main

DEMO = Path(__file__).resolve().parents[2] / "demo"


def test_the_fit_at_all_topics_is_flagged_or_left_out() -> None:
    runs = sorted(str(p) for p in (DEMO / "runs").glob("*.run"))
    arguments = ["reliability", "topics", "--task", "thorough", "--sizes", "1,2", "--trials",
                 "20", "--format", "json", str(DEMO / "qrels" / "demo.qrels"), *runs]  # fmt: skip
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)
    rates = next(rows for name, rows in tables.items() if name.startswith("error rates"))
    printed = 0
    for fit in tables["fit"]:
        measured = max(row[f"error_{fit['tolerance']:g}"] for row in rates)
        value = fit["error_at_all_topics"]
        if value is None and fit["sizes_fitted"] >= 2:
            assert f"tolerance {fit['tolerance']:g} %: the fit gives" in result.stderr
        elif value is not None:
            printed += 1
            assert value <= measured
    if printed:
        assert "error_at_all_topics extrapolates each fit from 2 topics" in result.stderr
    assert "minimum_table_7" not in result.stdout
