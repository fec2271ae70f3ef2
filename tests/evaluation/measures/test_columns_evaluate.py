"""Evaluating a run read as columns gives what evaluating its records gives, digit for digit."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.columns import RunColumns, read_run_columns
from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.measures.evaluate import PreparedQrels, RunEvaluation, evaluate

CASES = [
    ("focused", "fol"), ("thorough", "fol"), ("ric", "ric"), ("bic", "bic"), ("t2i", "ric"),
    ("articles", "fol"),
]  # fmt: skip


def summary(evaluation: RunEvaluation) -> object:
    return (
        evaluation.run_id,
        evaluation.file,
        [(t.topic, t.values, t.curve, t.answered) for t in evaluation.topics],
        evaluation.warnings,
        evaluation.unknown_topics,
    )


@pytest.mark.parametrize(("task", "kind"), CASES)
def test_real_runs_evaluate_the_same_from_columns(inex2010: Path, task: str, kind: str) -> None:
    prepared = PreparedQrels(read_qrels(inex2010 / "inex2010.qrels"))
    for name in ("indri-passages", "bert-passages-half"):
        path = inex2010 / "runs" / f"{name}.{kind}.run"
        columns = read_run_columns(path)
        assert isinstance(columns, RunColumns)
        for complete in (False, True):
            expected = evaluate(prepared, read_run(path), task, complete=complete)
            assert summary(evaluate(prepared, columns, task, complete=complete)) == summary(
                expected
            )


QRELS = "1 Q0 a 10 50 2 0:5 20:5\n1 Q0 b 0 30\n2 Q0 c 4 8 0 4:4\n"
RUN = (
    "1 Q0 a 1 9 r 0 10\n1 Q0 a 2 7 r 18 40\n1 Q0 x 3 8 r X 18\n1 Q0 b 4 6 r 25 10\n"
    "3 Q0 a 1 1 r 0 5\n"
)


@pytest.mark.parametrize("task", ["focused", "thorough", "ric", "t2i", "articles"])
def test_missing_results_past_end_and_unknown_topics(tmp_path: Path, task: str) -> None:
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(RUN)
    qrels = read_qrels(tmp_path / "q.qrels")
    columns = read_run_columns(tmp_path / "r.run")
    expected = evaluate(qrels, read_run(tmp_path / "r.run"), task, complete=True)
    actual = evaluate(qrels, columns, task, complete=True)
    assert summary(actual) == summary(expected)
    assert actual.unknown_topics == ["3"]
    if task != "articles":  # line 2 ends at 58, past article a's 50 characters
        assert any("r.run:2: result ends at 58" in w for w in actual.warnings)


@pytest.mark.parametrize(
    ("task", "run", "message"),
    [
        ("focused", "1 Q0 a 1 1 r 0 10\n1 Q0 a 2 1 r 5 10\n", ":2: result overlaps"),
        ("ric", "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 r 0 1\n1 Q0 a 3 1 r 5 1\n", ":3: article a comes"),
        ("bic", "1 Q0 a 1 1 r 0 1\n1 Q0 a 2 1 r 5 1\n", ":2: a second result"),
    ],
)
def test_errors_name_the_same_line(tmp_path: Path, task: str, run: str, message: str) -> None:
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "r.run").write_text(run)
    qrels = read_qrels(tmp_path / "q.qrels")
    errors = []
    for read in (read_run, read_run_columns):
        with pytest.raises(FormatError) as caught:
            evaluate(qrels, read(tmp_path / "r.run"), task)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]
    assert message in errors[0]


def test_element_runs_come_back_as_records_and_are_refused_alike(tmp_path: Path) -> None:
    (tmp_path / "q.qrels").write_text(QRELS)
    (tmp_path / "e.run").write_text("1 Q0 a 1 1 r /article[1]\n")
    run = read_run_columns(tmp_path / "e.run")
    assert not isinstance(run, RunColumns) and run.kind == "element"
    with pytest.raises(FormatError, match="task focused needs a FOL run, not an element run"):
        evaluate(read_qrels(tmp_path / "q.qrels"), run, "focused")
