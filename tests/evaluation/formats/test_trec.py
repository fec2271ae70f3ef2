"""TREC qrels and runs: the columnar fast path and the line reader read the same columns."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.arrow import binary_array, numeric_array, to_numpy
from focal.evaluation.formats.source import first_fields
from focal.evaluation.formats.trec import read_trec_qrels, read_trec_run

ids = st.text(alphabet="abcXYZ019-_.", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(ids, ids, st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=30)
)
def test_fast_path_and_line_reader_agree(tmp_path_factory: pytest.TempPathFactory,
                                         rows: list[tuple[str, str, float]]) -> None:  # fmt: skip
    rows = list({(t, d): (t, d, s) for t, d, s in rows}.values())  # one line per (topic, doc)
    folder = tmp_path_factory.mktemp("runs")
    plain, tabbed = folder / "plain", folder / "tabbed"
    plain.write_text("".join(f"{t} Q0 {d} 7 {s!r} run-a\n" for t, d, s in rows))
    # tabs and a blank line: not for the CSV reader, so the line reader reads this one
    tabbed.write_text("\n" + "".join(f"{t}\tQ0  {d} 7 {s!r} run-a\n" for t, d, s in rows))
    fast, slow = read_trec_run(plain), read_trec_run(tabbed)
    assert fast.run_id == slow.run_id == "run-a"
    assert fast.topic.to_pylist() == slow.topic.to_pylist() == [t.encode() for t, _, _ in rows]
    assert fast.doc.to_pylist() == slow.doc.to_pylist() == [d.encode() for _, d, _ in rows]
    assert fast.score.tolist() == slow.score.tolist() == [s for _, _, s in rows]


def test_qrels_comments_negative_grades_and_both_paths(tmp_path: Path) -> None:
    plain, commented = tmp_path / "plain", tmp_path / "commented"
    plain.write_text("1 0 a 2\n1 0 b -1\n2 0 a 0\n")
    commented.write_text("# topic iter doc grade\n1 0 a 2\n\n1 0 b -1\n2 0 a 0\n")
    for path in (plain, commented):
        qrels = read_trec_qrels(path)
        assert qrels.topic.to_pylist() == [b"1", b"1", b"2"]
        assert qrels.doc.to_pylist() == [b"a", b"b", b"a"]
        assert qrels.grade.tolist() == [2, -1, 0]
    assert first_fields(commented) == 4 and first_fields(plain) == 4


def test_duplicates_are_refused_on_either_path(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n1 Q0 a 3 0.5 r\n")
    with pytest.raises(FormatError, match=r"run:3: document 'a' appears twice in topic '1'"):
        read_trec_run(run)
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 a 0\n")
    with pytest.raises(FormatError, match=r"qrels:2: document 'a' of topic '1' is judged twice"):
        read_trec_qrels(qrels)


def test_arrow_helpers_round_trip() -> None:
    assert binary_array([b"x", b"", b"yz"]).to_pylist() == [b"x", b"", b"yz"]
    floats = np.array([1.5, -2.0, 0.0])
    assert to_numpy(numeric_array(floats)).tolist() == floats.tolist()
    assert to_numpy(numeric_array(np.array([3, 1]))).tolist() == [3, 1]
    sliced = numeric_array(np.arange(5)).slice(2, 2)
    assert to_numpy(sliced).tolist() == [2, 3]
