"""The C readers of plain TREC runs and qrels (`GradeTable.plain_run`, `plain_qrels`) against the
other readers: on random files, some plain and some not (runs cut into blocks of a few bytes),
they either decline (None) or give exactly the columns the careful line reader gives, scores to
the bit; a file the line reader refuses is always declined."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.trec import read_trec_qrels
from focal.evaluation.measures.trec_eval.engine import files as trec_files
from focal.evaluation.measures.trec_eval.engine.files import plain_qrels
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.running.articles import load_run

QRELS = GradeTable.from_mapping({"1": {b"a": 1, b"b": 0}, "2": {b"a": 2}, "10": {b"c": 1}})

# plain forms and forms the C reader leaves to the others (a sign, no digit before or after the
# point, words, hex), long mantissas and exponents beyond the fast path, under- and overflow
SCORES = st.sampled_from(["1", "-0", "0", "2.5", "-7.125", "1e5", "1E-3", "3.0e+2", "+1", ".5",
                          "5.", "inf", "nan", "-inf", "0x10", "1e400", "1e-400", "4.9e-324",
                          "0.1000000000000000055511151231257827", "9007199254740993",
                          "123456789012345678901234", "-1.7976931348623157e308", "1e22", "1e23",
                          "0.000001234", "00012.50"])  # fmt: skip
TOKENS = st.sampled_from(["Q0", "x", "a-much-longer-document-id", "r1", "é", "a#b", '"q"'])
SEPARATORS = st.sampled_from([" "] * 12 + ["  ", "\t"])
ENDINGS = st.sampled_from(["\n"] * 12 + ["\r\n", " \n", "\n\n"])
LINE = st.tuples(st.sampled_from(["1", "2", "10", "10", "x"]), TOKENS,
                 st.sampled_from(["a", "b", "c", "a-much-longer-document-id"]), st.integers(0, 9),
                 st.one_of(SCORES, st.floats(allow_nan=False).map(repr)), TOKENS, SEPARATORS,
                 ENDINGS)  # fmt: skip
PLAIN_LINE = st.tuples(st.sampled_from(["1", "2", "10"]), st.sampled_from(["Q0", "r1", "\"q\""]),
                       st.sampled_from(["a", "b", "c", "a-much-longer-document-id"]),
                       st.integers(0, 9),
                       st.one_of(st.sampled_from(["1", "-0", "2.5", "1e5", "1E-3", "1e400"]),
                                 st.floats(allow_nan=False, allow_infinity=False).map(repr)),
                       st.sampled_from(["r", "run-2"]), st.just(" "), st.just("\n"))  # fmt: skip
# half the files plain throughout (the reader takes them), half with anything anywhere
FILES = st.one_of(st.tuples(st.just(True), st.lists(PLAIN_LINE, min_size=1, max_size=25)),
                  st.tuples(st.just(False), st.lists(LINE, min_size=1, max_size=25)))  # fmt: skip


def text_of(lines: list[tuple], last_newline: bool) -> str:
    text = "".join(
        sep.join([t, q, d, str(r), s, run]) + end for t, q, d, r, s, run, sep, end in lines
    )
    return text if last_newline else text.rstrip("\n")


@settings(max_examples=300, deadline=None)
@given(FILES, st.booleans(), st.one_of(st.integers(8, 80), st.just(1 << 20)))
def test_plain_runs_give_the_line_readers_columns(tmp_path_factory: pytest.TempPathFactory,
                                                  drawn: tuple, last_newline: bool,
                                                  block: int) -> None:  # fmt: skip
    """Blocks of `block` bytes put line ends and long lines (the buffer grows) anywhere; a
    block of the whole file has its lines split 64 bytes at a time but for the last ones (the
    two ways of `split_line`); a file of plain lines only is always taken."""
    all_plain, lines = drawn
    path = tmp_path_factory.mktemp("run") / "run"
    path.write_text(text_of(lines, last_newline), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trec_files, "PLAIN_BLOCK", block)
        plain = QRELS.plain_run(str(path))
    try:
        expected = QRELS.prepare(load_run(str(path), False))
    except FormatError:
        assert plain is None
        return
    if plain is None:
        assert not all_plain
        return
    assert (plain.run_id, plain.unknown, plain.warnings) == (expected.run_id, [], [])
    assert plain.codes.tolist() == expected.codes.tolist()
    assert plain.docs.to_pylist() == expected.docs.to_pylist()
    assert plain.score.view(np.int64).tolist() == expected.score.view(np.int64).tolist()


def test_a_plain_file_is_taken_and_others_declined(tmp_path: Path) -> None:
    """The reader's own rules, each on a one-line change to a plain file."""
    plain = "1 Q0 a 1 2.5 r\n10 Q0 c 2 -1e-3 r\n2 Q0 a 3 7 last"
    cases = {
        plain: True,
        plain + "\n": True,
        plain.replace("2.5", "+2.5"): False,  # a sign the reader leaves to pyarrow
        plain.replace("2.5", ".5"): False,
        plain.replace("1 Q0 a", "x Q0 a"): False,  # a topic the qrels do not know
        plain.replace("Q0 c", "Q0  c"): False,
        plain.replace(" last", " last extra"): False,  # seven fields
        plain.replace(" 7 last", " 7"): False,  # five
        plain + "\n\n": False,  # an empty line
        "": False,
    }
    for text, taken in cases.items():
        path = tmp_path / "run"
        path.write_text(text)
        run = QRELS.plain_run(str(path))
        assert (run is not None) == taken, text
    path.write_text(plain)
    run = QRELS.plain_run(str(path))
    assert run is not None and run.run_id == "last"  # trec_eval keeps the last line's
    assert run.codes.tolist() == [0, 1, 2]  # codes in the topic ids' byte order: 1, 10, 2
    assert run.score.tolist() == [2.5, -0.001, 7.0]
    assert QRELS.plain_run(str(tmp_path / "missing")) is None
    assert QRELS.plain_run(str(tmp_path)) is None  # a folder: the other readers name it


def test_lines_split_64_bytes_at_a_time_follow_the_same_rules(tmp_path: Path) -> None:
    """A line with 64 bytes or more after its start is split from one mask of the bytes no
    field holds: the same rules, checked on a first line followed by ten plain ones."""
    rest = "".join(f"2 Q0 d{i} {i} 0.5 r\n" for i in range(10))
    first = "1 Q0 a 1 2.5 r\n"
    assert len(rest) >= 64
    odd = [first.replace("Q0 a", "Q0\ta"), first.replace("Q0 a", "Q0  a"),
           first.replace(" a ", " a#b "), first.replace("\n", "\r\n"),
           first.replace(" r\n", " r x\n"), first.replace(" 2.5 r", " 2.5"),
           first.replace("a", "\x7f"), " " + first, first.replace("\n", " \n")]  # fmt: skip
    path = tmp_path / "run"
    for line in odd:
        path.write_text(line + rest, encoding="latin-1")
        assert QRELS.plain_run(str(path)) is None, line
    path.write_text(first + rest)
    run = QRELS.plain_run(str(path))
    assert run is not None
    assert run.docs.to_pylist() == [b"a"] + [f"d{i}".encode() for i in range(10)]
    assert run.score.tolist() == [2.5] + [0.5] * 10 and run.codes.tolist() == [0] + [2] * 10


@settings(max_examples=500, deadline=None)
@given(st.one_of(
    st.floats(min_value=0, allow_infinity=False).map(repr),
    st.tuples(st.integers(0, 10**25), st.integers(0, 30), st.integers(-330, 330)).map(
        lambda t: f"{str(t[0])[: len(str(t[0])) - t[1]] or '0'}.{str(t[0])[-t[1]:] or '0'}e{t[2]}"),
    st.integers(0, 2**64).map(str),
))  # fmt: skip
def test_scores_are_read_as_python_reads_them(tmp_path_factory: pytest.TempPathFactory,
                                              score: str) -> None:  # fmt: skip
    """Every decimal form the reader takes gives float()'s double, bit for bit: the fast path
    (short mantissas, small powers of ten), the corrected estimate (up to 19 digits) and the
    interpreter's own reader beyond them (_kernel_score.c)."""
    path = tmp_path_factory.mktemp("run") / "run"
    path.write_text(f"1 Q0 a 1 {score} r\n2 Q0 a 1 -{score} r\n")
    run = QRELS.plain_run(str(path))
    assert run is not None, score
    bits = [struct.unpack("<q", struct.pack("<d", v))[0] for v in (float(score), -float(score))]
    assert run.score.view(np.int64).tolist() == bits


QRELS_LINE = st.tuples(st.sampled_from(["1", "2", "10", "x-y", "1"]), st.sampled_from(["0", "Q0"]),
                       st.sampled_from(["a", "b", "c", "a-much-longer-document-id"]),
                       st.sampled_from(["0", "1", "2", "-1", "-0", "007"]), st.just(" "),
                       st.just("\n"))  # fmt: skip
ODD_QRELS_LINE = st.tuples(st.sampled_from(["1", "2", "é", "a#b"]), st.sampled_from(["0", ""]),
                           st.sampled_from(["a", "b"]),
                           st.sampled_from(["1", "+1", "1.0", "x", "12345678901234567890"]),
                           SEPARATORS, ENDINGS)  # fmt: skip
QRELS_FILES = st.one_of(
    st.lists(QRELS_LINE, min_size=1, max_size=30),
    st.lists(st.one_of(QRELS_LINE, ODD_QRELS_LINE), min_size=1, max_size=30),
)


@settings(max_examples=300, deadline=None)
@given(QRELS_FILES, st.booleans())
def test_plain_qrels_give_the_line_readers_table(
    tmp_path_factory: pytest.TempPathFactory, lines: list, last_newline: bool
) -> None:
    """`GradeTable.from_trec_file` (the C reader when it takes the file) against the table of
    `read_trec_qrels`: the same topics and codes, documents and grades, or the same error (a
    document judged twice, a bad line) with the same message."""
    path = tmp_path_factory.mktemp("qrels") / "qrels"
    text = "".join(sep.join(fields) + end for *fields, sep, end in lines)
    path.write_text(text if last_newline else text.rstrip("\n"), encoding="utf-8")
    try:
        expected = GradeTable.from_trec(read_trec_qrels(str(path), check_duplicates=False))
    except FormatError as error:
        with pytest.raises(FormatError) as raised:
            GradeTable.from_trec_file(str(path))
        assert str(raised.value) == str(error)
        return
    table = GradeTable.from_trec_file(str(path))
    assert table.topics == expected.topics
    assert table.codes.tolist() == expected.codes.tolist()
    assert table.pairs.docs.to_pylist() == expected.pairs.docs.to_pylist()
    assert table.raw_grades.tolist() == expected.raw_grades.tolist()


def test_plain_qrels_are_read_in_c_and_others_declined(tmp_path: Path) -> None:
    plain = "10 0 a 1\n2 0 b 0\n10 0 c -1\n1 Q0 a 2"
    path = tmp_path / "qrels"
    for text, taken in {plain: True, plain + "\n": True, plain.replace(" 2", " +2"): False,
                        plain.replace("2 0 b", "2  0 b"): False, plain + " x": False,
                        plain + "\n\n": False}.items():  # fmt: skip
        path.write_text(text)
        assert (plain_qrels(str(path)) is not None) == taken, text
    path.write_text(plain)
    table = GradeTable.from_trec_file(str(path))
    assert table.topics == ["1", "10", "2"]  # byte order
    assert table.codes.tolist() == [1, 2, 1, 0]
    assert table.raw_grades.tolist() == [1, 0, -1, 2]
    path.write_text(plain + "\n2 0 b 1\n")
    with pytest.raises(FormatError, match="qrels"):  # judged twice: the line reader names both
        GradeTable.from_trec_file(str(path))
    assert plain_qrels(str(tmp_path / "missing")) is None
    path.write_text("1 0 a 12345678901234567890\n")  # beyond 64 bits: refused by name
    with pytest.raises(FormatError, match=r"qrels:1: expected a grade within 64 bits"):
        GradeTable.from_trec_file(str(path))


def test_qrels_read_ahead_give_the_same_table_and_see_a_change(tmp_path: Path) -> None:
    """`start_qrels` reads on a thread what `plain_qrels` would read, and gives it once (the
    value it returned lets go of the tables: a caller keeps it for the whole evaluation); a
    file changed between the start and the taking (another size) is read again, not taken
    from the thread."""
    path = tmp_path / "qrels"
    path.write_text("10 0 a 1\n2 0 b 0\n")
    direct = trec_files.parse_qrels(str(path))
    ahead = trec_files.start_qrels(str(path))
    assert ahead is not None and ahead.read(str(path))
    assert trec_files.plain_qrels(str(path), ahead) == direct
    assert not ahead.read(str(path)), "taken once, the reading is let go"
    assert trec_files.plain_qrels(str(path), ahead) == direct  # read again, the same
    ahead = trec_files.start_qrels(str(path))
    # Replaced as editors and `mv` replace a file: rewriting it in place while the thread has
    # it mapped would take its pages away under the reader (SIGBUS), which no reader survives.
    fresh = tmp_path / "qrels.new"
    fresh.write_text("10 0 a 1\n2 0 b 0\n3 0 c 2\n")
    os.replace(fresh, path)
    assert ahead is not None and not ahead.read(str(path))
    changed = trec_files.plain_qrels(str(path), ahead)
    assert changed is not None and changed[0] == 3 and changed[2] == [b"10", b"2", b"3"]


def test_starting_the_qrels_reader_imports_nothing_heavy() -> None:
    """The read-ahead starts before numpy and pyarrow are imported (that is its point)."""
    import subprocess
    import sys

    code = ("import sys; import focal.evaluation.measures.trec_eval.engine.files as f; "
            "print(sorted(m for m in ('numpy', 'pyarrow') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"


def test_qrels_are_mapped_the_same_where_mmap_takes_no_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without MAP_POPULATE (every platform but Linux; Windows' `mmap` takes no flags at all)
    the file is mapped with the portable `access`, and read the same."""
    path = tmp_path / "qrels"
    path.write_text("10 0 a 1\n2 0 b 0\n3 0 c 2\n")
    populated = trec_files.parse_qrels(str(path))
    if populated is None:
        pytest.skip("the optional C part is not built in this install")
    monkeypatch.setattr(trec_files, "POPULATE", 0)
    with path.open("rb") as stream, trec_files.mapped(stream.fileno()) as data:
        assert data[:8] == b"10 0 a 1"
    assert trec_files.parse_qrels(str(path)) == populated
