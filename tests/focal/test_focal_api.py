"""`focal`, the Python API: its examples run, its values are `focal eval`'s on the same files,
and they agree with ir_measures and pytrec_eval on in-memory qrels and runs (1e-9), the shared
INEX 2010 qrels and runs as DataFrames included."""

from __future__ import annotations

import doctest
import glob
import importlib
import inspect
import io
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

import focal
from focal.evaluation.cli.eval.command import eval_command

REPOSITORY = Path(__file__).resolve().parents[2]
DEMO_QRELS = str(REPOSITORY / "demo" / "qrels" / "demo.qrels")
DEMO_RUNS = sorted(glob.glob(str(REPOSITORY / "demo" / "runs" / "*.run")))
ISSUE_MEASURES = ["AP", "nDCG@10", "P(rel=2)@5", "R@100"]

# Grades 0-2 over three topics, scores without ties (ir_measures' own providers order ties
# by document id ascending, trec_eval descending), topic q3 answered by no run.
QRELS = {
    "q1": {"a": 2, "b": 1, "c": 0, "d": 1, "e": 0},
    "q2": {"f": 1, "g": 0, "h": 2},
    "q3": {"i": 1},
}
RUNS = {
    "r1": {"q1": {"a": 0.9, "c": 0.8, "b": 0.7, "x": 0.6}, "q2": {"g": 3.0, "h": 2.0, "z": 1.0}},
    "r2": {"q1": {"e": 5.0, "d": 4.0, "a": 3.0}, "q2": {"h": 1.5, "f": 1.25}},
}


@pytest.mark.parametrize("name", ["focal.api", "focal.frames", "focal.inputs", "focal"])
def test_the_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0, result


def test_every_exported_function_has_an_example() -> None:
    for name in focal.__all__:
        function = getattr(focal, name)
        assert inspect.isfunction(function), name
        assert ">>>" in (function.__doc__ or ""), f"focal.{name} has no example"


def _cli_values(names: list[str], *switches: str) -> dict[tuple[str, str], float]:
    """(run, measure) -> the `all` value `focal eval --task articles --format tsv` prints."""
    arguments = ["--task", "articles", *switches, "--format", "tsv", "-j", "1"]
    for name in names:
        arguments += ["-m", name]
    result = CliRunner().invoke(eval_command, [*arguments, DEMO_QRELS, *DEMO_RUNS])
    assert result.exit_code == 0, result.stderr
    rows = pd.read_csv(io.StringIO(result.stdout), sep="\t", dtype={"topic": str})
    rows = rows[rows["topic"] == "all"]
    return {(r.run_id, r.measure): float(r.value) for r in rows.itertuples()}


def test_the_api_gives_focal_evals_values_on_the_same_files() -> None:
    """`focal.evaluate(complete=True)` counts every qrels topic, as `focal eval -c`, and by
    default the topics a run answered, as `focal eval`; both name the rows as they were asked
    for (`AP`, not trec_eval's `map`)."""
    names = ["AP", "nDCG@10", "P(rel=2)@5", "R@100", "RR@10", "Judged@10"]
    table = focal.wide(focal.evaluate(DEMO_QRELS, DEMO_RUNS, names, complete=True))
    cli = _cli_values(names, "-c")
    assert list(table.columns) == names and len(table) == len(DEMO_RUNS)
    for run in table.index:
        for name in names:
            assert table.loc[run, name] == cli[(run, name)], (run, name)
    open_topics = focal.wide(focal.evaluate(DEMO_QRELS, DEMO_RUNS, ["AP"]))
    assert open_topics["AP"].to_dict() == {run: v for (run, _), v in _cli_values(["AP"]).items()}


def _frames() -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    qrels = pd.DataFrame(
        [(q, d, g) for q, judged in QRELS.items() for d, g in judged.items()],
        columns=["query_id", "doc_id", "relevance"],
    )
    runs = {
        name: pd.DataFrame(
            [(q, d, s) for q, ranked in run.items() for d, s in ranked.items()],
            columns=["query_id", "doc_id", "score"],
        )
        for name, run in RUNS.items()
    }
    return qrels, runs


def test_dataframes_and_dicts_agree_with_ir_measures() -> None:
    """ir_measures averages over every qrels topic (q3 scores 0), as `focal.evaluate` does with
    `complete=True`."""
    ir_measures = pytest.importorskip("ir_measures")
    names = [*ISSUE_MEASURES, "RR@10", "Judged@10", "RR", "P@5", "Bpref", "nDCG"]
    qrels, runs = _frames()
    from_frames = focal.wide(focal.evaluate(qrels, runs, names, complete=True))
    from_dicts = focal.wide(
        focal.evaluate(QRELS, RUNS, [ir_measures.parse_measure(n) for n in names], complete=True)
    )
    pd.testing.assert_frame_equal(from_frames, from_dicts)
    for run, frame in runs.items():
        theirs = ir_measures.calc_aggregate(
            [ir_measures.parse_measure(n) for n in names], qrels, frame
        )
        for measure, value in theirs.items():
            assert from_frames.loc[run, str(measure)] == pytest.approx(value, abs=1e-9), measure


def test_per_topic_values_agree_with_pytrec_eval() -> None:
    """pytrec_eval scores the topics a run answers: `complete=False`."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    evaluator = pytrec_eval.RelevanceEvaluator(QRELS, {"map", "ndcg_cut.10", "P.5", "recall.100"})
    pairs = {"map": "AP", "ndcg_cut_10": "nDCG@10", "P_5": "P@5", "recall_100": "R@100"}
    for run_id, run in RUNS.items():
        ours = focal.evaluate(QRELS, {run_id: run}, list(pairs.values()), per_topic=True,
                              complete=False)  # fmt: skip
        values = {(r.topic, r.measure): r.value for r in ours.itertuples()}
        theirs = evaluator.evaluate(run)
        assert {topic for topic, _ in values} == set(theirs)
        for topic, measures in theirs.items():
            for name, value in measures.items():
                assert values[(topic, pairs[name])] == pytest.approx(value, abs=1e-9)


def test_compare_pairs_the_answered_topics_unless_complete() -> None:
    """q3 is answered by no run: it counts, scoring 0, with `complete`. Worked by hand: P@1 of
    r1 is 1 (a) and 0 (g); of r2 0 (e) and 1 (h); means over the 2 answered topics 1/2, over
    the 3 qrels topics 1/3; `evaluate` gives the same means with the same keyword."""
    common = focal.compare(QRELS, RUNS, "P.1")
    assert common[["mean_a", "mean_b"]].values.tolist() == [[0.5, 0.5]]
    assert focal.wide(focal.evaluate(QRELS, RUNS, ["P@1"]))["P@1"].tolist() == [0.5, 0.5]
    pairs = focal.compare(QRELS, RUNS, "P@1", complete=True)
    assert pairs[["mean_a", "mean_b"]].values.tolist() == [[pytest.approx(1 / 3)] * 2]
    every = focal.wide(focal.evaluate(QRELS, RUNS, ["P@1"], complete=True))["P@1"].tolist()
    assert every == [pytest.approx(1 / 3)] * 2


def test_bad_frames_are_refused_with_the_columns_expected() -> None:
    with pytest.raises(ValueError, match="needs columns query_id, doc_id, relevance"):
        focal.evaluate(pd.DataFrame({"qid": ["1"]}), {"q": {"d": 1.0}}, ["AP"])


def test_the_shared_inex_2010_frames_agree_with_ir_measures_and_focal_eval(
    inex2010: Path,
) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    qrels_path = inex2010 / "inex2010.qrels"
    paths = sorted(glob.glob(str(inex2010 / "runs" / "*.run")))[:5]
    qrels = focal.read_qrels(qrels_path)[["query_id", "doc_id", "relevance"]]
    runs: dict[str, Any] = {}
    for path in paths:
        run = focal.read_run(path)  # passages: an article scores its best one
        runs[Path(path).name] = run.groupby(["query_id", "doc_id"], as_index=False)["score"].max()
    table = focal.wide(focal.evaluate(qrels, runs, ISSUE_MEASURES, complete=True))
    on_files = focal.wide(focal.evaluate(qrels_path, paths, ISSUE_MEASURES, complete=True))
    parsed = [ir_measures.parse_measure(name) for name in ISSUE_MEASURES]
    for (name, run), values in zip(runs.items(), on_files.itertuples(index=False), strict=True):
        theirs = ir_measures.calc_aggregate(parsed, qrels, run)
        for measure, value in theirs.items():
            assert table.loc[name, str(measure)] == pytest.approx(value, abs=1e-9)
        assert list(values) == pytest.approx(list(table.loc[name]), abs=1e-12)


def test_the_notebook_session_of_docs_python_md_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPOSITORY)
    flags = doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(
        str(REPOSITORY / "docs" / "python.md"), module_relative=False, optionflags=flags
    )
    assert result.attempted >= 10 and result.failed == 0, result


def test_a_dict_of_runs_names_them_whatever_their_run_id_column() -> None:
    frame = pd.DataFrame({"run_id": ["x", "x"], "query_id": ["q1", "q1"], "doc_id": ["a", "b"],
                          "score": [2.0, 1.0]})  # fmt: skip
    assert focal.evaluate(QRELS, {"mine": frame}, ["AP"])["run"].tolist() == ["mine"]
    assert focal.evaluate(QRELS, frame, ["AP"])["run"].tolist() == ["x"]


def test_passage_tasks_choose_rows_of_the_official_layout_as_focal_eval_prints_them() -> None:
    result = CliRunner().invoke(
        eval_command, ["--task", "thorough", "-c", "--format", "tsv", DEMO_QRELS, *DEMO_RUNS]
    )
    rows = pd.read_csv(io.StringIO(result.stdout), sep="\t", dtype={"topic": str})
    cli = rows[(rows["topic"] == "all") & (rows["measure"] == "MAiP")]
    table = focal.wide(focal.evaluate(DEMO_QRELS, DEMO_RUNS, ["MAiP", "iP[0.01]"], task="thorough"))
    assert table["MAiP"].to_dict() == dict(zip(cli["run_id"], cli["value"], strict=True))
    pairs = focal.compare(DEMO_QRELS, DEMO_RUNS, task="thorough")  # AiP, the answered topics
    assert dict(zip(pairs["run_a"], pairs["mean_a"], strict=True)) == pytest.approx(
        {run: table.loc[run, "MAiP"] for run in pairs["run_a"]}, abs=1e-12
    )
    with pytest.raises(ValueError, match="no values of measure AP"):
        focal.evaluate(DEMO_QRELS, DEMO_RUNS, ["AP"], task="thorough")


def test_neither_import_focal_nor_a_command_loads_pandas() -> None:
    import subprocess
    import sys

    script = (
        "import sys; import focal; from click.testing import CliRunner; "
        "from focal.assessor.cli.main import main; "
        f"r = CliRunner().invoke(main, ['eval', '--task', 'articles', '-m', 'AP', {DEMO_QRELS!r}, "
        f"{DEMO_RUNS[0]!r}, {DEMO_RUNS[1]!r}]); "
        "assert r.exit_code == 0, r.output; print('pandas' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert loaded.stdout.strip() == "False", loaded.stderr
