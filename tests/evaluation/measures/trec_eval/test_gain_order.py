"""The numpy engine where it used to part from trec_eval and from the C pass.

- the gain table's order (`gain_table.sort_levels`): explicit, so the same on every Python
  version and the C pass's (`kernel/_kernel_gain_table.c`), also where trec_eval's comparison
  (the integer part of the gains' difference) is no order, where it is the order of 10.0 built
  on glibc (a merge sort); integral gains sort as any stable sort by gain;
- a gain named for a grade beyond int64 (`ndcg.99999999999999999999=3`) matches no document;
- G's NaN (`G.-1=5`: a log2 of a negative number), and gains that C's cast leaves undefined
  (`inf`, `nan`): printed, never a traceback, the same both ways;
- 9.0.7 with `-c` on qrels that judge a document twice in a topic the run lacks: the topic
  counts (num_q, and each line in num_rel), as in 9.0.7 (docs/trec_eval.md).

Outputs are compared with the C pass (`FOCAL_KERNEL=c`; skipped without a compiled module) and
with the C trec_eval programs when TREC_EVAL / TREC_EVAL_9 name them.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest

from focal.evaluation.measures.trec_eval.families.gain_table import Gain, gains, sort_levels
from tests.evaluation.measures.trec_eval.test_numpy_path import C_MODULE, NO_C, both_ways, trec_eval

PROGRAMS = {10: os.environ.get("TREC_EVAL", ""), 9: os.environ.get("TREC_EVAL_9", "")}


def _program(version: int) -> str:
    if not os.access(PROGRAMS[version], os.X_OK):
        pytest.skip(f"{'TREC_EVAL' if version == 10 else 'TREC_EVAL_9'} (the C program) not set")
    return PROGRAMS[version]


def test_levels_closer_than_one_take_the_merge_order() -> None:
    """Hand-worked: halves (1, 0) and (0.5, 0); 0 is below 1, 0 is not below 0.5; merged, 0.5
    is below neither 0 nor 1: 0, 1, 0.5, 0 (a stable sort by gain would give 0, 0, 0.5, 1;
    CPython 3.11's list.sort 0, 0, 1, 0.5)."""
    a, b, c, d = (Gain(i, gain, 1) for i, gain in enumerate([1.0, 0.0, 0.5, 0.0]))
    assert sort_levels([a, b, c, d]) == [b, a, c, d]


def test_integral_gains_sort_as_a_stable_sort_by_gain() -> None:
    rng = random.Random(50)
    for _ in range(500):
        table = [Gain(i, float(rng.randint(-3, 5)), 1) for i in range(rng.randint(0, 80))]
        assert sort_levels(table) == sorted(table, key=lambda level: level.gain)


def test_gains_that_cast_to_no_int_give_an_order() -> None:
    """C's cast of an infinite or NaN difference is undefined; here a level is below another
    when their difference is at most -1: 0 and 3 are below inf, nothing is below a NaN nor a
    NaN below anything. Halves (inf, nan) and (0, 3), merged: 0, 3, inf, nan."""
    levels = gains([("1", float("inf")), ("2", float("nan"))], np.array([3, 1, 1, 2]))
    assert [level.grade for level in levels] == [0, 3, 1, 2]


def test_a_grade_beyond_int64_is_a_level_of_no_document() -> None:
    levels = gains([("99999999999999999999", 3.0)], np.array([1, 1]))
    assert [(level.grade, level.gain) for level in levels] == [
        (0, 0.0), (1, 1.0), (99999999999999999999, 3.0)]  # fmt: skip


QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n2 0 y 0\n"
RUN = "1 Q0 a 1 1 s\n1 Q0 b 2 0.5 s\n1 Q0 z 3 0.2 s\n2 Q0 y 1 1 s\n2 Q0 x 2 0.5 s\n2 Q0 w 3 0.1 s\n"
GAINS = ["ndcg.99999999999999999999=3", "ndcg.-99999999999999999999=3,1=2",
         "G.99999999999999999999=3", "G.-1=5", "G.-1=5,1=0.5", "ndcg_rel.-1=4",
         "G.1=0.5,2=1.7,0=0.9", "Rndcg.0=0.5,1=1.2,2=0.3"]  # fmt: skip
UNDEFINED = ["G.1=inf", "G.1=nan", "ndcg.2=1e308,1=-1e308"]


def _files(folder: Path, qrels: str, run: str) -> list[str]:
    (folder / "q").write_text(qrels)
    (folder / "r").write_text(run)
    return [str(folder / "q"), str(folder / "r")]


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@pytest.mark.parametrize("measure", GAINS + UNDEFINED)
def test_gains_print_the_same_bytes_both_ways(measure: str, tmp_path: Path) -> None:
    argv = ["-q", "-m", measure, *_files(tmp_path, QRELS, RUN)]
    with_c, with_numpy = both_ways(lambda: trec_eval(argv))
    assert with_c[0] == 0, with_c[2]
    assert with_numpy == with_c


@pytest.mark.parametrize("measure", GAINS)
def test_gains_print_trec_eval_10s_bytes(
    measure: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path, QRELS, RUN)
    expected = subprocess.run([_program(10), "-q", "-m", measure, *files],
                              capture_output=True, check=True).stdout  # fmt: skip
    monkeypatch.setenv("FOCAL_KERNEL", "numpy")
    code, out, err = trec_eval(["-q", "-m", measure, *files])
    assert code == 0, err
    assert out.encode() == expected


def _inconsistent(rng: random.Random, files: list[str]) -> list[str]:
    """Random gains within 1 of each other and 1 or more apart, for three gain families."""
    pairs = ",".join(f"{grade}={rng.choice([rng.randint(0, 4), rng.uniform(-1, 4)]):.2f}"
                     for grade in rng.sample(range(-1, 5), rng.randint(2, 6)))  # fmt: skip
    return ["-q", "-m", f"G.{pairs}", "-m", f"ndcg.{pairs}", "-m", f"Rndcg.{pairs}", *files]


GRADED = QRELS.replace("x 1", "x 3").replace("y 0", "y 4") + "1 0 d 3\n1 0 e 4\n"


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
def test_inconsistent_gain_tables_print_the_same_bytes_both_ways(tmp_path: Path) -> None:
    rng, files = random.Random(2026), _files(tmp_path, GRADED, RUN)
    for _ in range(25):
        argv = _inconsistent(rng, files)
        with_c, with_numpy = both_ways(lambda argv=argv: trec_eval(argv))
        assert with_c[0] == 0, with_c[2]
        assert with_numpy == with_c, argv


def test_inconsistent_gain_tables_print_trec_eval_10s_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where C leaves qsort's order undefined, 10.0 built on glibc merges (`sort_levels`)."""
    program, rng, files = _program(10), random.Random(1950), _files(tmp_path, GRADED, RUN)
    monkeypatch.setenv("FOCAL_KERNEL", "numpy")
    for _ in range(40):
        argv = _inconsistent(rng, files)
        expected = subprocess.run([program, *argv], capture_output=True, check=True).stdout
        code, out, err = trec_eval(argv)
        assert code == 0, err
        assert out.encode() == expected, argv


# topic 3b judges d4 twice and is not in the run: 9.0.7 never evaluates it, yet counts it
REPEATED = "4 0 d1 1\n1 0 d10 2\n1 0 d10a 1\n3b 0 d2 1\n3b 0 d4 1\n3b 0 x -1\n3b 0 d4 1\n"
RUN_9 = "4 Q0 d6 1 3 sys\n1 Q0 d8 2 3 sys\n1 Q0 d10a 1 0 sys\n1 Q0 d10 3 2 sys\n"
OPTIONS_9 = ["--trec-version", "9", "-c", "-m", "all_trec"]


def test_version_9_counts_a_topic_it_never_evaluates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """num_q counts the qrels' three topics, num_rel each line above 0: 1 + 2 + 3 (d4's two
    lines in 3b both count)."""
    monkeypatch.setenv("FOCAL_KERNEL", "numpy")
    code, out, err = trec_eval([*OPTIONS_9, *_files(tmp_path, REPEATED, RUN_9)])
    assert code == 0, err
    rows = {line.split("\t")[0].strip(): line.split("\t")[2] for line in out.splitlines()}
    assert (rows["num_q"], rows["num_rel"]) == ("3", "6")


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
def test_version_9_repeated_pairs_print_the_same_bytes_both_ways(tmp_path: Path) -> None:
    argv = [*OPTIONS_9, *_files(tmp_path, REPEATED, RUN_9)]
    with_c, with_numpy = both_ways(lambda: trec_eval(argv))
    assert with_c[0] == 0, with_c[2]
    assert with_numpy == with_c


@pytest.mark.parametrize("kernel", ["numpy", "c"])
def test_version_9_repeated_pairs_print_trec_eval_9s_bytes(
    kernel: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path, REPEATED, RUN_9)
    for options in (["-c"], ["-c", "-q"], ["-c", "-J"]):
        argv = [*options, "-m", "all_trec", *files]
        expected = subprocess.run([_program(9), *argv], capture_output=True, check=True).stdout
        if kernel == "c" and C_MODULE is None:
            pytest.skip(NO_C)
        monkeypatch.setenv("FOCAL_KERNEL", kernel)
        code, out, err = trec_eval(["--trec-version", "9", *argv])
        assert code == 0, err
        assert out.encode() == expected, options
