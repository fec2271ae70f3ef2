"""`focal trec_eval` on qrels grades at the ends of C's `long` (docs/trec_eval.md, "Where
10.0's behaviour is not defined"): a grade above 2^31 - 1 is refused by file and line, exit 2,
whatever the engine (`FOCAL_KERNEL`); numpy's `bincount` of a grade that `atol` holds at
2^63 - 1 used to write past its array, so that the interpreter aborted at random on its way
out. Each command runs in its own process, several times, since the damage showed only at
exit and not on every run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = "import sys; from focal.assessor.cli.main import main; sys.exit(main())"
RUN = "1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n2 Q0 d3 1 2.0 r\n2 Q0 d4 2 1.0 r\n3 Q0 d5 1 1 r\n"
TIMES = 3  # the abort came about every other run
TOO_LARGE = [2**31, 2**32, 2**62, 2**63 - 1, 2**63, 10**30]
OPTIONS = [[], ["-m", "all_trec", "-q"], ["-q", "-l", "2"]]


def qrels(first: str) -> str:
    """Three topics; topic 2's first document has the grade `first` (its text)."""
    return f"1 0 d1 1\n1 0 d2 0\n2 0 d3 {first}\n2 0 d4 1\n3 0 d5 2\n"


def focal_trec_eval(kernel: str, *argv: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "FOCAL_KERNEL": kernel}
    command = [sys.executable, "-c", COMMAND, "trec_eval", *argv]
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)


@pytest.mark.parametrize("kernel", ["numpy", "auto"])
@pytest.mark.parametrize("grade", TOO_LARGE, ids=[f"grade {g}" for g in TOO_LARGE])
def test_a_grade_above_the_largest_is_refused_by_line(
    tmp_path: Path, kernel: str, grade: int
) -> None:
    (tmp_path / "q").write_text(qrels(str(grade)))
    (tmp_path / "r").write_text(RUN)
    expected = f"trec_eval: {tmp_path / 'q'}:3: expected a grade of at most 2147483647, found"
    for options in OPTIONS:
        for _ in range(TIMES):
            done = focal_trec_eval(kernel, *options, str(tmp_path / "q"), str(tmp_path / "r"))
            assert done.returncode == 2, (options, done.returncode, done.stderr)
            assert done.stdout == ""
            assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("kernel", ["numpy", "auto"])
def test_grades_at_the_ends_that_are_taken(tmp_path: Path, kernel: str) -> None:
    """A negative grade of any size (-2^63, or below, which `atol` holds at -2^63) is unjudged,
    as -1 is; 2^31 - 1, the largest grade taken, is relevant as any grade above the level is
    (measures that read only relevance: the same values as with a grade of 2)."""
    run = tmp_path / "r"
    run.write_text(RUN)
    pairs = [("-1", "-9223372036854775808"), ("-1", "-99999999999999999999"),
             ("2", "2147483647")]  # fmt: skip
    measures = ["-m", "map", "-m", "P.5", "-m", "num_rel", "-m", "num_rel_ret", "-m", "bpref"]
    for plain, edge in pairs:
        (tmp_path / "plain").write_text(qrels(plain))
        (tmp_path / "edge").write_text(qrels(edge))
        for options in (["-q", *measures], ["-q", "-l", "2", *measures]):
            expected = focal_trec_eval(kernel, *options, str(tmp_path / "plain"), str(run))
            assert expected.returncode == 0 and expected.stdout, expected.stderr
            # (2^31 - 1: counts of 2^31 grades, mapped but untouched, seconds a run: once)
            for _ in range(1 if edge == "2147483647" else TIMES):
                done = focal_trec_eval(kernel, *options, str(tmp_path / "edge"), str(run))
                assert (done.returncode, done.stderr) == (0, ""), (edge, options, done.stderr)
                assert done.stdout == expected.stdout, (edge, options)
