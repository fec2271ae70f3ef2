"""The C readers (`parse_qrels`, `parse_run`) fuzzed: plain files (test_plain_files.py's
lines), then bytes flipped, inserted and deleted, tabs, `#`, carriage returns, NUL, non-ASCII
bytes, huge numbers and long lines put anywhere. Each file is read by the C reader and by the
Python readers (pyarrow's or the line reader): whenever the C reader takes a file, its columns
are the others' (scores to the bit); it takes exactly the files of the plain grammar
(docs/trec_eval.md, "Reading"), whole or cut into two blocks anywhere. The portable build
(plain C bit scans, byte-wise words, no SSE2) answers as the installed one does.

`FOCAL_FUZZ_EXAMPLES` sets the number of examples (`make sanitize` runs more, on the sanitized
build)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.trec import DuplicateDocument, parse_trec_run, read_trec_qrels

from .kernel_build import SANITIZERS, build, compiler, kernel_or_skip, load, tables
from .test_plain_files import PLAIN_LINE, QRELS, QRELS_LINE, text_of

KERNEL = kernel_or_skip()

EXAMPLES = int(os.environ.get("FOCAL_FUZZ_EXAMPLES", "150"))
SLOW_OR_LARGE = [HealthCheck.too_slow, HealthCheck.data_too_large]
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW_OR_LARGE)
TOPICS = [name.encode() for name in QRELS.topics]  # the qrels' topic ids, in byte order
FIELD = rb"[\x21\x22\x24-\x7e]+"  # printable ASCII but '#'
SCORE = rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
RUN_LINE = re.compile(rb"(%s) %s (%s) %s (%s) (%s)" % (FIELD, FIELD, FIELD, FIELD, SCORE, FIELD))
QRELS_FORM = re.compile(rb"(%s) %s (%s) (-?[0-9]{1,18})" % (FIELD, FIELD, FIELD))

PAYLOADS = st.one_of(
    st.sampled_from([b"\t", b"#", b"\r", b"\r\n", b"\x00", b" ", b"\n", b"\n\n", "é".encode(),
                     b"\xff", b"\x7f", b"\x0b", b"-", b".", b"e", b"E-", b"+", b"9" * 400,
                     b"1e999999", b"1e-999999", b"0." + b"0" * 30 + b"1", b"x" * 5000,
                     b"123456789012345678901234567890", b"1"]),
    st.binary(min_size=1, max_size=4),
)  # fmt: skip
MUTATIONS = st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "replace"]),
                               st.floats(0, 1, exclude_max=True), PAYLOADS, st.integers(0, 7)),
                     max_size=6)  # fmt: skip


def mutated(data: bytes, mutations: list[tuple[str, float, bytes, int]]) -> bytes:
    """`data` with each mutation applied in turn, at its fraction of the length: a bit
    flipped, the payload inserted or written over, or 1-8 bytes deleted."""
    for kind, where, payload, bit in mutations:
        at = int(where * (len(data) + 1))
        if kind == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1 :]
        elif kind == "insert":
            data = data[:at] + payload + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + 1 + bit :]
        elif kind == "replace":
            data = data[:at] + payload + data[at + len(payload) :]
    return data


def run_file(lines: list[tuple[Any, ...]], newline: bool, changes: list[Any]) -> bytes:
    return mutated(text_of(lines, newline).encode(), changes)


def qrels_file(lines: list[tuple[str, ...]], newline: bool, changes: list[Any]) -> bytes:
    text = "".join(sep.join(fields) + end for *fields, sep, end in lines)
    return mutated((text if newline else text.rstrip("\n")).encode(), changes)


RUNS = st.builds(run_file, st.lists(PLAIN_LINE, min_size=1, max_size=30), st.booleans(), MUTATIONS)
QRELS_FILES = st.builds(
    qrels_file, st.lists(QRELS_LINE, min_size=1, max_size=30), st.booleans(), MUTATIONS
)


def lines_of(data: bytes) -> list[bytes]:
    """The lines as the C readers count them: a last line without a newline is a line."""
    lines = data.split(b"\n")
    return lines[:-1] if data.endswith(b"\n") else lines


def plain_run(data: bytes) -> bool:
    """The grammar of plain runs, as docs/trec_eval.md states it."""
    found = [RUN_LINE.fullmatch(line) for line in lines_of(data)] if data else []
    return all(m is not None and m.group(1) in TOPICS for m in found)


def plain_qrels(data: bytes) -> bool:
    return bool(data) and all(QRELS_FORM.fullmatch(line) for line in lines_of(data))


TOPIC_TABLES = tables([(0, topic) for topic in TOPICS], 1)  # one table: rows are topic codes
KERNEL.index_pairs(**TOPIC_TABLES)


def read_run(module: ModuleType, data: bytes, cut: int | None = None) -> Any:
    """parse_run of the whole of `data`, or of its first `cut` bytes and then of the rest
    from where the first call stopped: (rows, codes, scores, docs, run id) or None."""
    blocks = [(len(data), True)] if cut is None else [(cut, False), (len(data), True)]
    used, rows, codes, scores, docs, run = 0, 0, b"", b"", [], None
    for end, final in blocks:
        answer = module.parse_run(data[used:end], final, TOPIC_TABLES["bases"],
                                  TOPIC_TABLES["slots"], TOPIC_TABLES["offsets"],
                                  TOPIC_TABLES["bytes"])  # fmt: skip
        if answer is None:
            return None
        consumed, count, more_codes, more_scores, ends, ids, last = answer
        ends = np.frombuffer(ends, np.int32)
        docs += [ids[ends[i] : ends[i + 1]] for i in range(count)]
        rows, codes, scores = rows + count, codes + more_codes, scores + more_scores
        run, used = last if count else run, used + consumed
    assert used == len(data)  # every line read
    return rows, np.frombuffer(codes, np.int32).tolist(), scores, docs, run


@FUZZ
@given(RUNS, st.floats(0, 1))
def test_runs_read_in_c_are_what_the_python_readers_read(data: bytes, where: float) -> None:
    whole = read_run(KERNEL, data)
    event("taken" if whole is not None else "declined")
    assert (whole is not None) == plain_run(data), data[:300]
    assert read_run(KERNEL, data, int(where * len(data))) == whole
    if whole is None:
        return  # the other readers decide, and name what is wrong
    rows, codes, scores, docs, run = whole
    try:
        expected = QRELS.prepare(parse_trec_run(data, "run", check_duplicates=False))
    except DuplicateDocument:  # found by the line reader; the C part finds it at look-up
        return
    assert expected.unknown == [] and rows == len(expected.codes)
    assert codes == expected.codes.tolist()
    assert docs == expected.docs.to_pylist()
    assert scores == expected.score.tobytes()  # to the bit
    assert (run or b"").decode() == (expected.run_id if rows else "")


@FUZZ
@given(QRELS_FILES)
def test_qrels_read_in_c_are_what_the_python_readers_read(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    answer = KERNEL.parse_qrels(data)
    event("taken" if answer is not None else "declined")
    assert (answer is not None) == plain_qrels(data), data[:300]
    if answer is None:
        return
    rows, codes, names, ends, docs, grades = answer
    assert names == sorted(set(names))  # byte order, each once
    path = tmp_path_factory.mktemp("qrels") / "qrels"
    path.write_bytes(data)
    try:
        expected = read_trec_qrels(str(path), check_duplicates=False)
    except DuplicateDocument:
        return
    offsets = np.frombuffer(ends, np.int32)
    assert [names[c] for c in np.frombuffer(codes, np.int32)] == _pylist(expected.topic)
    assert [docs[offsets[i] : offsets[i + 1]] for i in range(rows)] == _pylist(expected.doc)
    assert np.frombuffer(grades, np.int64).tolist() == expected.grade.tolist()


def _pylist(column: Any) -> list[bytes]:
    return [value if isinstance(value, bytes) else value.encode() for value in column.to_pylist()]


@pytest.fixture(scope="module")
def portable(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The C part built with FOCAL_KERNEL_PORTABLE, loaded beside the tested one; with the
    sanitizers too when their runtime is preloaded (`make sanitize`)."""
    if not compiler():
        pytest.skip("no C compiler to build the portable variant with (set CC)")
    sanitized = "libasan" in os.environ.get("LD_PRELOAD", "")
    flags = ["-DFOCAL_KERNEL_PORTABLE", *(SANITIZERS if sanitized else [])]
    return load(build(tmp_path_factory.mktemp("portable"), flags), "_article_kernel")


@FUZZ
@given(RUNS, QRELS_FILES, st.lists(st.tuples(st.integers(0, 3), st.binary(max_size=20)),
                                   max_size=40))  # fmt: skip
def test_the_portable_build_answers_alike(portable: ModuleType, run: bytes, qrels: bytes,
                                          pairs: list[tuple[int, bytes]]) -> None:  # fmt: skip
    """Same columns, same scores, the same tables slot for slot (the hashes read words
    little-endian on every machine) and the same rows found in them."""
    assert read_run(portable, run) == read_run(KERNEL, run)
    assert portable.parse_qrels(qrels) == KERNEL.parse_qrels(qrels)
    pairs = list(dict.fromkeys(pairs))
    mine, theirs = tables(pairs, 4), tables(pairs, 4)
    assert KERNEL.index_pairs(**mine) is portable.index_pairs(**theirs) is False
    assert mine["slots"].tolist() == theirs["slots"].tolist()
    asked = tables(pairs[::-1], 4)  # every pair judged, in another order
    found = [list(range(len(pairs)))[::-1]]
    for module, judged in ((KERNEL, mine), (portable, theirs)):
        rows = np.empty(len(pairs), np.int64)
        module.find_pairs([(asked["offsets"], asked["bytes"])], asked["codes"], judged["bases"],
                          judged["slots"], judged["offsets"], judged["bytes"],
                          np.zeros((4, 2), np.int64), rows)  # fmt: skip
        found.append(rows.tolist())
    assert found[0] == found[1] == found[2]


def test_the_module_tested_is_the_one_the_engines_call() -> None:
    """One module answers these tests and the engines: the installed one, beside the package's
    sources, or under `make sanitize` the sanitized build that FOCAL_TEST_KERNEL names."""
    from focal.evaluation.measures.trec_eval import kernel as package
    from focal.evaluation.measures.trec_eval.kernel import _article_kernel

    assert KERNEL is _article_kernel
    tested = Path(_article_kernel.__file__ or "").resolve()
    given = os.environ.get("FOCAL_TEST_KERNEL")
    if given:
        assert tested == Path(given).resolve()
    else:
        assert tested.parent == Path(package.__file__ or "").resolve().parent
