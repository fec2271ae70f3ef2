"""Columnar FOL runs: the same content as `read_run`'s records and the same errors, fast or not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.columns import (
    RunColumns,
    _canonical_fol,
    columns_of_run,
    read_run_columns,
)
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.records import Run
from focal.evaluation.formats.source import read_bytes

ARRAYS = ("codes", "scores", "starts", "lengths", "missing", "lines")


def assert_same_columns(actual: RunColumns, expected: RunColumns) -> None:
    assert (actual.run_id, actual.file, actual.kind) == (expected.run_id, expected.file, "fol")
    assert actual.warnings == expected.warnings
    assert list(actual.topics) == list(expected.topics)
    for topic, columns in actual.topics.items():
        other = expected.topics[topic]
        assert columns.unique == other.unique, topic
        for name in ARRAYS:
            got, want = getattr(columns, name), getattr(other, name)
            assert got.dtype == want.dtype, (topic, name)
            assert np.array_equal(got, want, equal_nan=got.dtype.kind == "f"), (topic, name)
            assert (np.signbit(got) == np.signbit(want)).all(), (topic, name)  # -0.0 too


def outcome(read: object) -> object:
    """What reading gives: the columns (or the Run of an element/article run), or the error."""
    try:
        return read()  # type: ignore[operator]
    except FormatError as error:
        return ("error", error.file, error.line, error.message)


def both_ways(path: Path) -> tuple[object, object]:
    fast = outcome(lambda: read_run_columns(path))
    records = outcome(lambda: read_run(path))
    if isinstance(records, Run) and records.kind == "fol":
        return fast, columns_of_run(records)
    return fast, records


def assert_same_outcome(path: Path) -> None:
    fast, slow = both_ways(path)
    if isinstance(slow, RunColumns):
        assert isinstance(fast, RunColumns), fast
        assert_same_columns(fast, slow)
    else:
        assert fast == slow


def took_fast_path(path: Path) -> bool:
    return _canonical_fol(read_bytes(path), str(path)) is not None


# --- the real runs -----------------------------------------------------------------------------


def test_real_runs_read_as_columns_equal_their_records(inex2010: Path) -> None:
    paths = sorted((inex2010 / "runs").glob("*.run"))
    assert len(paths) == 13
    for path in paths:
        assert_same_outcome(path)
        fol = read_run(path).kind == "fol"
        assert took_fast_path(path) == fol, path  # every real FOL run is canonical


def test_real_run_columns_match_the_raw_lines(inex2010: Path) -> None:
    """Derived from the text alone: topic blocks, articles, offsets, scores, line numbers."""
    path = inex2010 / "runs" / "indri-passages.fol.run"
    raw = [line.split() for line in path.read_text().splitlines()]
    columns = read_run_columns(path)
    assert isinstance(columns, RunColumns)
    assert list(columns.topics) == list(dict.fromkeys(fields[0] for fields in raw))
    number = 0
    for topic, block in columns.topics.items():
        mine = raw[number : number + len(block)]
        assert all(fields[0] == topic for fields in mine)
        assert block.articles == [fields[2] for fields in mine]
        assert block.unique == list(dict.fromkeys(fields[2] for fields in mine))
        assert block.starts.tolist() == [int(fields[6]) for fields in mine]
        assert block.lengths.tolist() == [int(fields[7]) for fields in mine]
        assert block.scores.tolist() == [float(fields[4]) for fields in mine]
        assert block.lines.tolist() == list(range(number + 1, number + len(block) + 1))
        assert not block.missing.any()
        number += len(block)
    assert number == len(raw)


# --- chosen cases ------------------------------------------------------------------------------

FAST = {
    "plain": "1 Q0 a 1 14.5 r 0 10\n1 Q0 b 2 -3.25 r 5 7\n2 Q0 a 1 0 r 0 1\n",
    "CRLF, no final newline": "1 Q0 a 1 1.0 r 0 10\r\n1 Q0 b 2 .5 r 5 7",
    "X and -1 offsets": "1 Q0 a 1 3 r X 18\n1 Q0 b 2 2 r -1 0\n1 Q0 c 3 1 r x 7\n",
    "exponent scores": "1 Q0 a 1 1e-05 r 0 1\n1 Q0 b 2 -2.5E+3 r 0 1\n1 Q0 c 3 inf r 0 1\n",
    "long article ids": "1 Q0 article-number-1 1 1 r 0 1\n1 Q0 é-2 2 1 r 0 1\n1 Q0 a 3 1 r 0 1\n",
    "articles back in a topic": "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 r 0 1\n1 Q0 a 3 1 r 5 1\n",
    "leading zeros": "01 Q0 007 0001 -0.000 r 0005 010\n1 Q0 7 2 5. r 0 1\n",
    "many digits": "1 Q0 a 1 0.1234567890123456789 r 1234567890 1\n",
}

SLOW = {
    "tabs": "1\tQ0 a 1 1 r 0 1\n",
    "double space": "1 Q0 a 1 1 r 0  1\n",
    "blank line": "1 Q0 a 1 1 r 0 1\n\n1 Q0 b 2 1 r 0 1\n",
    "split topic": "1 Q0 a 1 1 r 0 1\n2 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 r 0 1\n",
    "negative rank": "1 Q0 a -1 1 r 0 1\n",
    "plus sign": "1 Q0 a +1 +1 r 0 +1\n",
    "huge offset": "1 Q0 a 1 1 r 1234567890123456789 1\n",
    "element run": "1 Q0 a 1 1 r /article[1]\n",
    "article run": "1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n",
    "submission": '<inex-submission run-id="r" result-type="fol"><topic topic-id="1">'
    "<result><file>a</file><fol offset='0' length='5'/></result></topic></inex-submission>",
}

ERRORS = {
    "empty": "",
    "bad score on line 3": "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 r 0 1\n1 Q0 c 3 1.2.3 r 0 1\n",
    "bad rank after bad score": "1 Q0 a 1 x r 0 1\n1 Q0 b y 1 r 0 1\n",
    "run id changes": "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 s 0 1\n",
    "negative length": "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 1 r 0 -1\n",
    "X length": "1 Q0 a 1 1 r 0 X\n",
    "negative offset": "1 Q0 a 1 1 r -2 1\n",
    "nine fields later": "1 Q0 a 1 1 r 0 1\n1 Q0 a 1 1 r 0 1 9\n",
    "seven fields first": "1 Q0 a 1 1 r 0\n1 Q0 a 1 1 r 0 1\n",
    "not UTF-8 article": "1 Q0 a 1 1 r 0 1\n1 Q0 \udcff 2 1 r 0 1\n",
    "not UTF-8 topic": "\udcfe Q0 a 1 1 r 0 1\n",
    "not UTF-8 run id": "1 Q0 a 1 1 \udcfe 0 1\n",
    "NUL in a score": "1 Q0 a 1 1\x00 r 0 1\n",
    "NaN score": "1 Q0 a 1 1 r 0 1\n1 Q0 b 2 nan r 0 1\n",
    "offset of 10^30": "1 Q0 a 1 1 r 1000000000000000000000000000000 1\n",
    "length of 10^30": "1 Q0 a 1 1 r 0 1000000000000000000000000000000\n",
    "rank of 10^30": "1 Q0 a 1000000000000000000000000000000 1 r 0 1\n",
    "rank of 2^31 (ten digits)": "1 Q0 a 2147483648 1 r 0 1\n",
    "article id of 201 characters": "1 Q0 a 1 1 r 0 1\n1 Q0 " + "x" * 201 + " 2 1 r 0 1\n",
    "topic id of 51 characters": "t" * 51 + " Q0 a 1 1 r 0 1\n",
    "control character in an id": "1 Q0 a\x01b 1 1 r 0 1\n",
}


def write(tmp_path: Path, text: str, name: str = "r.run") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


@pytest.mark.parametrize("case", sorted(FAST))
def test_canonical_runs_take_the_fast_path_and_equal_the_records(tmp_path: Path, case: str) -> None:
    path = write(tmp_path, FAST[case])
    assert took_fast_path(path)
    assert_same_outcome(path)


@pytest.mark.parametrize("case", sorted(SLOW))
def test_other_runs_go_through_read_run(tmp_path: Path, case: str) -> None:
    path = write(tmp_path, SLOW[case])
    assert not took_fast_path(path)
    assert_same_outcome(path)


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_are_those_of_read_run(tmp_path: Path, case: str) -> None:
    path = write(tmp_path, ERRORS[case], "bad.run")
    fast, slow = both_ways(path)
    assert isinstance(slow, tuple) and slow[0] == "error"  # a malformed case indeed
    assert fast == slow


def test_split_topic_warning_is_kept(tmp_path: Path) -> None:
    columns = read_run_columns(write(tmp_path, SLOW["split topic"]))
    assert isinstance(columns, RunColumns)
    assert len(columns.warnings) == 1 and "r.run:3: topic 1 resumes" in columns.warnings[0]
    assert columns.topics["1"].lines.tolist() == [1, 3]


def test_missing_results_are_flagged_with_start_zero(tmp_path: Path) -> None:
    columns = read_run_columns(write(tmp_path, FAST["X and -1 offsets"]))
    assert isinstance(columns, RunColumns)
    block = columns.topics["1"]
    assert block.missing.tolist() == [True, True, True]
    assert block.starts.tolist() == [0, 0, 0] and block.lengths.tolist() == [18, 0, 7]


# --- generated runs ----------------------------------------------------------------------------

NUMBER = st.one_of(st.integers(0, 10**6).map(str), st.sampled_from(["007", "0", "-1", "+2"]))
SCORE = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.builds(lambda x, k: f"{x:.{k}f}", st.floats(-1e4, 1e4, allow_nan=False), st.integers(0, 17)),
    st.sampled_from(["-0", ".5", "5.", "-.25", "1e-05", "nan", "-inf", "1.2.3", "-", "--1", "x"]),
)
OFFSET = st.one_of(st.integers(0, 10**7).map(str), st.sampled_from(["X", "x", "-1", "-2", "3.5"]))
ARTICLE = st.one_of(
    st.integers(0, 3000).map(str),
    st.sampled_from(["a", "0a", "doc-with-a-long-name", "é", "\udcff", "12345678", "123456789"]),
)


@st.composite
def run_text(draw: st.DrawFn) -> str:
    lines = []
    topics = draw(st.lists(st.sampled_from(["1", "2", "10", "é"]), min_size=1, max_size=4))
    for topic in topics:
        for _ in range(draw(st.integers(1, 5))):
            fields = [topic, "Q0", draw(ARTICLE), draw(NUMBER), draw(SCORE)]
            fields += [draw(st.sampled_from(["r"] * 9 + ["s"])), draw(OFFSET), draw(NUMBER)]
            if draw(st.integers(0, 19)) == 0:
                fields = fields[:7] if draw(st.booleans()) else [*fields, "9"]
            separator = draw(st.sampled_from([" "] * 20 + ["  ", "\t"]))
            lines.append(separator.join(fields))
    ending = draw(st.sampled_from(["\n"] * 4 + ["\r\n", ""]))
    return ending.join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=run_text())
@example(text="1 Q0 a 1 0.1 r 0 1\n1 Q0 b 2 0.30000000000000004 r 0 1\n")
def test_generated_runs_read_the_same_both_ways(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    assert_same_outcome(path)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# NaN is refused (focal.evaluation.formats.bounds); every other number float reads is kept.
@given(
    scores=st.lists(SCORE.filter(lambda s: s not in ("1.2.3", "-", "--1", "x", "nan")), min_size=1)
)
def test_scores_are_what_float_reads(tmp_path: Path, scores: list[str]) -> None:
    text = "".join(f"1 Q0 a{i} {i + 1} {score} r 0 1\n" for i, score in enumerate(scores))
    columns = read_run_columns(write(tmp_path, text))
    assert isinstance(columns, RunColumns)
    got = columns.topics["1"].scores
    want = np.array([float(score) for score in scores])
    assert np.array_equal(got, want, equal_nan=True)
    assert (np.signbit(got) == np.signbit(want)).all()


@pytest.mark.parametrize("odd", ["x\u00a0y", "x\x7fy", "x\u2003y"])
def test_an_id_with_a_unicode_space_or_del_is_refused_as_read_run_refuses_it(
    tmp_path: Path, odd: str
) -> None:
    path = tmp_path / "run.fol"
    path.write_text(f"1 Q0 a 1 0.5 r 0 10\n1 Q0 {odd} 2 0.4 r 0 10\n", encoding="utf-8")
    with pytest.raises(FormatError) as careful:
        read_run(path)
    with pytest.raises(FormatError) as columns:
        read_run_columns(path)
    assert (columns.value.line, str(columns.value)) == (2, str(careful.value))
