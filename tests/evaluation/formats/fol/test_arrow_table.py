"""The pyarrow FOL reader takes a file only when the careful reader would read the same records.

`read_fol_table` returns None for anything it is not sure of; callers then read the file with
`read_run`, whose errors name file and line. So, on random valid and invalid files: when the fast
reader answers, the careful reader accepts the file without a warning and its records give the
same run id, topics, and article, score, offset and length per result (and the evaluation's
columns, `read_run_columns`, are those of the careful reader's records); and the two paths
together (`read_ranked_run`) give the same records or the same first error as the careful reader
alone.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.arrow_table import read_fol_table
from focal.evaluation.formats.fol.columns import RunColumns, columns_of_run, read_run_columns
from focal.evaluation.formats.fol.runs import read_run
from focal.pooling.ranked import ranked_run, read_ranked_run

VALID_IDS = ["1", "2", "10", "2010003", "a", "b-1", "007", "0", "1000001", "t" * 50, "a" * 200,
             "x0", "0X"]  # fmt: skip
ODD_IDS = ["é", "x\u00a0y", "9" * 19, "t" * 51, "a" * 201, "x\x01y", "<a>", "x\x7fy", ""]
ODD_COUNTS = ["007", "2147483647", "2147483648", "9999999999", "-1", "+3", "1_0", "0x5", "X",
              "x", "", "1.0", "99999999999999999999", "0X5", "-0", "0b1", "0o7", "00012",
              "18446744073709551615", "18446744073709551616"]  # fmt: skip
ODD_SCORES = ["1e5", "1E+05", ".5", "5.", "+5", "nan", "NaN", "inf", "-inf", "1_0", "0x1p3",
              "1-2", ".", "-", "e", "1e", "abc", "0.100000000000000005551115123125782",
              "Infinity", "1e999", "-1e999", "4.9e-325", "0x10", "+.5e-3"]  # fmt: skip


@st.composite
def fol_files(draw: st.DrawFn) -> bytes:
    """A canonical FOL run, then up to three irregularities (valid or not for `read_run`)."""
    topics = draw(st.lists(st.sampled_from(VALID_IDS), min_size=1, max_size=3, unique=True))
    counts = st.integers(0, 5000).map(str)
    rows = []
    for topic in topics:
        for rank in range(1, draw(st.integers(1, 5)) + 1):
            article = draw(st.sampled_from(VALID_IDS) | st.integers(1, 10**7).map(str))
            score = repr(draw(st.floats(allow_nan=False, allow_infinity=False)))
            rows.append([topic, "Q0", article, str(rank), score, "r", draw(counts), draw(counts)])
    separators = [" "] * len(rows)
    ends = ["\n"] * len(rows)
    for _ in range(draw(st.integers(0, 3))):
        line = draw(st.integers(0, len(rows) - 1))
        change = draw(st.integers(0, 9))
        if len(rows[line]) < 8 and change < 4:
            continue  # a field was taken off this line: one irregularity is enough
        if change == 0:
            rows[line][draw(st.sampled_from([0, 2]))] = draw(st.sampled_from(ODD_IDS))
        elif change == 1:
            rows[line][draw(st.sampled_from([3, 6, 7]))] = draw(st.sampled_from(ODD_COUNTS))
        elif change == 2:
            rows[line][4] = draw(st.sampled_from(ODD_SCORES))
        elif change == 3:
            odd = st.sampled_from(["", "s", "q", "x"]) | st.sampled_from(ODD_IDS)  # Q0 or run id
            rows[line][draw(st.sampled_from([1, 5]))] = draw(odd)
        elif change == 4:
            separators[line] = draw(st.sampled_from(["  ", "\t", " \t", "\x0b", "\x0c"]))
        elif change == 5:
            ends[line] = draw(st.sampled_from(["\r\n", "\r", "\n\n", "\n \n", " \n"]))
        elif change == 6:
            del rows[line][draw(st.integers(0, len(rows[line]) - 1))]
        elif change == 7:
            rows[line].append("extra")
        elif change == 8:
            rows.append(list(rows[0]))  # the first topic again, after the others
            separators.append(" ")
            ends.append("\n")
        else:
            rows[line][0] = " " + rows[line][0]
    text = "".join(
        sep.join(row) + end for row, sep, end in zip(rows, separators, ends, strict=True)
    )
    if draw(st.booleans()):
        text = text.removesuffix("\n")
    return text.encode()


def careful(path: Path) -> object:
    try:
        return ranked_run(read_run(path)), read_run(path).warnings
    except FormatError as error:
        return (error.file, error.line, str(error))


def same_columns(fast: object, careful: RunColumns) -> bool:
    """Whether `read_run_columns`'s answer holds the same columns as the careful reader's."""
    assert isinstance(fast, RunColumns)
    if (fast.run_id, fast.warnings, list(fast.topics)) != (
        careful.run_id,
        careful.warnings,
        list(careful.topics),
    ):
        return False
    for topic, ours in fast.topics.items():
        theirs = careful.topics[topic]
        if ours.unique != theirs.unique:
            return False
        for name in ("codes", "scores", "starts", "lengths", "missing", "lines"):
            if getattr(ours, name).tolist() != getattr(theirs, name).tolist():
                return False
    return True


def written(data: bytes, folder: str) -> Path:
    path = Path(folder) / "run.fol"
    path.write_bytes(data)
    return path


@settings(max_examples=400, deadline=None)
@given(fol_files())
def test_the_fast_reader_answers_only_what_the_careful_reader_reads(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = written(data, folder)
        expected = careful(path)
        table = read_fol_table(data, passages=True)
        if table is not None:
            assert isinstance(expected, tuple) and not isinstance(expected[0], str)
            ranked, warnings = expected
            assert warnings == []
            assert table.run_id == ranked.run_id
            assert table.topics == list(ranked.topics)
            articles = [table.names[a] if table.names else str(a) for a in table.articles.tolist()]
            assert articles == [a for listed in ranked.topics.values() for a in listed]
            results = [r for listed in read_run(path).topics.values() for r in listed]
            assert table.passages is not None
            assert table.passages.scores.tolist() == [r.score for r in results]
            assert table.passages.starts.tolist() == [r.start for r in results]
            assert table.passages.lengths.tolist() == [r.length for r in results]
            assert same_columns(read_run_columns(path), columns_of_run(read_run(path)))
        try:
            both: object = read_ranked_run(path)
        except FormatError as error:
            both = (error.file, error.line, str(error))
        if isinstance(expected, tuple) and isinstance(expected[0], str | None):
            assert both == expected  # the same first error: file, line, message
        else:
            assert both == expected[0]  # type: ignore[index]


def test_a_canonical_run_takes_the_fast_path_with_numeric_ids() -> None:
    data = b"1 Q0 1001 1 0.5 r 0 10\n1 Q0 7 2 0.25 r 3 4\n2 Q0 1001 1 1e-3 r 0 1\n"
    table = read_fol_table(data)
    assert table is not None and table.names is None
    assert table.topics == ["1", "2"] and table.firsts.tolist() == [0, 2]
    assert table.articles.tolist() == [1001, 7, 1001]


def test_an_x_in_the_ids_is_not_taken_for_a_hexadecimal_number() -> None:
    table = read_fol_table(b"x1 Q0 0x5 1 0.5 xrX 0 10\nx1 Q0 x 2 0.25 xrX 10 5\n", True)
    assert table is not None and table.run_id == "xrX" and table.topics == ["x1"]
    assert table.names is not None and table.passages is not None
    assert table.passages.starts.tolist() == [0, 10]


def test_other_ids_are_codes_into_the_distinct_ids() -> None:
    table = read_fol_table(b"1 Q0 b 1 0.5 r 0 10\r\n1 Q0 007 2 0.4 r 0 10\r\n2 Q0 b 1 0.3 r 0 1")
    assert table is not None and table.names is not None
    assert [table.names[code] for code in table.articles.tolist()] == ["b", "007", "b"]


def test_irregular_files_are_left_to_the_careful_reader() -> None:
    canonical = b"1 Q0 a 1 0.5 r 0 10\n"
    assert read_fol_table(canonical) is not None
    for variant in (
        b"1  Q0 a 1 0.5 r 0 10\n",  # doubled space: `bytes.split` reads it, pyarrow would not
        b"1\tQ0 a 1 0.5 r 0 10\n",
        b"1 Q0 a 1 0.5 r 0 10 \n",
        b"1 Q0 a 1 0.5 r 0 10\n\n1 Q0 b 2 0.5 r 0 10\n",
        b"1 Q0 a 1 nan r 0 10\n",
        b"1 Q0 a 1 0.5 r X 10\n",
        b"1 Q0 a 0x5 0.5 r 0 10\n",  # pyarrow reads 0x5 as 5; `int` refuses it
        b"1 Q0 x 1 0.5 rx 0X5 10\n",  # the same, with an x in the ids too
        b"1 Q0 a 1 -0.5 r -0 10\n",  # `int` reads -0; the fast path leaves signs alone
        b"1 Q0 a 1 inf r 0 10\n",  # an infinite score is kept, by the careful reader
        b"1 Q0 a 1 0.5 r 0 2147483648\n",
        b"1 Q0 a 1 0.5 r 0 10\n2 Q0 a 1 0.5 r 0 10\n1 Q0 b 2 0.5 r 0 10\n",
        b"1 Q0 a\xc2\xa0b 1 0.5 r 0 10\n",
        b"1 Q\xc3\xa9 a 1 0.5 r 0 10\n",  # every field is checked: no scan of the whole file
        b"1 Q\x01 a 1 0.5 r 0 10\n",
        b"1 Q0 a 1 0.5 r\xc3\xa9 0 10\n",
        b"1 Q0 a 1 0.5 r 0 10\r2 Q0 a 1 0.5 r 0 10\n",  # a lone CR ends a line for pyarrow only
        b"1 Q0 a 1 0.5 r 0 10\r\n2 Q0 a\r 1 0.5 r 0 10\r\n",
        b"1 Q0 a 1 0.5 ab 0 1\n1 Q0 b 2 0.5 a 0 1\n1 Q0 c 3 0.5 bab 0 1\n",  # `ababab` all the same
        b"1 Q0 a 1 0.5 r 0 1\n1 Q0 b 2 0.5 s 0 1\n",
        b"",
    ):
        assert read_fol_table(variant) is None, variant
