"""`focal trec_eval` and `focal eval --task articles` on the numpy path (`FOCAL_KERNEL=numpy`:
no compiled module, files read by pyarrow or line by line, pairs looked up by
`kernel/numpy_pairs.py`) print the same bytes as with the C part.

- trec_eval 10.0's quicktest (tests/evaluation/cli/test_trec_eval_quicktest.py's cases): each
  command's output equals the real program's file on the numpy path too;
- random qrels and runs (graded, negative grades, topics on one side only, a pair twice in the
  qrels or the run, plain files and files only pyarrow or the line reader take) with random
  options: exit code, output and errors equal both ways;
- the random files of tests/evaluation/measures/trec_eval/test_plain_files.py: the qrels' table
  and the prepared run equal both ways (or the same error).

The comparisons with the C part skip, saying so, when this install has no compiled module.
"""

from __future__ import annotations

import io
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.cli.eval.command import eval_command
from focal.evaluation.cli.trec_eval.command import main
from focal.evaluation.errors import FormatError
from focal.evaluation.measures.trec_eval import kernel
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from tests.evaluation.cli.test_trec_eval_quicktest import CASES, DATA
from tests.evaluation.measures.trec_eval.test_plain_files import FILES, QRELS_FILES, text_of

try:  # (the module as the install built it, whatever FOCAL_KERNEL says)
    from focal.evaluation.measures.trec_eval.kernel import _article_kernel as C_MODULE
except ImportError:
    C_MODULE = None
NO_C = "this install has no compiled module (_article_kernel): nothing to compare with"
NO_DATA = f"trec_eval 10.0's quicktest files are absent ({DATA})"


def both_ways(call: Callable[[], Any]) -> tuple[Any, Any]:
    """`call()` with the C part (`FOCAL_KERNEL=c`), then on the numpy path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOCAL_KERNEL", "c")
        assert kernel.compiled() is not None
        with_c = call()
        patch.setenv("FOCAL_KERNEL", "numpy")
        assert kernel.compiled() is None
        return with_c, call()


def trec_eval(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.skipif(not CASES, reason=NO_DATA)
@pytest.mark.parametrize(("arguments", "expected"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_quicktest_on_the_numpy_path(
    arguments: list[str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DATA)
    monkeypatch.setenv("FOCAL_KERNEL", "numpy")
    code, out, err = trec_eval(arguments)
    assert code == 0, err
    assert out.encode() == (DATA / expected).read_bytes()


@pytest.mark.skipif(not CASES, reason=NO_DATA)
@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@pytest.mark.parametrize(
    "options",
    [["-m", "all_trec", "-q"], ["-m", "all_trec", "-c", "--format", "json"],
     ["-m", "official", "-l", "2", "--trec-version", "9", "-q"]],
    ids=["all_trec", "json", "version-9"],
)  # fmt: skip
def test_eval_articles_prints_the_same_bytes_both_ways(
    options: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`focal eval --task articles` on the quicktest's qrels and two of its runs (one cut)."""
    monkeypatch.chdir(DATA)
    argv = ["--task", "articles", *options, "qrels.test", "results.test", "results.trunc"]

    def run() -> tuple[int, bytes, str]:
        result = CliRunner().invoke(eval_command, argv)
        return result.exit_code, result.stdout_bytes, result.stderr

    with_c, with_numpy = both_ways(run)
    assert with_c[0] == 0, with_c[2]
    assert with_numpy == with_c


DOCS = [f"d{i}" for i in range(12)] + ["D5", "d10a", "x", "doc-with-a-much-longer-id"]
TOPICS = ["1", "2", "10", "3b", "4"]
MEASURES = ["all_trec", "official", "ndcg.1=3,2=1", "P.1,2", "relstring.4", "unj.1,3",
            "Rprec_mult.0.5,1.5", "bpref", "num_nonrel_judged_ret"]  # fmt: skip


def random_files(rng: random.Random) -> tuple[str, str, list[str]]:
    """Qrels, a run and options: grades -1 to 3 (topics with only negative ones), topics on
    one side only, sometimes a pair twice on either side, sometimes separators only the
    careful readers take; scores from few values (ties)."""
    qrels, run = [], []
    for topic in rng.sample(TOPICS, rng.randint(1, len(TOPICS))):
        if rng.random() < 0.85:
            for doc in rng.sample(DOCS, rng.randint(1, 10)):
                qrels.append([topic, "0", doc, str(rng.choice([-1, 0, 0, 1, 1, 2, 3]))])
        if rng.random() < 0.85:
            for i, doc in enumerate(rng.sample(DOCS, rng.randint(1, 12))):
                score = rng.choice(["0", "0.5", "1", "1.5", "-1", "3e0", "2.25"])
                run.append([topic, "Q0", doc, str(i), score, "sys"])
    if qrels and rng.random() < 0.1:
        qrels.append(list(rng.choice(qrels)))  # judged twice: refused
    if run and rng.random() < 0.1:
        run.append(list(rng.choice(run)))  # retrieved twice: refused
    rng.shuffle(run)
    if rng.random() < 0.5:  # each topic's lines together, scores falling
        run.sort(key=lambda line: (line[0], -float(line[4])))
    separator = rng.choice([" "] * 6 + ["\t", "  "])
    options = [flag for flag in ("-q", "-c", "-J", "-n") if rng.random() < 0.35]
    options += ["-l", str(rng.choice([1, 2, 3]))] if rng.random() < 0.3 else []
    options += ["-M", str(rng.randint(1, 6))] if rng.random() < 0.3 else []
    options += ["--trec-version", "9"] if rng.random() < 0.2 else []
    for measure in rng.sample(MEASURES, rng.randint(1, 3)):
        options += ["-m", measure]
    text = "".join(separator.join(line) + "\n" for line in qrels)
    return text, "".join(" ".join(line) + "\n" for line in run), options


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_random_files_print_the_same_bytes_both_ways(rng: random.Random) -> None:
    qrels, run, options = random_files(rng)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "q").write_text(qrels)
        (Path(folder) / "r").write_text(run)
        argv = [*options, str(Path(folder) / "q"), str(Path(folder) / "r")]
        with_c, with_numpy = both_ways(lambda: trec_eval(argv))
    assert with_numpy == with_c, argv


# the qrels of test_plain_files.py's runs (topic "x" unknown), built again each way
JUDGED = {"1": {b"a": 1, b"b": 0}, "2": {b"a": 2, b"c": -1}, "10": {b"c": 1}}


def prepared(path: Path) -> tuple[Any, ...]:
    """A run file prepared for `JUDGED` (`GradeTable.prepare_file`), as comparable values
    (scores bit for bit, each row's grade), or the error it raises."""
    qrels = GradeTable.from_mapping(JUDGED)
    try:
        run = qrels.prepare_file(str(path))
    except FormatError as error:
        return ("error", str(error))
    grades = qrels.grades_of(run.codes, run.docs)
    return (run.run_id, run.codes.tolist(), run.unknown, run.docs.to_pylist(),
            run.score.view(np.int64).tolist(), run.warnings,
            None if grades is None else grades.tolist())  # fmt: skip


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@settings(max_examples=150, deadline=None)
@given(FILES, st.booleans())
def test_random_runs_are_prepared_alike_both_ways(drawn: tuple, last_newline: bool) -> None:
    """test_plain_files.py's random runs (plain ones the C reader takes, and others)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run"
        path.write_text(text_of(drawn[1], last_newline), encoding="utf-8")
        with_c, with_numpy = both_ways(lambda: prepared(path))
    assert with_numpy == with_c


def table(path: Path) -> tuple[Any, ...]:
    """`GradeTable.from_trec_file` as comparable values, or the error it raises."""
    try:
        read = GradeTable.from_trec_file(str(path))
    except FormatError as error:
        return ("error", str(error))
    return (read.topics, read.codes.tolist(), read.pairs.docs.to_pylist(),
            read.raw_grades.tolist(), read.pairs.duplicate)  # fmt: skip


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@settings(max_examples=150, deadline=None)
@given(QRELS_FILES, st.booleans())
def test_random_qrels_give_the_same_table_both_ways(lines: list, last_newline: bool) -> None:
    """test_plain_files.py's random qrels (a document judged twice, bad lines included)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "qrels"
        text = "".join(sep.join(fields) + end for *fields, sep, end in lines)
        path.write_text(text if last_newline else text.rstrip("\n"), encoding="utf-8")
        with_c, with_numpy = both_ways(lambda: table(path))
    assert with_numpy == with_c
