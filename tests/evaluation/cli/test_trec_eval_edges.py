"""`focal trec_eval` on hostile files and options, worked by hand (docs/trec_eval.md, "Control
flow", "Reading, as 10.0 reads", "The two versions"): these run without the C programs, which
`test_trec_eval_hostile.py` replays when they are there."""

from __future__ import annotations

from pathlib import Path

from tests.evaluation.cli.test_trec_eval_command import files, rows, run_command

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 1\n3 0 d 1\n"
RUN = "1 Q0 a 0 2 s\n1 Q0 b 1 1 s\n3 Q0 d 0 1 s\n"  # topic 2 unanswered


def test_rows_before_a_stop_are_printed(tmp_path: Path) -> None:
    """Topics 1, 2, 3 in the qrels, the run skips 2: topic 1's rows, then exit 4 at 2."""
    q, r = files(tmp_path, QRELS, RUN)
    code, out, err = run_command("-q", "-m", "map", q, r)
    assert code == 4 and rows(out) == {("map", "1"): "1.0000"} and "result qid '2'" in err
    code, out, _ = run_command("-m", "map", q, r)  # without -q nothing is printed before
    assert (code, out) == (4, "")


def test_a_duplicate_stops_only_where_trec_eval_looks(tmp_path: Path) -> None:
    """A document twice in topic 3 stops at 3 after topic 1's rows; twice in topic 7, which the
    qrels lack, or below the -M cut, changes nothing."""
    answered = RUN + "2 Q0 c 0 1 s\n"
    q, r = files(tmp_path, QRELS, answered + "3 Q0 d 1 0.5 s\n")
    code, out, err = run_command("-q", "-m", "map", q, r)
    assert code == 4 and set(rows(out)) == {("map", "1"), ("map", "2")} and "'d'" in err
    q, r = files(tmp_path, QRELS, answered + "7 Q0 z 0 1 s\n7 Q0 z 1 1 s\n")
    code, out, _ = run_command("-m", "map", q, r)
    assert code == 0 and rows(out) == {("map", "all"): "1.0000"}
    q, r = files(tmp_path, QRELS, answered + "1 Q0 b 9 -5 s\n")  # b's copy ranks third
    code, out, _ = run_command("-M", "2", "-m", "map", q, r)
    assert code == 0 and rows(out) == {("map", "all"): "1.0000"}
    code, _, _ = run_command("-M", "3", "-m", "map", q, r)
    assert code == 4


def test_numbers_are_read_as_c_reads_them(tmp_path: Path) -> None:
    """Scores: `1_000` is 1 and `0x1p-3` is 0.125, so x (1_000) ranks below a (2) and above b
    (0x1p-3); a grade `1.7` is 1, so b becomes relevant: ranks a, x, b with a, b relevant,
    AP = (1/1 + 2/3) / 2 = 0.8333."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 1.7\n", "1 Q0 a 0 2 s\n1 Q0 x 0 1_000 s\n"
                 "1 Q0 b 0 0x1p-3 s\n")  # fmt: skip
    code, out, err = run_command("-m", "map", "-m", "num_rel", q, r)
    assert code == 0 and err == ""
    assert rows(out) == {("num_rel", "all"): "2", ("map", "all"): "0.8333"}


def test_comment_and_blank_lines_as_10_reads_them(tmp_path: Path) -> None:
    """A qrels comment is skipped, but the line after it is data (`# two` is a two-field line:
    malformed); a blank qrels line is malformed; run comments and blank lines are skipped."""
    run = "# a comment\n\n" + RUN + "2 Q0 c 0 1 s\n"
    q, r = files(tmp_path, "# one\n" + QRELS, run)
    assert run_command("-m", "map", q, r)[0] == 0
    q, r = files(tmp_path, "# one\n# two\n" + QRELS, run)
    code, out, err = run_command("-m", "map", q, r)
    assert (code, out) == (2, "") and f"{q}:2: expected 4 fields" in err
    q, r = files(tmp_path, QRELS + "\n", run)
    code, _, err = run_command("-m", "map", q, r)
    assert code == 2 and f"{q}:5:" in err


def test_options_at_their_edges(tmp_path: Path) -> None:
    """-M 0: nothing retrieved (map 0); a 30-digit -M is every document; -l 0: b (grade 0)
    relevant too; -M and -l below 0 are refused (10.0 crashes or mixes two readings)."""
    q, r = files(tmp_path, QRELS, RUN + "2 Q0 c 0 1 s\n")
    assert rows(run_command("-M", "0", "-m", "map", q, r)[1]) == {("map", "all"): "0.0000"}
    plain = run_command("-m", "map", "-m", "num_ret", q, r)
    assert run_command("-M", "9" * 30, "-m", "map", "-m", "num_ret", q, r) == plain
    assert rows(run_command("-l", "0", "-m", "num_rel", q, r)[1])[("num_rel", "all")] == "4"
    for option in (["-M", "-1"], ["-l", "-1"]):
        code, out, err = run_command(*option, q, r)
        assert (code, out) == (2, "") and err.count("\n") == 1


def test_empty_qrels_and_missing_zscores(tmp_path: Path) -> None:
    q, r = files(tmp_path, "", RUN)
    code, _, err = run_command(q, r)
    assert code == 2 and "empty" in err
    q, r = files(tmp_path, QRELS, RUN + "2 Q0 c 0 1 s\n")
    code, out, err = run_command("-Z", str(tmp_path / "absent"), q, r)
    assert (code, out) == (255, "") and "absent" in err


def test_version_9_ties_in_single_precision_and_knows_its_measures(tmp_path: Path) -> None:
    """−0.00070817524 (a, relevant) and −0.00070817525 (b) are one C float: 9.0.7 ranks b
    first (ids descending), recip_rank 1/2; 10.0 ranks a first, 1. 9.0.7 has no rbp; with -c
    its num_q counts the qrels topics."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 0\n2 0 c 1\n",
                 "1 Q0 a 0 -0.00070817524 s\n1 Q0 b 1 -0.00070817525 s\n")  # fmt: skip
    nine = rows(run_command("-q", "--trec-version", "9", "-m", "recip_rank", q, r)[1])
    ten = rows(run_command("-q", "-c", "-m", "recip_rank", q, r)[1])
    assert nine[("recip_rank", "1")] == "0.5000" and ten[("recip_rank", "1")] == "1.0000"
    assert rows(run_command("-c", "--trec-version", "9", "-m", "recip_rank", "-m", "num_q", q,
                            r)[1])[("num_q", "all")] == "2"  # fmt: skip
    code, _, err = run_command("--trec-version", "9", "-m", "rbp", q, r)
    assert code == 1 and "illegal measure 'rbp'" in err
    assert run_command("-m", "rbp", "-c", q, r)[0] == 0
