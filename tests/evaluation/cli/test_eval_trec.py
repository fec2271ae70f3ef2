"""`focal eval --task articles` as trec_eval: its layout line for line, both versions, errors.

data/small.qrels and data/small.run, worked by hand (level 1):
- topic 1: relevant d1 and d3 (R = 2), d2 judged non-relevant, d4 pooled and unjudged. The run
  scores d2 0.9, d1 and d5 0.5: the tie goes to the larger id, so the ranking is d2, d5, d1.
  num_ret 3, num_rel_ret 1 (d1 at rank 3): map = (1/3)/2 = 0.1667, recip_rank = 1/3,
  P_2 = 0/2, ndcg_cut_2 = 0 (nothing relevant in the first two ranks).
- topic 2: d1 relevant and retrieved first: map 1, recip_rank 1, P_2 = 1/2, ndcg_cut_2 = 1.
- topic 3: judged (d9 relevant) but not in the run. With -c, trec_eval 10.0 prints it with
  num_ret 0, num_rel 1 and zeros.
all (-c, 3 topics): map = (1/6 + 1 + 0)/3 = 0.3889; gm_map = exp((ln(1/6) + ln 1 + ln 1e-5)/3)
= exp(-4.4349) = 0.0119; recip_rank = (1/3 + 1 + 0)/3 = 0.4444; P_2 = 0.5/3 = 0.1667;
ndcg_cut_2 = 1/3. 10.0 counts topic 3 in num_q (3), 9.x does not (2); num_rel's `all` row with
-c is 4 in both (every qrels grade above 0, m_num_rel.c).
The expected file was written with the shell's printf '%-22s\\t%s\\t%s\\n', trec_eval's format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command

DATA = Path(__file__).parent / "data"
MEASURES = [
    *("-m", "runid", "-m", "num_q", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret"),
    *("-m", "map", "-m", "gm_map", "-m", "recip_rank", "-m", "P.2", "-m", "ndcg_cut.2"),
]


def invoke(*arguments: str) -> tuple[int, str, str]:
    """`focal eval` in trec_eval's layout unless another `--format` is given (by default a
    table, or tab-separated rows with -q: `test_the_default_layout_names_rows_as_typed`)."""
    layout = [] if "--format" in arguments else ["--format", "trec"]
    result = CliRunner().invoke(eval_command, [*layout, *arguments])
    return result.exit_code, result.stdout, result.stderr


def small(*options: str) -> tuple[int, str, str]:
    return invoke(
        "--task",
        "articles",
        *options,
        *MEASURES,
        str(DATA / "small.qrels"),
        str(DATA / "small.run"),
    )


def test_trec_layout_line_for_line() -> None:
    code, out, err = small("--format", "trec", "-q", "-c")
    assert code == 0, err
    assert out.splitlines() == (DATA / "small.trec_eval10.txt").read_text().splitlines()


def test_version_9_skips_missing_topics_in_per_topic_rows() -> None:
    code, out, _ = small("-q", "-c", "--trec-version", "9")
    assert code == 0
    expected = [
        line
        for line in (DATA / "small.trec_eval10.txt").read_text().splitlines()
        if "\t3\t" not in line  # 9.x prints no rows for a topic the run skipped
    ]
    # num_q stays 3 too: with -c 9.0.7 counts the qrels topics (m_num_q.c). num_rel's `all` row
    # with -c stays 4: 9.0.x, like 10.0, counts every qrels grade above 0 over all qrels topics,
    # answered or not (m_num_rel.c, te_calc_avg_num_rel).
    assert out.splitlines() == expected


def test_without_complete_averages_over_answered_topics() -> None:
    code, out, _ = small()
    rows = dict(line.split("\t")[::2] for line in out.splitlines())
    assert code == 0 and rows[f"{'map':<22}"] == "0.5833"  # (1/6 + 1) / 2
    assert rows[f"{'num_q':<22}"] == "2"


def test_official_set_and_left_out_names(tmp_path: Path) -> None:
    code, out, err = invoke(
        "--task", "articles", "-m", "all_trec", str(DATA / "small.qrels"), str(DATA / "small.run")
    )
    names = [line.split("\t")[0].rstrip() for line in out.splitlines()]
    assert code == 0 and names[:4] == ["runid", "num_q", "num_ret", "num_rel"]
    assert "infAP" in names and "set_F" in names and "ndcg_cut_1000" in names
    # 10.0's all_trec in full: the gain measures, rbp and the unjudged shares too (measures.c);
    # relstring has no `all` row.
    assert {"binG", "G", "ndcg_rel", "Rndcg", "rbp", "rbp_resid", "unj_20"} <= set(names)
    assert "relstring" not in names and "left out" not in err


def test_fol_qrels_and_passage_runs_with_trec_names(tmp_path: Path) -> None:
    """FOL qrels: a is relevant (10 highlighted characters), b judged non-relevant. The FOL run
    returns passages of b (score 3) and a (scores 1 and 2): a scores its best, 2, rank 2."""
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text("1 Q0 a 10 100 5 0:10\n1 Q0 b 0 50\n")
    run.write_text("1 Q0 b 1 3.0 mine 0 5\n1 Q0 a 2 1.0 mine 0 5\n1 Q0 a 3 2.0 mine 9 5\n")
    code, out, err = invoke("--task", "articles", "-m", "map", "-m", "bpref", str(qrels), str(run))
    assert code == 0, err
    assert out.splitlines() == [f"{'map':<22}\tall\t0.5000", f"{'bpref':<22}\tall\t0.0000"]


@pytest.mark.parametrize(
    ("qrels", "run", "message"),
    [
        ("1 0 d1\n", "1 Q0 d1 1 1.0 r\n", "q:1: expected 4 fields"),
        ("1 0 d1 1\n1 0 d2 high\n", "1 Q0 d1 1 1.0 r\n", "q:2: expected an integer grade"),
        ("1 0 d1 1\n1 0 d1 0\n", "1 Q0 d1 1 1.0 r\n", "q:2: document 'd1' of topic '1' is judged"),
        ("1 0 d1 1\n", "1 Q0 d1 1 1.0 r\n1 Q0 d2 2 r\n", "r:2: expected 6 fields"),
        ("1 0 d1 1\n", "1 Q0 d1 1 1.0 r\n1 Q0 d2 2 x r\n", "r:2: expected a numeric score"),
        ("1 0 d1 1\n", "1 Q0 d1 1 1.0 r\n1\tQ0 d2 2 x r\n", "r:2: expected a numeric score"),
        (
            "1 0 d1 1\n",
            "1 Q0 d1 1 1.0 r\n2 Q0 d1 1 1.0 r\n1 Q0 d1 3 0.5 r\n",
            "r:3: document 'd1' appears twice in topic '1' (also line 1); trec_eval refuses",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, qrels: str, run: str, message: str) -> None:
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    code, out, err = invoke("--task", "articles", str(tmp_path / "q"), str(tmp_path / "r"))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("focal eval: ")
    assert f"{tmp_path}/{message}" in err


def test_unknown_measure_lists_the_known_ones() -> None:
    code, out, err = small("-m", "Pp.5")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "known are num_q num_ret" in err and "official all_trec" in err


def test_trec_options_need_the_articles_task() -> None:
    files = (str(DATA / "small.qrels"), str(DATA / "small.run"))
    code, _, err = invoke("--task", "focused", "-l", "2", *files)
    assert code == 2 and "--task articles" in err
    code, _, err = invoke("-l", "2", *files)  # TREC qrels: the task is articles
    assert code == 0 and "TREC qrels, which only --task articles reads" in err


@pytest.mark.parametrize("task", ["focused", "thorough", "ric", "bic", "t2i", "elements"])
def test_a_task_that_cannot_read_trec_qrels_names_the_one_that_can(task: str) -> None:
    code, out, err = invoke("--task", task, str(DATA / "small.qrels"), str(DATA / "small.run"))
    assert code == 2 and out == "" and f"not --task {task}" in err and "--task articles" in err


def test_xml_submission_whose_first_line_has_six_fields(tmp_path: Path) -> None:
    """An INEX XML submission is read as one, even when its first line splits into six words."""
    run = tmp_path / "sub.xml"
    run.write_text(
        '<inex-submission participant-id="4" run-id="R1" task="Focused" query="automatic" x=""\n'
        'result-type="fol"><topic topic-id="1"><result><file>d1</file>'
        "<fol offset='0' length='5'/></result></topic></inex-submission>\n"
    )
    assert len(run.read_text().splitlines()[0].split()) == 6
    code, out, err = invoke("--task", "articles", "-m", "map", str(DATA / "small.qrels"), str(run))
    assert code == 0, err
    assert out.splitlines() == [f"{'map':<22}\tall\t0.5000"]  # d1 of topic 1 at rank 1, R = 2


def test_tsv_and_json_carry_full_precision() -> None:
    code, out, _ = small("--format", "tsv", "-q")
    rows = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and rows[0] == ["run_id", "measure", "topic", "value"]
    assert ["myrun", "map", "1", repr(1 / 6)] in rows
    assert ["myrun", "map", "all", repr((0.0 + 1 / 6 + 1.0) / 2)] in rows  # summed in topic order
    code, out, _ = small("--format", "json", "-q", "-c")
    document = json.loads(out)
    assert code == 0 and document[0]["trec_version"] == 10
    assert document[0]["topics"]["3"]["num_rel"] == 1 and document[0]["all"]["num_q"] == 3
    assert document[0]["all"]["map"] == pytest.approx(7 / 18, abs=1e-15)


@pytest.mark.parametrize("runs", [1, 2])
def test_the_default_layout_names_rows_as_typed(runs: int) -> None:
    """Whatever the number of runs, a table by default (tab-separated rows with -q) and every
    measure under the name typed: `AP`, `P@10`, `RR`; trec_eval's names only in its layout."""
    files = [str(DATA / "small.qrels"), *[str(DATA / "small.run")] * runs]
    typed = ["-m", "AP", "-m", "P@10", "-m", "RR"]
    result = CliRunner().invoke(eval_command, ["--task", "articles", *typed, *files])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].split() == ["run", "AP", "P@10", "RR"]
    for switches in (["-q"], ["--format", "tsv"], ["--format", "tsv", "-q"]):
        result = CliRunner().invoke(eval_command, ["--task", "articles", *switches, *typed, *files])
        names = {line.split("\t")[1] for line in result.stdout.splitlines()[1:]}
        assert result.exit_code == 0 and {"AP", "P@10", "RR"} <= names, result.stdout
        assert not names & {"map", "P_10", "recip_rank"}
    code, out, _ = invoke("--task", "articles", *typed, *files)  # --format trec
    assert code == 0 and {"map", "P_10", "recip_rank"} <= {
        line.split()[0] for line in out.splitlines()
    }


def test_runs_on_threads_print_what_one_worker_prints(tmp_path: Path) -> None:
    """Several runs are read and evaluated on threads (-j): the same output as with one worker,
    in the order given; a bad file is reported as the first bad one in that order."""
    runs = []
    for number, scores in enumerate(((0.9, 0.5, 0.5), (0.1, 0.7, 0.2), (0.4, 0.4, 0.9))):
        lines = [f"1 Q0 d{d} {d} {s} r{number}" for d, s in zip((2, 5, 1), scores, strict=True)]
        lines.append(f"2 Q0 d1 1 0.3 r{number}")
        path = tmp_path / f"r{number}.run"
        path.write_text("\n".join(lines) + "\n")
        runs.append(str(path))
    qrels = str(DATA / "small.qrels")
    one = invoke("--task", "articles", "-j", "1", "-q", *MEASURES, qrels, *runs)
    two = invoke("--task", "articles", "-j", "2", "-q", *MEASURES, qrels, *runs)
    assert one[0] == two[0] == 0 and one[1] == two[1]
    assert [line.split("\t")[2] for line in one[1].splitlines() if line.startswith("runid")] == [
        "r0", "r1", "r2"
    ]  # fmt: skip
    bad = tmp_path / "bad.run"
    bad.write_text("1 Q0 d1 1 high x\n")  # a score that is not a number
    code, _, err = invoke("--task", "articles", "-j", "2", *MEASURES, qrels, runs[0], str(bad))
    assert code == 2 and "bad.run" in err


def test_trec_run_with_trailing_fields(tmp_path: Path) -> None:
    """A run line of 9 fields (trec_eval's results.trunc) is a TREC run whose fields after the
    sixth are ignored: d1 ranked first of two, map 1; the run id is the sixth field."""
    (tmp_path / "q").write_text("1 0 d1 1\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 2.0 mine more junk here\n1 Q0 d2 2 1.0 mine x y z\n")
    code, out, err = invoke("--task", "articles", "-m", "runid", "-m", "map",
                            str(tmp_path / "q"), str(tmp_path / "r"))  # fmt: skip
    assert code == 0, err
    assert out.splitlines() == [f"{'runid':<22}\tall\tmine", f"{'map':<22}\tall\t1.0000"]
