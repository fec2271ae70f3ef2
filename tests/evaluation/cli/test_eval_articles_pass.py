"""`focal eval --task articles` on plain TREC files through the whole-file pass
(`running.article_pass`: the C part's, or the numpy one without it): every layout prints what
the article engine's evaluation prints, byte for byte, stderr's notes too; and the command,
started fresh with the C part, imports neither numpy nor pyarrow to do it
(docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval import articles
from focal.evaluation.cli.trec_eval.articles import run_trec_eval
from focal.evaluation.measures.trec_eval.engine.summary import TrecOptions
from focal.evaluation.measures.trec_eval.kernel import compiled
from tests.evaluation.cli.test_trec_eval_threads import write_files


@pytest.mark.parametrize(("measures", "per_topic", "layout", "confidence"), [
    ((), False, "trec", None), ((), True, "trec", None), (("all_trec",), True, "trec", None),
    (("AP", "nDCG@10", "P@5"), True, "tsv", None), (("map", "relstring.3"), True, "json", None),
    ((), False, "table", None), (("map", "P.10"), False, "tsv", 0.9),
])  # fmt: skip
@pytest.mark.parametrize("complete", [False, True])
@pytest.mark.usefixtures("each_pass")  # (the C part's pass, and the numpy one)
def test_every_layout_as_the_engine_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], measures: tuple[str, ...],
    per_topic: bool, layout: str, confidence: float | None, complete: bool,
) -> None:  # fmt: skip
    qrels, runs = write_files(tmp_path, 3)  # (a run topic the qrels lack)
    Path(qrels).write_text(Path(qrels).read_text() + "99 0 d1 1\n")  # (one the runs miss)
    options = TrecOptions(complete=complete)
    found = articles.by_pass(qrels, runs, articles.measures_for(measures, layout), options,
                             per_topic or confidence is not None)  # fmt: skip
    assert all(evaluation is not None for evaluation in found)
    run_trec_eval(qrels, runs, measures, options, per_topic, layout, 1, confidence, "t",
                  None, found)  # fmt: skip
    by_pass = capsys.readouterr()
    run_trec_eval(qrels, runs, measures, options, per_topic, layout, 1, confidence, "t",
                  None, [None] * len(runs))  # fmt: skip
    by_engine = capsys.readouterr()
    assert by_pass.out and "topics answered" in by_pass.err
    assert (by_pass.out, by_pass.err) == (by_engine.out, by_engine.err)


@pytest.mark.usefixtures("each_pass")
def test_measures_the_engine_alone_knows_leave_the_pass_untried(tmp_path: Path) -> None:
    """Names that are not trec_eval's (Focal's relevant fraction): no run for the pass, and the
    engine that serves them says what is wrong."""
    qrels, runs = write_files(tmp_path, 1)
    assert articles.by_pass(qrels, runs, ["nDCG(gain=fraction)@10"], TrecOptions(), False) == [None]


PROBE = """
import atexit, sys
atexit.register(lambda: print("MODULES", ",".join(sorted(sys.modules))))
from focal.assessor.cli import launch
launch()
"""


@pytest.mark.parametrize("given", [
    [], ["--format", "trec"], ["--format", "trec", "-q", "-m", "map", "-m", "P@5"],
    ["--format", "tsv", "-m", "AP", "-m", "nDCG@10"], ["--format", "json", "-q", "-m", "AP"],
])  # fmt: skip
@pytest.mark.skipif(compiled() is None, reason="the C part is not built: the numpy pass "
                    "imports numpy")  # fmt: skip
def test_plain_files_need_neither_numpy_nor_pyarrow(tmp_path: Path, given: list[str]) -> None:
    qrels, runs = write_files(tmp_path, 2)
    command = [sys.executable, "-c", PROBE, "eval", "--task", "articles", *given, qrels, *runs]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert done.stdout.split("MODULES", 1)[0].count("\n") >= 3  # (the rows printed)
    modules = {module.split(".")[0] for module in done.stdout.rsplit("MODULES ", 1)[1].split(",")}
    assert "focal" in modules
    assert not {"numpy", "pyarrow"} & modules, sorted({"numpy", "pyarrow"} & modules)


@pytest.mark.usefixtures("each_pass")
def test_gains_of_their_own_on_trec_run_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row mapping the grades to gains of its own is evaluated against its own grade table:
    the run files go to it as read (`ArticleSteps.prepare`), as the Python API gives them."""
    from focal.evaluation.api import evaluate

    qrels, runs = write_files(tmp_path, 2)
    name = "nDCG(gains={0:0,1:1,2:5})@10"
    run_trec_eval(qrels, runs, [name, "ndcg_cut.10"], TrecOptions(), False, "tsv", 1)
    printed = [line.split("\t") for line in capsys.readouterr().out.splitlines()[1:]]
    expected = evaluate(qrels, runs, "articles", [name, "ndcg_cut.10"]).aggregate
    shown = {(run, row): float(value) for run, row, _, value in printed}
    assert shown == {
        (run, typed): float(values[row]) for run, values in expected.items()
        for typed, row in ((name, name), ("ndcg_cut.10", "ndcg_cut_10"))
    }  # fmt: skip
    assert expected["run0"][name] != expected["run0"]["ndcg_cut_10"]  # (the gains count)
