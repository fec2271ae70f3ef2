"""Hostile cases for `focal trec_eval` against the C trec_eval 10.0 and 9.0.7: the kinds of
file and option real runs bring (ties, NaN, duplicates, comment and blank lines, run-only topics,
C's lenient numbers, options at their edges), each a qrels text, a run text and a command line.

`cases(seed)` gives the fixed hostile cases followed by random ones drawn from `seed`, so a fresh
seed gives a fresh set of the same kinds. Nothing here holds the C programs' output: the replay
test (`test_trec_eval_hostile.py`) runs them when `TREC_EVAL` (and `TREC_EVAL_9`) name them, and
docs/trec_eval.md says how to build them. Run as a script, it prints every case that differs:

    TREC_EVAL=/path/to/trec_eval .venv/bin/python tests/evaluation/cli/trec_eval_cases.py [SEED]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 0\n2 0 d 1\n3 0 e 1\n3 0 f 0\n"
RUN = "".join(
    f"{t} Q0 {d} {i} {s} sys\n"
    for t, docs in (("1", "abcx"), ("2", "adx"), ("3", "efy"))
    for i, (d, s) in enumerate(zip(docs, (3.0, 2.0, 2.0, 1.0), strict=False))
)


@dataclass(frozen=True)
class Case:
    """One command: its files' texts and its options (the files come last, as `q` and `r`)."""

    name: str
    qrels: str
    run: str
    options: list[str] = field(default_factory=list)
    version: int = 10  # 9: compared with 9.0.7 through `--trec-version 9`
    zscores: str | None = None  # a -Z file's text ("" names a missing file)
    refused: str = ""  # why Focal refuses what the C program does (exit 2, nothing on stdout)


def fixed() -> list[Case]:
    """The hand-picked hostile cases of each kind."""
    q3 = ["-q", "-m", "all_trec"]
    cases = [
        Case("plain", QRELS, RUN, q3),
        Case("exit 4 after rows", QRELS, RUN.replace("2 Q0", "9 Q0"), ["-q"]),
        Case("exit 4 after rows, -m map", QRELS, RUN.replace("3 Q0", "9 Q0"), ["-q", "-m", "map"]),
        Case("duplicate run doc in 2nd topic", QRELS, RUN + "2 Q0 a 9 0.5 sys\n", ["-q"]),
        Case("duplicate qrels doc in 3rd topic", QRELS + "3 0 e 0\n", RUN, ["-q"]),
        Case("duplicate doc in a topic qrels lack", QRELS, RUN + "7 Q0 z 1 1 s\n7 Q0 z 2 1 s\n"),
        Case("duplicate beyond -M", QRELS, RUN + "1 Q0 c 9 -5 sys\n", ["-M", "2", "-q"]),
        Case("score 1_000", QRELS, RUN.replace("1 Q0 x 3 1.0", "1 Q0 x 3 1_000"), q3),
        Case("hex and junk scores", QRELS,
             RUN.replace("1 Q0 x 3 1.0", "1 Q0 x 3 0x1p-3").replace("1 Q0 b 1 2.0",
                                                                    "1 Q0 b 1 0.1abc"), q3),
        Case("inf and nan words", QRELS, RUN.replace("2 Q0 d 1 2.0", "2 Q0 d 1 inf"), q3),
        Case("grade 1.7", QRELS.replace("1 0 b 0", "1 0 b 1.7"), RUN, q3),
        Case("grade junk", QRELS.replace("1 0 b 0", "1 0 b 2x"), RUN, q3),
        Case("qrels comment", "# judged by hand\n" + QRELS, RUN, q3),
        Case("qrels two comments", "# one\n# two\n" + QRELS, RUN, ["-q"]),
        Case("qrels indented comment", "  # one\n" + QRELS, RUN, ["-q"]),
        Case("qrels blank line", QRELS + "\n1 0 z 1\n", RUN, ["-q"]),
        Case("run comments and blanks", QRELS, "# c\n\n  # d\n" + RUN + "   \n", q3),
        Case("nan scores", QRELS, RUN.replace("1.0", "nan").replace("1 Q0 b 1 2.0",
                                                                   "1 Q0 b 1 NaN"), q3),
        Case("nan ties", QRELS, "".join(f"1 Q0 {d} 0 {s} s\n" for d, s in zip(
            "abcxyzw", ["nan", "1", "nan", "2", "nan", "1", "0"], strict=True)), q3),
        Case("-M 0", QRELS, RUN, ["-q", "-M", "0"]),
        Case("-l -1", QRELS, RUN, ["-q", "-l", "-1", "-m", "all_trec"],
             refused="10.0 mixes two readings of a level below 0 (map above 1)"),
        Case("-M -1", QRELS, RUN, ["-q", "-M", "-1"], refused="10.0 crashes (segfault)"),
        Case("-l 0", QRELS, RUN, ["-q", "-l", "0"]),
        Case("empty qrels", "", RUN, []),
        Case("empty run", QRELS, "", []),
        Case("missing -Z file", QRELS, RUN, ["-q"], zscores=""),
        Case("-Z", QRELS, RUN, ["-q", "-m", "map"],
             zscores="1 map 0.5 0.1\n2 map 0.1 0.2\n3 map 0.2 0.1\n"),
        Case("huge -M", QRELS, RUN, ["-M", "9" * 30]),
        Case("huge -M, -q", QRELS, RUN, ["-q", "-M", "99999999999"]),
        Case("-M 1", QRELS, RUN, ["-q", "-M", "1", "-m", "all_trec"]),
        Case("-c with a missing topic", QRELS + "5 0 q 1\n", RUN, ["-c", "-q", "-m", "all_trec"]),
        Case("run-only topics", QRELS, RUN + "8 Q0 a 1 1 sys\n", ["-q"]),
        Case("tabs and extra fields", QRELS.replace(" ", "\t"),
             RUN.replace(" sys", " sys extra words"), ["-q"]),
        Case("set_map", "1 0 a 1\n1 0 b 1\n1 0 c 1\n" + "".join(
            f"1 0 r{i} 1\n" for i in range(37)), "".join(
            f"1 Q0 {'abc'[i % 3] if i < 3 else f'r{i}' if i < 11 else f'n{i}'} 0 {-i} s\n"
            for i in range(100)), ["-q", "-m", "set"]),
        # --trec-version 9 against 9.0.7
        Case("v9 plain", QRELS, RUN, q3, version=9),
        Case("v9 float ties", "1 0 a 1\n1 0 b 0\n", "1 Q0 a 0 -0.00070817524 s\n"
             "1 Q0 b 1 -0.00070817525 s\n", ["-q"], version=9),
        Case("v9 -c num_q", QRELS + "5 0 q 1\n", RUN, ["-c", "-q"], version=9),
        Case("v9 run comment", QRELS, "# c\n" + RUN, ["-q"], version=9),
        Case("v9 qrels comment", "# c\n" + QRELS, RUN, ["-q"], version=9),
        Case("v9 rbp", QRELS, RUN, ["-m", "rbp"], version=9),
        Case("v9 unj", QRELS, RUN, ["-m", "unj"], version=9),
        Case("v9 missing topic", QRELS, RUN.replace("2 Q0", "9 Q0"), ["-q"], version=9),
    ]  # fmt: skip
    return cases


def drawn(rng: random.Random, count: int) -> list[Case]:
    """Random cases of the same kinds: ties and NaN, lenient numbers, comments, duplicates."""
    scores = ["1", "2", "2.0", "0.5", "-1", "nan", "1e0", "0x1p1", "3abc", "1_5", "inf", "-0"]
    grades = ["0", "1", "2", "-1", "1.7", "3x", "0"]
    result = []
    for number in range(count):
        qrels, run = [], []
        for topic in rng.sample(["1", "2", "10", "3b"], rng.randint(1, 3)):
            for doc in rng.sample("abcdefgh", rng.randint(1, 6)):
                qrels.append(f"{topic} 0 {doc} {rng.choice(grades)}\n")
            for i, doc in enumerate(rng.sample("abcdefghij", rng.randint(1, 8))):
                run.append(f"{topic} Q0 {doc} {i} {rng.choice(scores)} s{number}\n")
        rng.shuffle(run)
        if rng.random() < 0.2:
            run.insert(rng.randrange(len(run) + 1), "# a comment\n")
        if rng.random() < 0.1:
            run.append(rng.choice(run))
        options = [flag for flag in ("-q", "-c", "-J", "-n") if rng.random() < 0.3]
        options += ["-M", rng.choice(["0", "1", "3", "9" * 25])] if rng.random() < 0.3 else []
        options += ["-l", rng.choice(["0", "2", "3"])] if rng.random() < 0.3 else []
        options += ["-m", rng.choice(["all_trec", "official", "set", "P.1,2", "ndcg_cut.3"])]
        version = 9 if rng.random() < 0.3 else 10
        if version == 9:
            run = [line for line in run if not line.startswith("#")]
            options = [o if o != "all_trec" else "official" for o in options]
        result.append(Case(f"drawn {number}", "".join(qrels), "".join(run), options, version))
    return result


def cases(seed: int = 0, count: int = 60) -> list[Case]:
    """The fixed cases and `count` drawn from `seed`."""
    return fixed() + drawn(random.Random(seed), count)


def difference(case: Case, program: str) -> str | None:
    """How `focal trec_eval` differs from `program` on `case` (stdout bytes, exit code, whether
    stderr is empty), or None when it does not."""
    import io
    import subprocess
    import tempfile
    from pathlib import Path

    from focal.evaluation.cli.trec_eval.command import main

    if case.refused:
        return None if _refused(case) else f"not refused ({case.refused})"
    with tempfile.TemporaryDirectory() as folder:
        q, r, z = Path(folder) / "q", Path(folder) / "r", Path(folder) / "z"
        q.write_text(case.qrels)
        r.write_text(case.run)
        options = list(case.options)
        if case.zscores is not None:
            if case.zscores:
                z.write_text(case.zscores)
            options += ["-Z", str(z)]
        argv = [*options, str(q), str(r)]
        theirs = subprocess.run([program, *argv], capture_output=True, check=False, timeout=60)
        out, err = io.StringIO(), io.StringIO()
        version = ["--trec-version", "9"] if case.version == 9 else []
        code = main([*version, *argv], out, err)
    if code != theirs.returncode:
        return f"exit {code} (C: {theirs.returncode}); {err.getvalue()!r} C: {theirs.stderr!r}"
    if out.getvalue().encode() != theirs.stdout:
        return f"stdout differs:\n{out.getvalue()}--- C:\n{theirs.stdout.decode()}"
    if bool(err.getvalue()) != bool(theirs.stderr):
        return f"stderr {err.getvalue()!r}, C: {theirs.stderr!r}"
    return None


def _refused(case: Case) -> bool:
    """Whether `focal trec_eval` refuses the case: exit 2, one line on stderr, empty stdout."""
    import io
    import tempfile
    from pathlib import Path

    from focal.evaluation.cli.trec_eval.command import main

    with tempfile.TemporaryDirectory() as folder:
        q, r = Path(folder) / "q", Path(folder) / "r"
        q.write_text(case.qrels)
        r.write_text(case.run)
        out, err = io.StringIO(), io.StringIO()
        code = main([*case.options, str(q), str(r)], out, err)
    return code == 2 and not out.getvalue() and err.getvalue().count("\n") == 1


if __name__ == "__main__":  # pragma: no cover (a tool for people)
    import os
    import sys

    programs = {10: os.environ["TREC_EVAL"], 9: os.environ.get("TREC_EVAL_9", "")}
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    for one in cases(seed):
        if programs[one.version]:
            why = difference(one, programs[one.version])
            if why:
                print(f"== {one.name} {one.options}: {why}")
