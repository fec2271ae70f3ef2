"""`focal compare`: intervals and effect sizes in every layout, one-sided tests that state their
direction and do not depend on the order of the runs, and the heatmap's readable cells."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy import stats

from focal.evaluation.cli.compare_report import EFFECT_COLUMNS, TSV_HEADER
from focal.evaluation.statistics.significance.heatmap import (
    contrast,
    relative_luminance,
    text_colour,
)

from .test_compare import files, invoke, run_file

__all__ = ["files"]  # the fixture, used by name


def per_topic(tmp_path: Path, files: list[str]) -> dict[str, list[float]]:
    """AiP per topic of each run, from `focal eval -q --format tsv`."""
    from click.testing import CliRunner

    from focal.assessor.cli.main import main

    result = CliRunner().invoke(main, ["eval", "-q", "--format", "tsv", *files])
    values: dict[str, dict[str, float]] = {}
    lines = result.stdout.splitlines()
    header = lines[0].split("\t")
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t"), strict=True))
        if row["topic"] != "all" and row.get("measure", "AiP") == "AiP":
            values.setdefault(row["run_id"], {})[row["topic"]] = float(row["value"])
    return {run: [v[t] for t in sorted(v)] for run, v in values.items()}


def test_tsv_carries_intervals_and_sizes_equal_to_scipy(tmp_path: Path, files: list[str]) -> None:
    code, out, _ = invoke("--format", "tsv", "--ci", "0.9", *files)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split("\t") == [*TSV_HEADER.split("\t"), *EFFECT_COLUMNS]
    scores = per_topic(tmp_path, files)
    for line in lines[1:]:
        row = dict(zip(lines[0].split("\t"), line.split("\t"), strict=True))
        a, b = scores[row["run_a"]], scores[row["run_b"]]
        low, high = stats.ttest_rel(a, b).confidence_interval(0.9)
        assert float(row["diff_low"]) == pytest.approx(low, abs=1e-12)
        assert float(row["diff_high"]) == pytest.approx(high, abs=1e-12)
        assert row["tested"] == "!="
        mean_low, mean_high = stats.ttest_1samp(a, 0).confidence_interval(0.9)
        assert float(row["mean_a_low"]) == pytest.approx(mean_low, abs=1e-12)
        assert float(row["mean_a_high"]) == pytest.approx(mean_high, abs=1e-12)


def test_json_and_text_carry_intervals_and_sizes(files: list[str]) -> None:
    code, out, _ = invoke("--format", "json", "--test", "tukey", *files)
    assert code == 0
    document = json.loads(out)
    assert document["confidence"] == 0.95 and document["difference_interval_method"] == "tukey"
    assert all(run["low"] <= run["mean"] <= run["high"] for run in document["runs"])
    for pair in document["pairs"]:
        assert pair["diff_low"] <= pair["diff"] <= pair["diff_high"]
        assert {"d_z", "g", "es_e"} <= pair.keys()
    code, out, _ = invoke("--ci-method", "bootstrap", "--seed", "4", "--samples", "300", *files)
    assert code == 0
    assert "95% intervals: means bootstrap" in out
    header = next(line for line in out.splitlines() if line.startswith("run_a"))
    assert header.split() == [
        "run_a", "tested", "run_b", "diff", "low", "high", "d_z", "g", "es_e", "p",
        "p_adjusted", "sig",
    ]  # fmt: skip


def test_a_one_sided_test_does_not_depend_on_the_order_of_the_runs(
    tmp_path: Path, files: list[str]
) -> None:
    """The issue's case: the runs given worst first (0 significant) or best first (all) once
    gave different answers; now every ordered pair is tested row > column."""
    qrels, best, good, poor = files
    outputs = []
    for order in ([poor, good, best], [best, good, poor], [good, poor, best]):
        code, out, _ = invoke("--alternative", "greater", "--format", "tsv", qrels, *order)
        assert code == 0
        rows = [line.split("\t") for line in out.splitlines()[1:]]
        assert len(rows) == 6 and {row[9] for row in rows} == {">"}
        outputs.append(sorted((row[0], row[1], row[6], row[8]) for row in rows))
    assert outputs[0] == outputs[1] == outputs[2]
    significant = {(a, b) for a, b, _, s in outputs[0] if s == "true"}
    assert ("best", "poor") in significant and ("poor", "best") not in significant
    code, text, _ = invoke("--alternative", "greater", qrels, poor, good, best)
    assert "# cell: row > column tested" in text and ">" in text.splitlines()[3]


def test_heatmap_cells_are_readable_on_every_colour(tmp_path: Path, files: list[str]) -> None:
    from matplotlib import colormaps

    for step in range(101):
        rgba = colormaps["viridis"](step / 100)
        rgb = (rgba[0], rgba[1], rgba[2])
        ink = 1.0 if text_colour(rgb) == "white" else 0.0
        assert contrast(relative_luminance(rgb), ink) >= 4.5  # WCAG AA for normal text
    target = tmp_path / "matrix.svg"
    extra = run_file(tmp_path, "fair", {1: 200, 2: 300, 3: 150, 4: 250, 5: 300})
    code, _, err = invoke("--plot", str(target), *files, extra)
    assert code == 0 and "plot written" in err
    svg = target.read_text(encoding="utf-8")
    assert "best (" in svg and "Hedges" in svg
    # every one of the 6 cells of the triangle has its tooltip, naming both runs and the sizes
    titles = [part.split("</title>")[0] for part in svg.split("<title>")[1:]]
    tips = [t for t in titles if " != " in t]
    assert len(tips) == 6 and all("d_z" in t and "ES_E" in t for t in tips)
    assert any(t.startswith("best != poor: diff +") for t in tips)


def test_eval_ci_gives_every_mean_its_interval(tmp_path: Path, files: list[str]) -> None:
    from click.testing import CliRunner

    from focal.assessor.cli.main import main

    scores = per_topic(tmp_path, files)
    result = CliRunner().invoke(main, ["eval", "--ci", "0.9", "--format", "tsv", *files])
    assert result.exit_code == 0, result.stderr
    rows = {tuple(line.split("\t")[:2]): float(line.split("\t")[3])
            for line in result.stdout.splitlines()[1:]}  # fmt: skip
    for run, values in scores.items():
        low, high = stats.ttest_1samp(values, 0).confidence_interval(0.9)
        assert rows[(run, "MAiP.ci_low")] == pytest.approx(low, abs=1e-12)
        assert rows[(run, "MAiP.ci_high")] == pytest.approx(high, abs=1e-12)
        assert (run, "num_rel.ci_low") not in rows  # sums have no interval
    inex = CliRunner().invoke(main, ["eval", "--ci", "0.9", *files])
    assert "MAiP.ci_low\tall\t" in inex.stdout
    document = json.loads(
        CliRunner().invoke(main, ["eval", "--ci", "0.9", "--ci-method", "bootstrap",
                                  "--format", "json", *files]).stdout
    )  # fmt: skip
    intervals = document[0]["intervals"]
    assert intervals["method"] == "bootstrap" and len(intervals["MAiP"]) == 2
    plain = CliRunner().invoke(main, ["eval", *files])
    assert "ci_low" not in plain.stdout  # the official layout unless asked


def test_eval_ci_in_trec_eval_terms(tmp_path: Path) -> None:
    """TREC qrels and a TREC run on three topics: map's interval is the t interval of the
    per-topic values `-q` prints; the counts get none."""
    from click.testing import CliRunner

    from focal.assessor.cli.main import main

    qrels = tmp_path / "q.trec"
    qrels.write_text("".join(f"{t} 0 d{t}{a} {int(a < 2 + t % 2)}\n"
                             for t in range(1, 4) for a in range(5)))  # fmt: skip
    run = tmp_path / "r.trec"
    run.write_text("".join(f"{t} Q0 d{t}{a} {r} {1 / r} r\n" for t in range(1, 4)
                           for r, a in enumerate((4, 0, 3, 1, 2), start=1)))  # fmt: skip
    base = ["eval", "--task", "articles", "-m", "map", "--format", "tsv"]
    per_topic = CliRunner().invoke(main, [*base, "-q", str(qrels), str(run)]).stdout
    values = [float(line.split("\t")[3]) for line in per_topic.splitlines()[1:]
              if line.split("\t")[1] == "map" and line.split("\t")[2] != "all"]  # fmt: skip
    assert len(values) == 3
    result = CliRunner().invoke(main, [*base, "--ci", "0.9", str(qrels), str(run)])
    assert result.exit_code == 0, result.stderr
    rows = {
        line.split("\t")[1]: float(line.split("\t")[3]) for line in result.stdout.splitlines()[1:]
    }
    low, high = stats.ttest_1samp(values, 0).confidence_interval(0.9)
    assert (rows["map.ci_low"], rows["map.ci_high"]) == pytest.approx((low, high), abs=1e-12)
    assert "num_rel.ci_low" not in rows
