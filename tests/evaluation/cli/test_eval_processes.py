"""`focal eval` evaluates several runs on workers (threads for focused, processes for the other
tasks); errors must survive the trip, and the output is that of one worker."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command

QRELS = "1 Q0 a 10 100 0 0:10\n1 Q0 b 0 50\n"
GOOD = "1 Q0 a 1 1.0 good 0 20\n"
# The second line overlaps the first passage of the same article: an error in a focused run.
OVERLAPPING = "1 Q0 a 1 1.0 bad 0 20\n1 Q0 a 2 0.5 bad 10 20\n"


def test_an_error_in_a_worker_is_one_line_naming_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS, encoding="utf-8")
    (tmp_path / "good.run").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.run").write_text(OVERLAPPING, encoding="utf-8")
    paths = [str(tmp_path / name) for name in ("q", "good.run", "bad.run")]
    result = CliRunner().invoke(eval_command, ["-j", "2", *paths])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{tmp_path / 'bad.run'}:2:" in lines[0]


def test_several_runs_in_workers_print_what_one_process_prints(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS, encoding="utf-8")
    (tmp_path / "good.run").write_text(GOOD, encoding="utf-8")
    (tmp_path / "other.run").write_text(GOOD.replace("good", "other"), encoding="utf-8")
    paths = [str(tmp_path / name) for name in ("q", "good.run", "other.run")]
    serial = CliRunner().invoke(eval_command, ["-j", "1", "--format", "inex", *paths])
    parallel = CliRunner().invoke(eval_command, ["-j", "2", "--format", "inex", *paths])
    assert serial.exit_code == parallel.exit_code == 0
    assert parallel.stdout == serial.stdout
    assert 'run-id="other"' in serial.stdout


def test_focused_runs_on_threads_print_what_one_worker_prints(tmp_path: Path) -> None:
    """Plain-number ids: the whole-run path (`focused_table`) on two threads, for every task
    that reads FOL runs the same as one worker."""
    qrels = "".join(
        f"{t} Q0 {a} 10 900 {a} {a}:10\n{t} Q0 {a + 1} 0 500\n" for t in range(1, 9) for a in (7, 9)
    )
    (tmp_path / "q").write_text(qrels, encoding="utf-8")
    paths = [str(tmp_path / "q")]
    for r in range(5):
        lines = [
            f"{t} Q0 {a} {k} {1 / k:.3f} r{r} {(r * 3 + k) % 12} {r + k}"
            for t in range(1, 9)
            for k, a in enumerate((7, 8, 9, 10), start=1)
        ]
        (tmp_path / f"r{r}.run").write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(tmp_path / f"r{r}.run"))
    for task in ("focused", "thorough"):
        serial = CliRunner().invoke(eval_command, ["--task", task, "-q", "-j", "1", *paths])
        parallel = CliRunner().invoke(eval_command, ["--task", task, "-q", "-j", "2", *paths])
        assert serial.exit_code == parallel.exit_code == 0, serial.output
        assert parallel.stdout == serial.stdout and 'run-id="r4"' in serial.stdout
