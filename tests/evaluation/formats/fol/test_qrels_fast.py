"""The whole-file qrels fast path: the same judgements as line by line, or it steps aside."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import check_judgements
from focal.evaluation.formats.fol.qrels import _read_lines, read_qrels
from focal.evaluation.formats.fol.qrels_fast import judgements_of, read_plain_qrels_columns
from focal.evaluation.formats.records import Qrels
from focal.evaluation.formats.source import decode_lines, read_bytes


def line_by_line(path: Path) -> object:
    """The original parser alone, then the bounds every reader checks, as the reference."""
    try:
        qrels = _read_lines(decode_lines(read_bytes(path), str(path)), str(path))
        check_judgements((j for arts in qrels.values() for j in arts.values()), str(path))
        return qrels
    except FormatError as error:
        return ("error", error.file, error.line, error.message)


def through_read_qrels(path: Path) -> object:
    try:
        return read_qrels(path)
    except FormatError as error:
        return ("error", error.file, error.line, error.message)


def fast_path(path: Path) -> Qrels | None:
    columns = read_plain_qrels_columns(decode_lines(read_bytes(path), str(path)))
    return None if columns is None else judgements_of(columns)


def assert_same(actual: object, expected: object) -> None:
    assert actual == expected
    if isinstance(expected, dict):  # and in the same order, topics and articles
        assert isinstance(actual, dict)
        assert [(t, list(a)) for t, a in actual.items()] == [
            (t, list(a)) for t, a in expected.items()
        ]


def test_real_qrels_take_the_fast_path_and_equal_the_line_parser(inex2010: Path) -> None:
    path = inex2010 / "inex2010.qrels"
    fast = fast_path(path)
    assert fast is not None  # CRLF, trailing spaces and unsorted passages are all plain
    assert_same(fast, line_by_line(path))
    assert_same(read_qrels(path), fast)


PLAIN = {
    "non-relevant only": "1 Q0 a 0 10\n1 Q0 b 0 0\n",
    "unsorted and touching passages": "7 Q0 a 30 100 99 60:10  0:10 10:10 \r\n7 Q0 b 0 50\n",
    "topics coming back": "1 Q0 a 0 9\n2 Q0 a 0 9\n1 Q0 b 5 9 0 0:5\n",
    "the largest article_chars": "1 Q0 a 0 2147483647\n1 Q0 b 5 9 0 0:5\n",
    "blank lines and zeros": "\n1 Q0 a 00 10\n\n1 Q0 b 005 010 0 002:5\n",
}

STEP_ASIDE = {
    "minus zero": "1 Q0 a -0 10\n",
    "empty": "",
    "a huge rel_chars": "1 Q0 a 123456789012345678901234567890 9 0 0:5\n",
    "a huge passage": "1 Q0 b 5 9 0 123456789012345678901234567890:5\n",
    "judged twice, in two blocks": "1 Q0 a 0 9\n2 Q0 a 0 9\n1 Q0 a 0 9\n",
}


@pytest.mark.parametrize(
    "text",
    [
        "1 Q0 a 0 123456789012345678901234567890\n",
        "1 Q0 a 0 2147483648\n",
        "1 Q0 b 5 9 1000000000000000000000000000000 0:5\n",
        "1 Q0 b 5 9 0 2147483647:5\n",
        "1 Q0 " + "a" * 201 + " 0 9\n",
    ],
)
def test_numbers_and_ids_out_of_bounds_are_refused_with_the_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "q.qrels"
    path.write_text("1 Q0 z 0 5\n" + text)
    assert fast_path(path) is None  # `read_qrels` trusts the bounds of what it answers
    with pytest.raises(FormatError) as refused:
        read_qrels(path)
    assert refused.value.line == 2


@pytest.mark.parametrize("case", sorted(PLAIN))
def test_plain_files_take_the_fast_path(tmp_path: Path, case: str) -> None:
    path = tmp_path / "q.qrels"
    path.write_text(PLAIN[case])
    fast = fast_path(path)
    assert fast is not None
    assert_same(fast, line_by_line(path))


@pytest.mark.parametrize("case", sorted(STEP_ASIDE))
def test_unusual_files_are_left_to_the_line_parser(tmp_path: Path, case: str) -> None:
    path = tmp_path / "q.qrels"
    path.write_text(STEP_ASIDE[case])
    assert fast_path(path) is None
    assert_same(through_read_qrels(path), line_by_line(path))


COUNT = st.one_of(
    st.integers(0, 9999).map(str),
    st.sampled_from(["0", "00", "-0", "-3", "x", "2147483647", "2147483648"]),
)


@st.composite
def qrels_line(draw: st.DrawFn) -> str:
    topic = draw(st.sampled_from(["1", "2", "30", "t" * 51]))  # the last too long
    article = draw(st.sampled_from(["a", "b", "c", "d", "é", "10", "a" * 201, "a\x01"]))
    if draw(st.integers(0, 2)) == 0:
        fields = [topic, "Q0", article, draw(COUNT), draw(COUNT)]
    else:
        start = st.one_of(st.integers(0, 300), st.just(2**31 - 41))  # may end past 2**31 - 1
        spans = draw(st.lists(st.tuples(start, st.integers(0, 40)), max_size=4))
        rel = sum(length for _, length in spans) + draw(st.sampled_from([0] * 8 + [1]))
        passages = [f"{start}:{length}" for start, length in spans]
        passages += draw(st.lists(st.sampled_from(["5", "1:2:3", ":4", "-1:4", "x:1"]), max_size=1))
        fields = [topic, "Q0", article, str(rel), draw(COUNT), draw(COUNT), *passages]
    if draw(st.integers(0, 15)) == 0:
        fields = fields[: draw(st.integers(0, len(fields)))]
    return draw(st.sampled_from([" ", " ", " ", "  ", "\t"])).join(fields)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(qrels_line(), min_size=1, max_size=12), ending=st.sampled_from(["\n", "\r\n"])
)
@example(lines=["1 Q0 a 5 9 0 0:5", "1 Q0 a 0 9"], ending="\n")  # a duplicate
@example(lines=["1 Q0 a 10 9 0 0:5 3:5"], ending="\n")  # an overlap
def test_generated_qrels_read_the_same_as_line_by_line(
    tmp_path: Path, lines: list[str], ending: str
) -> None:
    path = tmp_path / "q.qrels"
    path.write_text(ending.join(lines) + ending)
    expected = line_by_line(path)
    assert_same(through_read_qrels(path), expected)
    fast = fast_path(path)
    if fast is not None:  # when it answers, it answers what the line parser answers
        assert_same(fast, expected)
