"""Text runs: the real INEX 2010 runs, shapes, refusals with file:line, grouping, round trips."""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.runs import build_results, read_run, write_run
from focal.evaluation.formats.records import Result, Run


def write(tmp_path: Path, text: str, name: str = "r.run") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


def all_results(run: Run) -> list[Result]:
    return [result for results in run.topics.values() for result in results]


# --- the real runs -----------------------------------------------------------------------------


def real_runs(inex2010: Path) -> list[Path]:
    runs = sorted((inex2010 / "runs").glob("*.run"))
    assert len(runs) == 13
    return runs


def test_every_real_run_parses_and_matches_its_lines(inex2010: Path) -> None:
    for path in real_runs(inex2010):
        raw = [line.split() for line in path.read_text().splitlines() if line.strip()]
        run = read_run(path)
        assert run.kind == ("article" if len(raw[0]) == 6 else "fol"), path
        assert run.run_id == raw[0][5]
        assert run.warnings == []  # the README: topic blocks are contiguous
        assert list(run.topics) == list(dict.fromkeys(fields[0] for fields in raw))
        results = all_results(run)
        assert len(results) == len(raw)
        for result, fields in zip(results, raw, strict=True):
            assert (result.topic, result.article, result.rank) == (
                fields[0],
                fields[2],
                int(fields[3]),
            )
            assert result.score == float(fields[4])
            if run.kind == "fol":
                assert (result.start, result.length) == (int(fields[6]), int(fields[7]))
                assert not result.missing


def test_real_fol_run_first_result(inex2010: Path) -> None:
    # line 1: "2010003 Q0 19243417 1 14.4783 indri-passages 0 1916"
    run = read_run(inex2010 / "runs" / "indri-passages.fol.run")
    assert run.topics["2010003"][0] == Result(
        "2010003", "19243417", 1, 14.4783, 1, start=0, length=1916
    )


# --- shapes ------------------------------------------------------------------------------------


def test_element_and_article_runs(tmp_path: Path) -> None:
    element = read_run(write(tmp_path, "1 Q0 a 1 2.5 e /article[1]/bdy[1]/sec[2]\n"))
    assert element.kind == "element"
    assert element.topics["1"][0].path == "/article[1]/bdy[1]/sec[2]"
    assert element.topics["1"][0].start is None
    article = read_run(write(tmp_path, "1 Q0 a 1 2.5 t\n1 Q0 b 2 2 t\n", "a.run"))
    assert article.kind == "article"
    assert [r.article for r in article.topics["1"]] == ["a", "b"]
    assert article.topics["1"][1].path is None


def test_missing_offsets_x_and_minus_one(tmp_path: Path) -> None:
    run = read_run(write(tmp_path, "1 Q0 a 1 3 r X 18\n1 Q0 b 2 2 r -1 0\n1 Q0 c 3 1 r 5 7\n"))
    a, b, c = run.topics["1"]
    assert (a.missing, a.start, a.length, a.end) == (True, None, 18, None)
    assert (b.missing, b.start, b.length) == (True, None, 0)
    assert (c.missing, c.start, c.end) == (False, 5, 12)


def test_rank_is_kept_as_written_and_order_is_file_order(tmp_path: Path) -> None:
    run = read_run(write(tmp_path, "1 Q0 a 9 1 r 0 1\n1 Q0 b 3 5 r 0 1\n"))
    assert [(r.article, r.rank) for r in run.topics["1"]] == [("a", 9), ("b", 3)]


def test_blank_lines_crlf_and_tabs(tmp_path: Path) -> None:
    run = read_run(write(tmp_path, "\n1\tQ0 a 1 3 r 0 5\r\n\r\n1 Q0 b 2 2 r 4 6 \r\n"))
    assert [(r.article, r.line) for r in run.topics["1"]] == [("a", 2), ("b", 4)]


def test_kind_requested_must_match(tmp_path: Path) -> None:
    path = write(tmp_path, "1 Q0 a 1 3 r\n")
    assert read_run(path, kind="article").kind == "article"
    with pytest.raises(FormatError, match=r":1: expected a FOL run with 8 fields"):
        read_run(path, kind="fol")


def test_non_contiguous_topics_are_grouped_with_a_warning(tmp_path: Path) -> None:
    text = "2 Q0 a 1 1 r 0 1\n1 Q0 b 1 1 r 0 1\n2 Q0 c 2 1 r 0 1\n1 Q0 d 2 1 r 0 1\n"
    path = write(tmp_path, text)
    run = read_run(path)
    assert list(run.topics) == ["2", "1"]
    assert [r.article for r in run.topics["2"]] == ["a", "c"]
    assert [r.article for r in run.topics["1"]] == ["b", "d"]
    assert len(run.warnings) == 2
    assert run.warnings[0].startswith(f"{path}:3: topic 2 resumes")
    assert run.warnings[1].startswith(f"{path}:4: topic 1 resumes")


# --- refusals ----------------------------------------------------------------------------------

MALFORMED = {
    "empty file": ("", None, "found an empty file"),
    "only blank lines": ("\n  \n\r\n", None, "found an empty file"),
    "9 fields": ("1 Q0 a 1 1 r 0 1 x\n", 1, "expected 8 fields (FOL run), 7"),
    "5 fields": ("\n1 Q0 a 1 1\n", 2, "expected 8 fields (FOL run), 7"),
    "mixed shapes": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2 1 r 0\n", 2, "expected 8 fields"),
    "run id changes": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2 1 s 0 1\n", 2, "expected run id 'r'"),
    "rank not an integer": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2.0 1 r 0 1\n", 2, "an integer rank"),
    "score not a number": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2 high r 0 1\n", 2, "a numeric score"),
    "offset not an integer": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2 1 r 3.5 1\n", 2, "integer offset"),
    "negative offset": ("1 Q0 a 1 1 r X 1\n1 Q0 a 2 1 r -2 1\n", 2, "found '-2'"),
    "length not an integer": ("1 Q0 a 1 1 r 0 X\n", 1, "non-negative integer length"),
    "negative length": ("1 Q0 a 1 1 r 0 1\n1 Q0 a 2 1 r 0 -1\n", 2, "length, found -1"),
    "element path": ("1 Q0 a 1 1 r /article[1]\n1 Q0 a 2 1 r sec[1]\n", 2, "element path"),
    "not UTF-8": ("1 Q0 a 1 1 r 0 1\n1 Q0 \udcff 2 1 r 0 1\n", 2, "UTF-8 article id"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_runs_name_file_and_line(tmp_path: Path, case: str) -> None:
    text, line, expected = MALFORMED[case]
    path = write(tmp_path, text, "bad.run")
    with pytest.raises(FormatError) as caught:
        read_run(path)
    assert caught.value.file == str(path)
    assert caught.value.line == line
    assert expected in caught.value.message


def test_garbage_collector_is_restored(tmp_path: Path) -> None:
    assert gc.isenabled()
    read_run(write(tmp_path, "1 Q0 a 1 1 r 0 1\n"))
    assert gc.isenabled()
    with pytest.raises(FormatError):
        read_run(write(tmp_path, "1 Q0 a x 1 r 0 1\n"))
    assert gc.isenabled()


def test_fast_builder_equals_the_dataclass_constructor() -> None:
    columns = (["1", "2"], ["a", "b"], [1, 2], [0.5, 0.25], [3, 4], [0, None], [5, 7],
               [None, None], [False, True])  # fmt: skip
    built = build_results(*columns)
    expected = [Result(*row) for row in zip(*columns, strict=True)]
    assert built == expected
    assert [hash(r) for r in built] == [hash(r) for r in expected]
    with pytest.raises(AttributeError):
        built[0].topic = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="one value per result"):
        build_results(*columns[:-1], [False])


# --- writing -----------------------------------------------------------------------------------

token = st.from_regex(r"[0-9A-Za-z_.-]{1,10}", fullmatch=True)


@st.composite
def runs(draw: st.DrawFn) -> Run:
    kind = draw(st.sampled_from(["fol", "element", "article"]))
    run = Run(run_id=draw(token), file="mem", kind=kind)
    for topic in draw(st.lists(token, min_size=1, max_size=4, unique=True)):
        results = []
        for _ in range(draw(st.integers(1, 5))):
            article = draw(token)
            rank = draw(st.integers(-5, 10**6))
            score = draw(st.floats(allow_nan=False))
            if kind == "fol":
                missing = draw(st.booleans())
                start = None if missing else draw(st.integers(0, 10**7))
                length = draw(st.integers(0, 10**6))
                results.append(Result(topic, article, rank, score, 0, start, length, None, missing))
            elif kind == "element":
                path = "/article[1]" + draw(st.sampled_from(["", "/bdy[1]", "/bdy[1]/sec[3]"]))
                results.append(Result(topic, article, rank, score, 0, path=path))
            else:
                results.append(Result(topic, article, rank, score, 0))
        run.topics[topic] = results
    return run


def strip_lines(run: Run) -> list[tuple[object, ...]]:
    return [
        (r.topic, r.article, r.rank, r.score, r.start, r.length, r.path, r.missing)
        for r in all_results(run)
    ]


@settings(max_examples=80, deadline=None)
@given(run=runs())
def test_write_read_round_trip(tmp_path_factory: pytest.TempPathFactory, run: Run) -> None:
    out = io.StringIO()
    write_run(run, out)
    path = tmp_path_factory.mktemp("rt") / "rt.run"
    path.write_text(out.getvalue())
    back = read_run(path)
    assert (back.kind, back.run_id, back.warnings) == (run.kind, run.run_id, [])
    assert list(back.topics) == list(run.topics)
    assert strip_lines(back) == strip_lines(run)
    assert [r.line for r in all_results(back)] == list(range(1, len(all_results(run)) + 1))


# --- the fast reader against an obviously correct one ------------------------------------------


def oracle(data: bytes) -> list[tuple[object, ...]] | None:
    """Line by line, the slow way; None where the reader must refuse the file."""
    rows = [(n, line.split()) for n, line in enumerate(data.split(b"\n"), start=1)]
    rows = [(n, fields) for n, fields in rows if fields]
    if not rows or len({len(fields) for _, fields in rows}) != 1 or len(rows[0][1]) != 8:
        return None
    if len({fields[5] for _, fields in rows}) != 1:
        return None
    results = []
    for n, f in rows:
        missing = f[6] in (b"X", b"-1")
        start = None if missing else int(f[6])
        key = (f[0].decode(), f[2].decode(), int(f[3]), float(f[4]), n, start, int(f[7]), missing)
        results.append(key)
    order = list(dict.fromkeys(r[0] for r in results))
    return sorted(results, key=lambda r: order.index(r[0]))  # stable: file order within a topic


field_token = st.one_of(
    st.sampled_from([b"1", b"2", b"3"]),
    st.integers(0, 99).map(lambda i: str(i).encode()),
)
separator = st.sampled_from([b" "] * 8 + [b"  ", b"\t", b" \t"])


@st.composite
def run_bytes(draw: st.DrawFn) -> bytes:
    out = []
    for _ in range(draw(st.integers(1, 6))):
        fields = [draw(st.sampled_from([b"1", b"2"])), b"Q0", draw(field_token)]
        fields += [draw(field_token), draw(field_token), draw(st.sampled_from([b"r", b"r", b"s"]))]
        fields += [draw(st.sampled_from([b"0", b"5", b"X", b"-1"])), draw(field_token)]
        if draw(st.integers(0, 9)) == 0:
            fields = fields[: draw(st.integers(5, 7))] if draw(st.booleans()) else [*fields, b"x"]
        line = b""
        for index, value in enumerate(fields):
            line += (draw(separator) if index else b"") + value
        if draw(st.integers(0, 5)) == 0:
            line = draw(separator) + line + draw(separator)
        out.append(line + draw(st.sampled_from([b"\n", b"\n", b"\r\n"])))
        if draw(st.integers(0, 7)) == 0:
            out.append(draw(st.sampled_from([b"\n", b" \n", b"\r\n"])))
    return b"".join(out)


@settings(max_examples=150, deadline=None)
@given(data=run_bytes())
# same number of spaces on every line, but a doubled space hides a missing field
@example(data=b"1 Q0 b 2 1 r 0 5\n1 Q0 a 1 1 r  5\n")
@example(data=b"1 Q0 a 1 1 r 0 5 \r\n\r\n2 Q0 b 2 1 r X 5\n1 Q0 c 3 1 r -1 5\n")
def test_reader_agrees_with_line_by_line_oracle(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("oracle") / "o.run"
    path.write_bytes(data)
    expected = oracle(data)
    if expected is None:
        with pytest.raises(FormatError):
            read_run(path, kind="fol")
        return
    run = read_run(path, kind="fol")
    got = [
        (r.topic, r.article, r.rank, r.score, r.line, r.start, r.length, r.missing)
        for r in all_results(run)
    ]
    assert got == expected
