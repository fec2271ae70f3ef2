"""How a TREC file reaches pyarrow (`columnar_source`), and a run read in batches into the article
engine's columns (`stream_trec_run`, `GradeTable.prepare_file`) against the whole-file path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats import source, trec_batches
from focal.evaluation.formats.source import UTF8_BOM, columnar_source
from focal.evaluation.formats.trec import SPECIAL
from focal.evaluation.formats.trec_batches import stream_trec_run
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable, PreparedRun
from focal.evaluation.running.articles import load_run

QRELS = GradeTable.from_mapping({"1": {b"a": 1, b"b": 0}, "2": {b"a": 2}, "10": {b"c": 1}})


@pytest.mark.parametrize(
    ("text", "read_as"),
    [
        (b"1 Q0 a 1 2.0 r\n", bytes),
        (b"", None),  # empty: the line reader says what it says of an empty run
        (UTF8_BOM + b"1 Q0 a 1 2.0 r\n", None),
        (b"# a comment\n1 Q0 a 1 2.0 r\n", None),
        (b"1\tQ0 a 1 2.0 r\n", None),
        (b"1 Q0 a 1 2.0 r\r\n", None),
    ],
)
def test_what_reaches_pyarrow(tmp_path: Path, text: bytes, read_as: type | None) -> None:
    path = tmp_path / "run"
    path.write_bytes(text)
    given = columnar_source(path, SPECIAL)
    assert (given is None) if read_as is None else isinstance(given, read_as)


def test_a_large_file_is_scanned_and_left_to_pyarrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "SMALL_FILE", 10)  # every file "large"
    plain, tabbed = tmp_path / "plain", tmp_path / "tabbed"
    lines = b"".join(b"1 Q0 d%d 1 2.0 r\n" % i for i in range(200_000))  # over 1 MiB
    plain.write_bytes(lines)
    tabbed.write_bytes(lines + b"1\tQ0 x 1 1.0 r\n")  # the tab is in the scan's second piece
    assert columnar_source(plain, SPECIAL) == str(plain)
    assert columnar_source(tabbed, SPECIAL) is None


def test_a_folder_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="not a regular file"):
        columnar_source(tmp_path, SPECIAL)


def same_run(a: PreparedRun, b: PreparedRun) -> None:
    """Equal columns, scores to the bit (-0.0 is not 0.0)."""
    assert (a.run_id, a.unknown) == (b.run_id, b.unknown)
    assert a.codes.tolist() == b.codes.tolist()
    assert a.docs.to_pylist() == b.docs.to_pylist()
    assert a.score.view(np.int64).tolist() == b.score.view(np.int64).tolist()


TOPICS = st.sampled_from(["1", "2", "10", "x", "y"])  # x and y: topics the qrels do not know
DOCS = st.sampled_from(["a", "b", "c", "a-much-longer-document-id", "z"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(TOPICS, DOCS, st.floats(-10, 10, allow_nan=False)), min_size=1,
                max_size=60))  # fmt: skip
def test_batches_give_the_columns_of_the_whole_file(tmp_path_factory: pytest.TempPathFactory,
                                                    rows: list) -> None:  # fmt: skip
    """Batches of a few lines (unknown topics and long ids falling in different batches) must
    give the columns `prepare` makes from the whole file (pyarrow's reader: the C reader set
    aside; tests/evaluation/measures/trec_eval/test_plain_files.py has its own)."""
    path = tmp_path_factory.mktemp("run") / "run"
    path.write_text("".join(f"{t} Q0 {d} 1 {s!r} tag\n" for t, d, s in rows))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GradeTable, "plain_run", lambda self, path: None)
        whole = QRELS.prepare_file(str(path))  # a small file: read whole
        patch.setattr(source, "SMALL_FILE", 10)  # read as a large file: in batches
        patch.setattr(trec_batches, "BATCH_BYTES", 64)
        batched = QRELS.prepare_file(str(path))
    same_run(whole, batched)
    same_run(batched, QRELS.prepare(load_run(str(path), False)))


def test_a_bad_line_after_the_first_batch_is_named_by_the_line_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "SMALL_FILE", 10)  # read as a large file: in batches
    monkeypatch.setattr(trec_batches, "BATCH_BYTES", 64)
    path = tmp_path / "run"
    good = "".join(f"1 Q0 d{i} {i} 1.0 tag\n" for i in range(1, 30))
    path.write_text(good + "1 Q0  d99 1.0 tag\n")  # rank missing: an empty field, line 30
    seen: list[int] = []
    assert stream_trec_run(path, lambda batch: seen.append(batch.num_rows)) is None
    assert seen  # batches went by before the bad one
    with pytest.raises(FormatError, match=r"run:30: expected 6 fields .*, found 5"):
        QRELS.prepare_file(str(path))
