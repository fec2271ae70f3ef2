"""The article engine's grade look-up (`GradeTable.grades_of`): the qrels' table gives each row its
grade, and a document twice in a topic is found, even beyond the `-M` cut."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from focal.evaluation.formats.arrow import binary_array
from focal.evaluation.formats.trec import DuplicateDocument
from focal.evaluation.measures.registry.names import parse_trec
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.run import TrecOptions, evaluate_trec
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL, UNJUDGED
from focal.evaluation.running.articles import load_index, load_run

TABLE = GradeTable.from_mapping({"1": {b"d1": 2, b"d2": 0, b"d3": -1}, "2": {b"d1": 1}})


def grades(pairs: list[tuple[bytes, bytes]]) -> list[int] | None:
    codes, _ = TABLE.topic_codes(binary_array([t for t, _ in pairs]))
    docs = pa.chunked_array([binary_array([d for _, d in pairs])])
    found = TABLE.grades_of(codes, docs)
    return None if found is None else found.tolist()


def test_each_row_gets_its_topics_grade() -> None:
    # worked by hand from TABLE: (1, d2) judged 0; (1, d9) not in the qrels; (2, d1) grade 1 (not
    # topic 1's 2); (1, d3) negative, stored as UNJUDGED; (1, d1) grade 2
    run = [(b"1", b"d2"), (b"1", b"d9"), (b"2", b"d1"), (b"1", b"d3"), (b"1", b"d1")]
    assert grades(run) == [0, NONPOOL, 1, UNJUDGED, 2]


def test_a_key_twice_is_no_grades() -> None:
    assert grades([(b"1", b"d1"), (b"2", b"d1"), (b"1", b"d1")]) is None  # judged, twice
    assert grades([(b"1", b"x"), (b"2", b"x"), (b"1", b"x")]) is None  # not judged, twice
    assert grades([(b"1", b"x"), (b"2", b"x"), (b"3", b"x"), (b"3", b"y")]) is not None


def test_duplicate_beyond_the_cut_names_both_lines(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    # d1 again on line 3 with the lowest score: cut away by -M 1, still a duplicate for trec_eval
    run.write_text("1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.5 r\n1 Q0 d1 3 0.5 r\n")
    selection = parse_trec(["map"])
    with pytest.raises(DuplicateDocument, match=r"r\.txt:3: .*'d1'.*also line 1"):
        evaluate_trec(load_index(str(qrels)), load_run(str(run), False), selection,
                      TrecOptions(max_docs=1))  # fmt: skip


def test_ideal_and_levels_the_same_whatever_the_size_of_the_grades() -> None:
    # grades up to 2 are counted in one table; a grade of 10**6 sends the topics through their
    # own loop: both must give each topic's sorted gains (2, 2, 1 -> 2, 2/log2(3), 1/log2(4))
    small = GradeTable.from_mapping({"a": {b"x": 2, b"y": 1, b"z": 2, b"n": -1}, "b": {b"x": 0}})
    large = GradeTable.from_mapping({"a": {b"x": 2, b"y": 1, b"z": 2, b"n": -1}, "b": {b"x": 0},
                                     "c": {b"q": 10**6}})  # fmt: skip
    expected = [2.0, 2.0 + 2.0 / np.log2(3.0), 2.0 + 2.0 / np.log2(3.0) + 0.5]
    for table in (small, large):
        assert table.ideal.topic(0).tolist() == expected
        assert table.ideal.topic(1).tolist() == []
        assert table.levels[0].tolist() == [0, 1, 2]  # no grade 0 in topic a
        assert table.levels[1].tolist() == [1]
        assert table.has_judgements("b") and not table.has_judgements("zz")
    assert large.ideal.topic(2).tolist() == [10.0**6]
