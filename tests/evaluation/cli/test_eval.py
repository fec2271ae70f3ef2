"""`focal eval` in-process: layouts, notes on stderr, strict mode, errors, plots, several runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command
from focal.evaluation.cli.eval.output import format_value

QRELS = """\
1 Q0 a 10 100 5 0:10
1 Q0 b 0 50
2 Q0 c 20 40 0 0:20 \n"""
# topic 1 answered: a 0:20 (10 relevant of 20), b 0:10 (nothing); topic 9 is not in the qrels
RUN = """\
1 Q0 a 1 2.0 mine 0 20
1 Q0 b 2 1.0 mine 0 10
9 Q0 z 1 1.0 mine 0 5
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    qrels, run = tmp_path / "q.qrels", tmp_path / "mine.run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def invoke(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(eval_command, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_inex_layout_and_notes_on_stderr(files: tuple[str, str]) -> None:
    code, out, err = invoke("-q", *files)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f'<eval run-id="mine" file="{files[1]}">'
    assert lines[1] == "num_ret\t\t1\t2" and lines[-1] == "</eval>"
    assert "char_prec\t1\t0.3333333333333333" in lines  # 10 relevant of 30 read
    assert "num_q\t\tall\t1" in lines
    assert "averaged over the 1 qrels topics the run answers (no -c)" in err
    assert "run topics absent from the qrels (ignored): 9" in err
    assert "averaged" not in out


def test_complete_averages_over_every_qrels_topic(files: tuple[str, str]) -> None:
    code, out, err = invoke("-c", *files)
    assert code == 0 and "averaged over all 2 qrels topics (-c; 1 answered)" in err
    assert "num_q\t\tall\t2" in out.splitlines()


def test_strict_mode_says_so(files: tuple[str, str]) -> None:
    code, out, err = invoke("--strict", "--task", "ric", *files)
    assert code == 0
    assert out.startswith(f'<eval run-id="mine" file="{files[1]}" mode="strict">')
    assert "strict mode" in err and "NOT the official program" in err


def test_tsv_and_json(files: tuple[str, str]) -> None:
    code, out, _ = invoke("--format", "tsv", "-q", "--task", "bic", *files)
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["run_id", "measure", "topic", "value"]
    # bep 5, offset 0: (500 - 5)/500 at rank 1
    assert ["mine", "gP[1]", "1", "0.99"] in rows
    code, out, _ = invoke("--format", "json", "-q", "--task", "t2i", *files)
    document = json.loads(out)
    assert document[0]["run_id"] == "mine" and document[0]["settings"]["task"] == "t2i"
    # reads 0..20, then the rest of the 100 characters (90 irrelevant < 300): 10 of 100
    assert document[0]["topics"]["1"]["gP[1]"] == 0.1
    assert document[0]["unknown_topics"] == ["9"]


def test_articles_task_with_measures(files: tuple[str, str]) -> None:
    code, out, _ = invoke("--task", "articles", "-m", "MAP", "-m", "P@1", "-q", *files)
    assert code == 0
    assert "MAP\t\t1\t1.0" in out.splitlines() and "P@1\t\tall\t1.0" in out.splitlines()
    code, _, err = invoke("--task", "articles", "-m", "MRR", *files)
    assert code == 2 and "unknown measure 'MRR' (closest: RR" in err and "known are" in err
    assert len(err.splitlines()) == 1


def test_input_errors_are_one_line_and_exit_2(files: tuple[str, str], tmp_path: Path) -> None:
    overlapping = tmp_path / "overlap.run"
    overlapping.write_text("1 Q0 a 1 1 r 0 10\n1 Q0 a 2 1 r 5 10\n")
    code, out, err = invoke(files[0], str(overlapping))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"focal eval: {overlapping}:2: result overlaps the result of line 1 in article a "
        "(overlap is only allowed in thorough runs)"
    )
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 a 1 1 r zero 10\n")
    code, _, err = invoke(files[0], str(bad))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "bad.run:1" in err


def test_several_runs_in_one_call_use_a_process_pool(
    files: tuple[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "other.run"
    other.write_text(RUN.replace("mine", "other").replace("0 20", "0 10"))
    code, out, _ = invoke("-j", "2", "--format", "inex", files[0], files[1], str(other))
    assert code == 0
    headers = [line for line in out.splitlines() if line.startswith("<eval")]
    assert [h.split('"')[1] for h in headers] == ["mine", "other"]
    _, alone, _ = invoke(files[0], str(other))
    assert out.split("</eval>\n")[1] + "</eval>\n" == alone  # as evaluated on its own


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot(files: tuple[str, str], tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"curves{suffix}"
    code, _, err = invoke("--plot", str(target), *files)
    assert code == 0 and "plot written" in err
    head = target.read_bytes()[:64]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<?xml" in head
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("tmp")] == []


def test_java_number_formatting() -> None:
    assert format_value(0.1) == "0.1"
    assert format_value(1e-3) == "0.001"
    assert format_value(9.999e-4) == "9.999E-4"
    assert format_value(1e7) == "1.0E7"
    assert format_value(3) == "3"
