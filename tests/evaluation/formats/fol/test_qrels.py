"""FOL qrels: the real INEX 2010 file, every refusal with its file:line, canonical writing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.qrels import read_qrels, write_qrels
from focal.evaluation.formats.records import Judgement, Qrels


def write(tmp_path: Path, text: str, name: str = "q.qrels") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


# --- the real file -----------------------------------------------------------------------------


def test_real_inex2010_qrels_counts(inex2010: Path) -> None:
    qrels = read_qrels(inex2010 / "inex2010.qrels")
    judgements = [j for articles in qrels.values() for j in articles.values()]
    assert len(judgements) == 39_031
    assert len(qrels) == 52
    assert sum(j.relevant for j in judgements) == 5_471
    assert sum(not j.relevant for j in judgements) == 33_560


def test_real_inex2010_qrels_quirks_match_the_raw_lines(inex2010: Path) -> None:
    """Derive each quirk from the raw text independently and compare with the parsed records."""
    path = inex2010 / "inex2010.qrels"
    qrels = read_qrels(path)
    by_line = {j.line: j for articles in qrels.values() for j in articles.values()}
    out_of_order = bep_outside = bep_past_end = 0
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        fields = raw.split()
        judgement = by_line[number]
        assert (judgement.topic, judgement.article) == (fields[0], fields[2])
        if len(fields) == 5:
            assert judgement.passages == () and judgement.bep is None
            continue
        written = [(int(a), int(a) + int(b)) for a, b in (p.split(":") for p in fields[6:])]
        assert sorted(written) == list(judgement.passages)
        out_of_order += written != sorted(written)
        bep = int(fields[5])
        assert judgement.bep == bep
        bep_outside += not any(s <= bep < e for s, e in written)
        bep_past_end += bep >= int(fields[4])
    # the figures the data README gives for this file
    assert (out_of_order, bep_outside, bep_past_end) == (492, 407, 4)


def test_first_real_line(inex2010: Path) -> None:
    # line 1: "2010003 Q0 19243417 2932 3901 3901 491:1908 2801:25 2885:999 " (CRLF)
    judgement = read_qrels(inex2010 / "inex2010.qrels")["2010003"]["19243417"]
    assert judgement == Judgement(
        "2010003", "19243417", 2932, 3901, 3901, ((491, 2399), (2801, 2826), (2885, 3884)), 1
    )


# --- what is accepted --------------------------------------------------------------------------


def test_accepts_crlf_trailing_spaces_blank_lines_and_keeps_file_order(tmp_path: Path) -> None:
    text = "7 Q0 b 0 50 \r\n\r\n7 Q0 a 30 100 99 60:10 0:20 \r\n   \n3 Q0 c 5 5 7 0:5\n"
    qrels = read_qrels(write(tmp_path, text))
    assert list(qrels) == ["7", "3"]
    assert list(qrels["7"]) == ["b", "a"]
    a = qrels["7"]["a"]
    assert a.passages == ((0, 20), (60, 70))  # sorted, half-open
    assert a.bep == 99  # outside every passage: accepted
    assert a.line == 3
    assert qrels["3"]["c"].bep == 7  # at or past the end: accepted
    assert not qrels["7"]["b"].relevant


def test_touching_passages_are_not_overlapping(tmp_path: Path) -> None:
    qrels = read_qrels(write(tmp_path, "1 Q0 a 30 100 0 10:20 0:10\n"))
    assert qrels["1"]["a"].passages == ((0, 10), (10, 30))


# --- what is refused, with file:line -----------------------------------------------------------

MALFORMED = {
    "fewer than 5 fields": ("1 Q0 a 0\n", 1, "expected at least 5 fields"),
    "non-integer rel_chars": ("1 Q0 a 0 10\n1 Q0 b x 10\n", 2, "expected an integer rel_chars"),
    "non-integer article_chars": ("1 Q0 a 0 1.5\n", 1, "expected an integer article_chars"),
    "negative article_chars": ("1 Q0 a 0 -4\n", 1, "non-negative article_chars, found -4"),
    "negative rel_chars": ("1 Q0 a -3 10 0 0:3\n", 1, "non-negative rel_chars, found -3"),
    "negative passage length": ("1 Q0 a 3 10 0 0:-3\n", 1, "non-negative passage length"),
    "negative passage offset": ("1 Q0 a 3 10 0 -1:3\n", 1, "non-negative passage offset"),
    "negative bep": ("1 Q0 a 3 10 -2 0:3\n", 1, "non-negative best entry point"),
    "zero-length passage": ("1 Q0 a 3 10 0 0:3 5:0\n", 1, "positive passage length"),
    "passage without colon": ("1 Q0 a 3 10 0 0-3\n", 1, "expected a passage `offset:length`"),
    "non-integer passage": ("1 Q0 a 3 10 0 0:3x\n", 1, "integer passage length"),
    "sum disagrees": ("1 Q0 a 0 9\n1 Q0 b 30 100 0 0:10 50:10\n", 2, "add up to 20"),
    "overlap": ("1 Q0 a 30 100 0 20:10 0:21\n", 1, "passages 0:21 and 20:10 overlap"),
    "duplicate": ("1 Q0 a 0 9\n2 Q0 a 0 9\n1 Q0 a 0 9\n", 3, "first on line 1"),
    "relevant without passages": ("1 Q0 a 30 100\n", 1, "no best entry point and passages"),
    "bep without passages": ("1 Q0 a 30 100 5\n", 1, "at least one passage"),
    "passages without bep": ("1 Q0 a 30 100 0:30\n", 1, "expected a best entry point"),
    "non-relevant with passages": ("1 Q0 a 0 100 0 0:30\n", 1, "non-relevant line"),
    "not UTF-8": ("1 Q0 a 0 100\n1 Q0 \udcff 0 1\n", 2, "expected UTF-8"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_lines_name_file_and_line(tmp_path: Path, case: str) -> None:
    text, line, expected = MALFORMED[case]
    path = tmp_path / "bad.qrels"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(FormatError) as caught:
        read_qrels(path)
    assert caught.value.file == str(path)
    assert caught.value.line == line
    assert expected in caught.value.message
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read"):
        read_qrels(tmp_path / "absent.qrels")


# --- writing -----------------------------------------------------------------------------------


def test_write_is_canonical(tmp_path: Path) -> None:
    qrels = read_qrels(write(tmp_path, "7 Q0 a 30 100 99 60:10  0:20 \r\n7 Q0 b 0 50\n"))
    out = io.StringIO()
    write_qrels(qrels, out)
    assert out.getvalue() == "7 Q0 a 30 100 99 0:20 60:10\n7 Q0 b 0 50\n"


def test_write_refuses_relevant_without_bep() -> None:
    judgement = Judgement("1", "a", 5, 10, None, ((0, 5),), 0)
    with pytest.raises(ValueError, match="best entry point"):
        write_qrels({"1": {"a": judgement}}, io.StringIO())


@st.composite
def qrels_strategy(draw: st.DrawFn) -> Qrels:
    qrels: Qrels = {}
    for topic in draw(
        st.lists(st.from_regex(r"[0-9]{1,7}", fullmatch=True), max_size=4, unique=True)
    ):
        articles = draw(
            st.lists(st.from_regex(r"[0-9a-z]{1,8}", fullmatch=True), max_size=5, unique=True)
        )
        qrels[topic] = {}
        for article in articles:
            # disjoint passages from sorted distinct cut points, taken pairwise
            cuts = sorted(draw(st.sets(st.integers(0, 5000), max_size=8)))
            spans = tuple((a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False))
            rel = sum(b - a for a, b in spans)
            bep = draw(st.integers(0, 6000)) if spans else None
            size = draw(st.integers(0, 6000))
            qrels[topic][article] = Judgement(topic, article, rel, size, bep, spans, 0)
    return qrels


@settings(max_examples=60, deadline=None)
@given(qrels=qrels_strategy())
def test_write_read_round_trip(tmp_path_factory: pytest.TempPathFactory, qrels: Qrels) -> None:
    out = io.StringIO()
    write_qrels(qrels, out)
    path = tmp_path_factory.mktemp("rt") / "rt.qrels"
    path.write_text(out.getvalue())
    if not any(qrels.values()):  # an empty file is refused, as an empty run is
        with pytest.raises(FormatError, match="expected at least one judgement"):
            read_qrels(path)
        return
    back = read_qrels(path)
    strip = {
        t: {
            a: (j.topic, j.article, j.rel_chars, j.article_chars, j.bep, j.passages)
            for a, j in arts.items()
        }
        for t, arts in qrels.items()
        if arts
    }
    assert {
        t: {
            a: (j.topic, j.article, j.rel_chars, j.article_chars, j.bep, j.passages)
            for a, j in arts.items()
        }
        for t, arts in back.items()
    } == strip
    assert [list(arts) for arts in back.values()] == [list(arts) for arts in qrels.values() if arts]
