"""`focal trec_eval`'s compiled path (`cli/trec_eval/compiled.py`, over the C part's whole-file
pass) against its numpy path (`FOCAL_KERNEL=numpy`): the same stdout bytes, exit code and
stderr on random plain files, with every switch the pass takes; and, in a fresh interpreter, that
`focal trec_eval` on plain files imports neither numpy nor pyarrow nor click.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval.command import main
from focal.evaluation.measures.trec_eval import kernel
from focal.evaluation.measures.trec_eval.numpy_pass import chosen

from ..fresh_trec_eval import fresh_trec_eval

MEASURES = [
    "official", "all_trec", "P.5,10", "ndcg_cut.3,10", "map", "set", "bpref", "recip_rank",
    "iprec_at_recall", "num_q", "success.1,5", "gm_map", "Rprec", "infAP", "utility.1,-1,0,0",
    "map_cut.5", "ndcg", "relstring",
]  # fmt: skip
TOPICS = ["1", "2", "10", "301", "3b", "42"]


def draw(rng: random.Random) -> tuple[str, str, list[str]]:
    """Plain qrels and run (grouped by topic or not), and a command line."""
    qrels: list[str] = []
    run: list[str] = []
    topics = rng.sample(TOPICS, rng.randint(1, len(TOPICS)))
    for topic in topics:
        judged = rng.sample(range(40), rng.randint(1, 15))
        negative_only = rng.random() < 0.1
        for doc in judged:
            grade = -1 if negative_only else rng.choice([-1, 0, 0, 1, 1, 2, 3])
            qrels.append(f"{topic} 0 d{doc:03d} {grade}\n")
        if rng.random() < 0.15:  # a qrels topic the run misses
            continue
        for rank, doc in enumerate(rng.sample(range(40), rng.randint(1, 30))):
            score = rng.choice([round(rng.uniform(-2, 5), 1), 1.0, 2.5])
            run.append(f"{topic} Q0 d{doc:03d} {rank} {score} run{len(topics)}\n")
    if rng.random() < 0.2 or not run:  # a topic the qrels lack
        run += [f"999 Q0 d{d:03d} {d} {d / 7} other\n" for d in range(3)]
    if rng.random() < 0.08:
        run.append(rng.choice(run))  # a document twice
    if rng.random() < 0.08:
        qrels.append(rng.choice(qrels))  # judged twice
    if rng.random() < 0.4:
        rng.shuffle(run)  # not grouped: the whole files are one block
    if rng.random() < 0.3:
        rng.shuffle(qrels)
    options = [flag for flag in ("-q", "-c", "-J", "-n") if rng.random() < 0.35]
    if rng.random() < 0.3:
        options += ["-M", str(rng.choice([0, 1, 5, 20]))]
    if rng.random() < 0.3:
        options += ["-l", str(rng.choice([0, 2, 3]))]
    if rng.random() < 0.2:
        options += ["-N", str(rng.choice([0, 100]))]
    for _ in range(rng.randint(1, 2)):
        options += ["-m", rng.choice(MEASURES)]
    if rng.random() < 0.35:
        options = ["--trec-version", "9", *options]
    return "".join(qrels), "".join(run), options


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_compiled_path_prints_what_the_numpy_path_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """120 drawn cases: same stdout, exit code and stderr with and without the C part; the
    pass answers for most of them (all but relstring with -q, and version 9's refusals)."""
    if kernel.compiled() is None:
        pytest.skip("the C part is not built (no compiler at install): no compiled path")
    answered: list[bool] = []
    original = chosen.open_plain_pass

    def spying(*args, **kwargs):  # type: ignore[no-untyped-def]
        opened = original(*args, **kwargs)
        answered.append(opened is not None)
        return opened

    monkeypatch.setattr(chosen, "open_plain_pass", spying)
    rng = random.Random(2026)
    differences = []
    taken = 0
    for number in range(120):
        qrels, run, options = draw(rng)
        (tmp_path / "q").write_text(qrels)
        (tmp_path / "r").write_text(run)
        argv = [*options, str(tmp_path / "q"), str(tmp_path / "r")]
        answered.clear()
        monkeypatch.delenv("FOCAL_KERNEL", raising=False)
        fast = call(argv)
        taken += answered == [True]
        monkeypatch.setenv("FOCAL_KERNEL", "numpy")
        slow = call(argv)
        if fast != slow:
            differences.append(f"case {number} {argv[:-2]}:\n{fast}\n--- numpy:\n{slow}")
    assert not differences, "\n\n".join(differences[:3])
    assert taken >= 60, f"the pass answered {taken} of 120 cases"


@pytest.mark.parametrize("options", [[], ["-q", "-c", "-m", "official", "-m", "ndcg_cut.5"]])
def test_focal_trec_eval_on_plain_files_imports_no_numpy_pyarrow_or_click(
    tmp_path: Path, options: list[str]
) -> None:
    """A fresh `focal trec_eval` (the console script's `launch`) on plain files with the C part:
    none of numpy, pyarrow, click loaded; with FOCAL_KERNEL=numpy the same bytes, numpy loaded."""
    if kernel.compiled() is None:
        pytest.skip("the C part is not built (no compiler at install): no compiled path")
    rng = random.Random(7)
    qrels = "".join(f"{t} 0 d{d} {rng.choice([0, 1, 2])}\n" for t in (1, 2, 3) for d in range(9))
    run = "".join(
        f"{t} Q0 d{d} {d} {rng.random():.3f} r\n" for t in (1, 2, 3, 4) for d in range(12)
    )
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    argv = [*options, str(tmp_path / "q"), str(tmp_path / "r")]
    fast, slow = fresh_trec_eval(argv, "c"), fresh_trec_eval(argv, "numpy")
    assert fast.returncode == slow.returncode == 0, fast.stderr + slow.stderr
    assert fast.stdout == slow.stdout
    assert "\nmap" in "\n" + fast.stdout and ("ndcg_cut_5" in fast.stdout) == bool(options)
    assert fast.stderr.splitlines()[-1] == "LOADED "
    assert "numpy" in slow.stderr.splitlines()[-1].split()


def test_focal_trec_eval_checks_the_settings_as_every_command(tmp_path: Path) -> None:
    """`focal trec_eval` skips the click group, not the settings check: a bad FOCAL_ value is
    the same one line and exit code 2 as for a command of the group (`focal measures`), and a
    misspelled name the same warning."""
    focal = Path(sys.executable).with_name("focal")
    (tmp_path / "q").write_text("1 0 a 1\n")
    (tmp_path / "r").write_text("1 Q0 a 0 1.5 r\n")
    files = [str(tmp_path / "q"), str(tmp_path / "r")]
    for setting, code in (("FOCAL_KERNEL", 2), ("FOCAL_KERNL", 0)):
        environment = {"PATH": "/usr/bin:/bin", setting: "bogus"}
        ours = _run([str(focal), "trec_eval", "-m", "map", *files], environment)
        theirs = _run([str(focal), "measures"], environment)
        assert ours.returncode == theirs.returncode == code, ours.stderr
        assert ours.stderr == theirs.stderr and len(ours.stderr.splitlines()) == 1
        assert setting in ours.stderr and ours.stderr.startswith("focal: ")
        assert ours.stdout == ("map                   \tall\t1.0000\n" if code == 0 else "")


@pytest.mark.parametrize("kernel_choice", ["auto", "numpy"])
def test_a_full_disk_is_one_line_and_exit_2(tmp_path: Path, kernel_choice: str) -> None:
    """The console script ends its process at once after the output (`run_process`): a write
    that fails there (stdout on /dev/full) is one line naming it and exit code 2, no
    traceback, on both paths; the same call to a file prints trec_eval's rows, all of them."""
    if not Path("/dev/full").exists():
        pytest.skip("this system has no /dev/full to stand for a full disk")
    focal = Path(sys.executable).with_name("focal")
    (tmp_path / "q").write_text("".join(f"{t} 0 d{d} {d % 3}\n" for t in (1, 2) for d in range(9)))
    (tmp_path / "r").write_text("".join(f"{t} Q0 d{d} {d} {9 - d} r\n" for t in (1, 2)
                                        for d in range(9)))  # fmt: skip
    command = [str(focal), "trec_eval", "-q", str(tmp_path / "q"), str(tmp_path / "r")]
    environment = {"PATH": "/usr/bin:/bin", "FOCAL_KERNEL": kernel_choice}
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True,
                              check=False, env=environment, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr == "trec_eval: cannot write the results: No space left on device\n"
    written = _run(command, environment)
    assert written.returncode == 0 and written.stdout.count("\tall\t") >= 20, written.stderr
    assert written.stdout.splitlines()[-1].startswith("P_1000 ")  # (the last row of the set)


def _run(command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False, env=environment,
                          timeout=120)  # fmt: skip
