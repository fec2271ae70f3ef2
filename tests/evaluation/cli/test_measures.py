"""`focal measures`: narrowed by --task and --vocabulary, and as text wrapped to the terminal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main


def tsv_rows(*words: str) -> dict[str, list[str]]:
    result = CliRunner().invoke(main, ["measures", "--format", "tsv", *words])
    assert result.exit_code == 0, result.output
    header, *rows = (line.split("\t") for line in result.stdout.splitlines())
    return {row[0]: dict(zip(header, row, strict=True)) for row in rows}  # type: ignore[misc]


def test_task_keeps_the_measures_that_task_evaluates() -> None:
    every = tsv_rows()
    for task in ("articles", "elements", "focused"):
        chosen = tsv_rows("--task", task)
        assert chosen and set(chosen) < set(every)
        assert all(task in row["tasks"].split(",") for row in chosen.values())  # type: ignore[index]
    assert "map" in tsv_rows("--task", "articles") and "map" not in tsv_rows("--task", "elements")


def test_vocabulary_keeps_the_measures_it_spells() -> None:
    ir_measures = tsv_rows("--vocabulary", "ir_measures")
    assert "Judged@k" in ir_measures and "map" in ir_measures  # map is ir_measures' AP
    assert "num_nonrel_judged_ret" not in ir_measures
    assert "Judged@k" not in tsv_rows("--vocabulary", "trec_eval")


@pytest.mark.parametrize("columns", [80, 100, 160])
def test_text_wraps_the_definitions_to_the_terminal(
    columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    result = CliRunner().invoke(main, ["measures", "--task", "articles"])
    assert result.exit_code == 0
    definitions = [line for line in result.stdout.splitlines() if line.startswith("    ")]
    assert definitions and max(len(line) for line in definitions) <= columns
    heads = [line for line in result.stdout.splitlines()[1:] if not line.startswith(" ")]
    assert len(heads) == len(tsv_rows("--task", "articles"))


def test_an_unknown_task_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["measures", "--task", "documents"])
    assert result.exit_code == 2 and "'documents' is not one of" in result.stderr
