"""`focal eval` on several runs prints one table of runs × measures by default, the best value
of each column marked; -q and --format keep the per-topic and official layouts."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command

REPOSITORY = Path(__file__).resolve().parents[3]
QRELS = str(REPOSITORY / "demo" / "qrels" / "demo.qrels")
RUNS = [str(REPOSITORY / "demo" / "runs" / f"bm25-{kind}.run") for kind in ("passages", "articles")]


def _invoke(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(eval_command, [*arguments, QRELS, *RUNS])
    return result.exit_code, result.stdout


def test_several_runs_print_one_table_with_the_best_marked() -> None:
    code, out = _invoke("--task", "thorough")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + len(RUNS)
    assert lines[0].split() == ["run", "MAiP", "iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]"]
    marked = [line.split()[1].endswith("*") for line in lines[1:]]
    assert any(marked)  # some run has the best MAiP
    code, tsv = _invoke("--task", "thorough", "--format", "tsv")
    means = {
        r.split("\t")[0]: float(r.split("\t")[3]) for r in tsv.splitlines() if "\tMAiP\tall" in r
    }
    best = max(means, key=lambda run: means[run])
    assert next(line for line in lines if line.startswith(best + " ")).split()[1].endswith("*")
    assert float(lines[1].split()[1].rstrip("*")) == round(means[lines[1].split()[0]], 4)


def test_articles_print_the_chosen_measures_as_columns() -> None:
    code, out = _invoke("--task", "articles", "-m", "AP", "-m", "nDCG@10", "-m", "P(rel=2)@5")
    assert code == 0
    assert out.splitlines()[0].split() == ["run", "AP", "nDCG@10", "P(rel=2)@5"]


def test_per_topic_rows_and_the_official_layout_stay() -> None:
    code, out = _invoke("--task", "thorough", "-q")
    assert code == 0 and out.startswith("<eval run-id=")
    code, out = _invoke("--task", "thorough", "--format", "inex")
    assert code == 0 and out.count("<eval run-id=") == len(RUNS)
    code, _ = _invoke("--format", "table", "-q")
    assert code == 2


def test_articles_plot_their_precision_recall_curves(tmp_path: Path) -> None:
    for measures in ([], ["-m", "AP"]):  # Focal's article engine, then trec_eval's
        target = tmp_path / f"curves{len(measures)}.svg"
        code, _ = _invoke("--task", "articles", *measures, "--plot", str(target))
        figure = target.read_text(encoding="utf-8")
        assert code == 0 and all(f"bm25-{kind}" in figure for kind in ("passages", "articles"))


def test_a_reader_closing_the_pipe_sees_no_traceback() -> None:
    """`focal eval ... | head -1`: more output than a pipe holds, the reader gone after a line."""
    import subprocess
    import sys

    arguments = ["eval", "--task", "thorough", "-q", "--format", "tsv", QRELS, *RUNS * 8]
    command = [sys.executable, "-m", "focal.assessor.cli.main", *arguments]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"run_id")
        process.stdout.close()
        errors = process.stderr.read().decode()
    assert process.returncode in (0, 1) and "Traceback" not in errors
