"""Per-topic score files (`focal eval -q --format tsv`): what is read, what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.scores import read_scores

GOOD = """\
run_id\tmeasure\ttopic\tvalue
r1\tAiP\t1\t0.5
r1\tAiP\t2\t6.4E-4
r1\tnum_ret\t1\t100
r1\tAiP\tall\t0.25032
r2 AiP 1 0.25
"""


def write(tmp_path: Path, text: str, name: str = "s.tsv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_reads_runs_measures_topics_and_skips_all_rows(tmp_path: Path) -> None:
    scores = read_scores([write(tmp_path, GOOD)])
    assert scores.runs == ["r1", "r2"]
    assert scores.measures() == ["AiP", "num_ret"]
    # Java's 6.4E-4 as `focal eval` prints it; the `all` row is not a topic
    assert scores.of_measure("AiP") == {"r1": {"1": 0.5, "2": 0.00064}, "r2": {"1": 0.25}}


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("r1\tAiP\t1\n", 1, "expected 4 fields (run_id measure topic value), found 3"),
        ("run_id\tmeasure\ttopic\tvalue\nr1\tAiP\t1\t0.5\textra\n", 2, "found 5"),
        ("r1\tAiP\t1\tabc\n", 1, "expected a finite number as value, found 'abc'"),
        ("r1\tAiP\t1\tNaN\n", 1, "expected a finite number"),
        (
            "r1\tAiP\t1\t0.5\n\nr1\tAiP\t1\t0.6\n",
            3,
            "duplicate row for run r1, measure AiP, topic 1",
        ),
    ],
)
def test_bad_rows_name_the_file_and_line(
    tmp_path: Path, text: str, line: int, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(FormatError) as caught:
        read_scores([path])
    assert caught.value.file == path and caught.value.line == line
    assert expected in caught.value.message


def test_a_duplicate_across_files_names_both(tmp_path: Path) -> None:
    first = write(tmp_path, "r1\tAiP\t1\t0.5\n", "x.tsv")
    second = write(tmp_path, "r1\tAiP\t1\t0.5\n", "y.tsv")
    with pytest.raises(FormatError, match=r"y\.tsv:1: duplicate .* \(first at .*x\.tsv:1\)"):
        read_scores([first, second])


def test_a_file_without_per_topic_rows_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "run_id\tmeasure\ttopic\tvalue\nr1\tMAiP\tall\t0.3\n")
    with pytest.raises(FormatError, match="no per-topic rows"):
        read_scores([path])
