"""`focal trec_eval -m rbp.<grade>=<gain>` on gain tables at the edges of m_rbp.c's rescaling,
on both of Focal's paths (the C part and `FOCAL_KERNEL=numpy`), against the C trec_eval 10.0
(`TREC_EVAL`, built from its public source; without it those comparisons skip, saying so).

10.0 rescales the gains to [0, 1] when any lies outside, with a min and a max it never
initialises; asked alone, its built program behaves as if both start at 0, and Focal does the
same (docs/trec_eval.md, "Where 10.0's behaviour is not defined"). rbp is asked alone here:
after some other measures 10.0 reads what their stack frames left. The cases are the tables
where that reading matters: a single level outside [0, 1] (where the least and greatest gain are
equal), all gains equal, negative gains, gains only on grades no document has, a least gain
above 0, `-l` above every grade, and topics that need no rescaling after one that does.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval.command import main
from focal.evaluation.measures.trec_eval import kernel

PROGRAM = os.environ.get("TREC_EVAL", "")
ZEROS = ("1 0 d1 0\n1 0 d2 0\n", "1 Q0 d1 1 2.0 r\n1 Q0 d3 2 1.0 r\n")
GRADED = (
    "1 0 d1 0\n1 0 d2 1\n1 0 d4 2\n2 0 e1 3\n2 0 e2 0\n3 0 f1 0\n3 0 f2 1\n4 0 g1 -1\n",
    "1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n1 Q0 d3 3 1.0 r\n1 Q0 d4 4 0.5 r\n"
    "2 Q0 e1 1 2.0 r\n2 Q0 e2 2 1.0 r\n3 Q0 f2 1 2.0 r\n3 Q0 f1 2 1.0 r\n4 Q0 g1 1 1.0 r\n",
)
TABLES = [
    "rbp", "rbp.0=2", "rbp.0=3,p=0.5", "rbp.0=-2", "rbp.0=0.5", "rbp.0=2,1=4", "rbp.0=2,1=4,2=4",
    "rbp.1=5,2=5,0=5,3=5", "rbp.0=-1,1=-1,2=-1,3=-1", "rbp.0=1,1=1,2=1,3=1", "rbp.0=0,1=0,2=0",
    "rbp.0=-3,1=-2,2=-1", "rbp.5=7", "rbp.5=-7", "rbp.9=0.5", "rbp.1=-5", "rbp.2=5,p=0.8",
]  # fmt: skip
CASES = [
    (name, files, ["-q", *extra, "-m", table])
    for name, files in (("all grade 0", ZEROS), ("graded", GRADED))
    for table in TABLES
    for extra in ([], ["-l", "9"])
]


def focal(files: tuple[str, str], options: list[str], folder: Path) -> tuple[int, str, str]:
    (folder / "q").write_text(files[0])
    (folder / "r").write_text(files[1])
    out, err = io.StringIO(), io.StringIO()
    code = main([*options, str(folder / "q"), str(folder / "r")], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(params=["c", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which of Focal's paths answers: the C part (skipped when the install has none) or numpy."""
    monkeypatch.setenv("FOCAL_KERNEL", "auto" if request.param == "c" else "numpy")
    if request.param == "c" and kernel.compiled() is None:
        pytest.skip("the C part is not built (no compiler at install): no compiled path")
    monkeypatch.setenv("FOCAL_KERNEL", request.param)
    return str(request.param)


@pytest.mark.parametrize(
    ("name", "files", "options"), CASES, ids=[f"{c[0]} {' '.join(c[2])}" for c in CASES]
)
def test_same_bytes_as_trec_eval_10(
    path: str, name: str, files: tuple[str, str], options: list[str], tmp_path: Path
) -> None:
    if not os.access(PROGRAM, os.X_OK):
        pytest.skip("TREC_EVAL (the C trec_eval 10.0) not set to an executable")
    code, out, err = focal(files, options, tmp_path)
    theirs = subprocess.run([PROGRAM, *options, str(tmp_path / "q"), str(tmp_path / "r")],
                            capture_output=True, check=False, timeout=60)  # fmt: skip
    assert (code, err) == (theirs.returncode, ""), f"{path}: {err}"
    assert out.encode() == theirs.stdout, f"{path}:\n{out}--- C:\n{theirs.stdout.decode()}"


def test_single_level_above_1(path: str, tmp_path: Path) -> None:
    """The issue's case by hand: grade 0 gains 2, the table's only level; min and max starting
    at 0 make it 2/2 = 1, so d1 (judged 0, rank 1) gains 1 and d3 (unjudged) 0: rbp = 0.1 · 1."""
    code, out, err = focal(ZEROS, ["-m", "rbp.0=2"], tmp_path)
    assert (code, err) == (0, "")
    assert out.split() == ["rbp_0=2", "all", f"{(1 - 0.9) * 1.0:.4f}"]


def test_a_least_gain_above_0_is_not_the_floor(path: str, tmp_path: Path) -> None:
    """rbp.0=2,1=4 on topic 1 of GRADED: gains 2, 4, 2 for grades 0, 1, 2 over [0, 4] (not
    [2, 4]): d1 0.5, d2 1 (× 0.9), d3 unjudged, d4 0.5 (× 0.9³)."""
    code, out, err = focal(GRADED, ["-q", "-m", "rbp.0=2,1=4"], tmp_path)
    expected = (1 - 0.9) * (0.5 + 1.0 * 0.9 + 0.5 * 0.9**3)
    assert (code, err) == (0, "")
    assert out.splitlines()[0].split() == ["rbp_0=2,1=4", "1", f"{expected:.4f}"]
