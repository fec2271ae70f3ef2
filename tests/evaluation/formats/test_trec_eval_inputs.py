"""trec_eval's other input files read into records: judgement groups, preferences, z-scores.

Each refusal names the file and the line, and says what was expected (the messages are those
`focal trec_eval` prints after `trec_eval: `).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.trec import DuplicateDocument
from focal.evaluation.formats.trec_eval_inputs import (
    JudgementGroups,
    PreferenceJudgement,
    read_preferences,
    read_qrels_jg,
    read_zscores,
)

PREFS_SHAPE = "`topic group sub_group doc level`"


def _file(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "input"
    path.write_bytes(data)
    return str(path)


def test_judgement_groups_each_hold_their_own_qrels(tmp_path: Path) -> None:
    """A document may be judged by every group; `#` in the first field (after blanks, too)
    starts a comment, a blank line is skipped, tabs and runs of spaces separate fields."""
    data = b"2 u a 1\n  # a comment\n\n1\tu  b 0\n1 v b 2\r\n#x v c 1\n1 v a -1\n"
    path = _file(tmp_path, data)
    groups = read_qrels_jg(path)
    assert groups == JudgementGroups(
        path, {"u": {"2": {b"a": 1}, "1": {b"b": 0}}, "v": {"1": {b"b": 2, b"a": -1}}}
    )
    assert groups.topics() == ["1", "2"]


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"1 u a 1\n1 u b\n", 2, "expected 4 fields `topic group doc grade` (qrels_jg), found 3"),
        (b"1 u a 1 x\n", 1, "expected 4 fields `topic group doc grade` (qrels_jg), found 5"),
        (b"1 u a 1.5\n", 1, "expected an integer grade, found '1.5'"),
        (b"1 u a %d\n" % 2**63, 1, f"expected a grade within 64 bits, found '{2**63}'"),
    ],
)
def test_a_malformed_judgement_group_line_is_named(
    tmp_path: Path, data: bytes, line: int, message: str
) -> None:
    path = _file(tmp_path, data)
    with pytest.raises(FormatError) as caught:
        read_qrels_jg(path)
    assert type(caught.value) is FormatError
    assert str(caught.value) == f"{path}:{line}: {message}"


def test_a_document_twice_in_one_group_is_a_duplicate(tmp_path: Path) -> None:
    path = _file(tmp_path, b"1 u a 1\n1 v a 0\n1 u a 2\n")
    with pytest.raises(DuplicateDocument) as caught:
        read_qrels_jg(path)
    assert str(caught.value) == f"{path}:3: document 'a' is judged twice in group 'u' (also line 1)"


def test_preferences_keep_each_topics_lines_in_file_order(tmp_path: Path) -> None:
    """Levels are read with trec_eval's C `atof` (`2x` is 2, `x` is 0); a
    line is a comment only when its first byte is `#`: `  #t ...` is topic `#t`."""
    path = _file(tmp_path, b"2 g s b 2x\n# comment\n1 g s a .5\n2 g t a x\n  #t g s a 1\n")
    preferences = read_preferences(path, False)
    assert preferences.file == path
    assert preferences.topics == {
        "2": [PreferenceJudgement("2", b"g", b"s", b"b", 2.0),
              PreferenceJudgement("2", b"g", b"t", b"a", 0.0)],
        "1": [PreferenceJudgement("1", b"g", b"s", b"a", 0.5)],
        "#t": [PreferenceJudgement("#t", b"g", b"s", b"a", 1.0)],
    }  # fmt: skip


def test_qrels_read_as_preferences_are_one_sub_group_per_group(tmp_path: Path) -> None:
    path = _file(tmp_path, b"1 g a 2\n1 h b 1\n")
    assert read_preferences(path, True).topics == {
        "1": [PreferenceJudgement("1", b"g", b"0", b"a", 2.0),
              PreferenceJudgement("1", b"h", b"0", b"b", 1.0)],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("qrels", "data", "message"),
    [
        (False, b"1 g s a 1\n1 g a 1\n", f"expected 5 fields {PREFS_SHAPE}, found 4"),
        (True, b"1 g a 1\n1 g s a 1\n", "expected 4 fields `topic group doc grade`, found 5"),
    ],
)
def test_a_preference_line_of_another_width_is_named(
    tmp_path: Path, qrels: bool, data: bytes, message: str
) -> None:
    path = _file(tmp_path, data)
    with pytest.raises(FormatError) as caught:
        read_preferences(path, qrels)
    assert str(caught.value) == f"{path}:2: {message}"


def test_zscores_keep_the_first_line_of_a_topic_and_measure(tmp_path: Path) -> None:
    path = _file(tmp_path, b"1 map 0.5 0.25\n\n1\tmap 9 9\n2 P_5 1e-1 0\n")
    assert read_zscores(path) == {("1", "map"): (0.5, 0.25), ("2", "P_5"): (0.1, 0.0)}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"1 map 0.5\n", "expected `topic measure mean stddev`, found 3 fields"),
        (b"1 map x 0.5\n", "expected a numeric mean and stddev"),
        (b"1 m\xff 0.5 0.1\n", "expected a UTF-8 measure name, found b'm\\xff'"),
    ],
)
def test_a_malformed_zscore_line_is_named(tmp_path: Path, data: bytes, message: str) -> None:
    path = _file(tmp_path, b"2 map 0 1\n" + data)
    with pytest.raises(FormatError) as caught:
        read_zscores(path)
    assert str(caught.value) == f"{path}:2: {message}"


@pytest.mark.parametrize(
    "read",
    [read_qrels_jg, read_zscores, lambda path: read_preferences(path, False)],
)
def test_a_folder_is_refused_before_it_is_read(
    tmp_path: Path, read: Callable[[Path], object]
) -> None:
    with pytest.raises(FormatError, match="is not a regular file"):
        read(tmp_path)
