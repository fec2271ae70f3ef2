"""Element qrels: both layouts, the scale mapping with its cut points, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.elements.qrels import (
    read_element_qrels,
    specificity_grade,
    to_four_grades,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "elements.qrels"
    path.write_text(text, encoding="utf-8")
    return path


def test_four_grade_layout_with_paths_made_canonical(tmp_path: Path) -> None:
    path = write(tmp_path, "1 a /article/bdy[1]/sec[2] 3 2\n\n1 a /article[1] 1 1\n2 b /x[1] 0 0\n")
    qrels = read_element_qrels(path)
    assert qrels.scale == "2004"
    assert list(qrels.topics) == ["1", "2"]
    judged = qrels.topics["1"][("a", "/article[1]/bdy[1]/sec[2]")]
    assert (judged.e4, judged.s4, judged.line, judged.e5) == (3, 2, 1, None)
    assert qrels.topics["1"][("a", "/article[1]")].line == 3


def test_export_layout_maps_to_four_grades(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "1\ta\t/article[1]\t2\t0.5\t5\t10\n"
        "1\ta\t/article[1]/p[1]\t1\t0.33\t33\t100\n"
        "1\ta\t/article[1]/p[2]\t?\t1\t3\t3\n",
    )
    qrels = read_element_qrels(path)
    assert qrels.scale == "2005"
    rows = qrels.topics["1"]
    assert (rows[("a", "/article[1]")].e4, rows[("a", "/article[1]")].s4) == (3, 2)
    assert (rows[("a", "/article[1]/p[1]")].e4, rows[("a", "/article[1]/p[1]")].s4) == (1, 1)
    too_small = rows[("a", "/article[1]/p[2]")]
    assert (too_small.e4, too_small.s4, too_small.e5, too_small.size) == (0, 3, "?", 3)


@pytest.mark.parametrize(
    "share, grade",
    # the published cut points (0, 0.33], (0.33, 0.67], (0.67, 1]: 0.33 and 0.67 close their
    # grade, 0.335 and 0.675 open the next one (exact thirds would put 0.335 in grade 2 too,
    # but 0.67 in grade 3: 0.67 > 2/3)
    [(0.0, 0), (0.33, 1), (0.335, 2), (0.67, 2), (0.675, 3), (1.0, 3), (1e-9, 1)],
)
def test_specificity_cut_points(share: float, grade: int) -> None:
    assert specificity_grade(share) == grade


def test_exhaustivity_mapping() -> None:
    assert [to_four_grades(e, 1.0)[0] for e in ("2", "1", "0", "?")] == [3, 1, 0, 0]


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("1 a /article[1] 0 2\n", 1, "both 0"),
        ("1 a /article[1] 2 2\n1 a /article[1]/p[1] 2 0\n", 2, "both 0"),
        ("1 a /article[1] 4 2\n", 1, "e in 0, 1, 2, 3"),
        ("1 a /article[1] 2 x\n", 1, "s in 0, 1, 2, 3"),
        ("1 a article[1] 2 2\n", 1, "INEX element path"),
        ("1 a /article[0] 2 2\n", 1, "INEX element path"),
        ("1 a /article[1] 2 2\n1 a /article 3 3\n", 2, "once"),
        ("1 a /article[1] 2 2\n1 a /article[1]/p[1] 2\n", 2, "5 fields"),
        ("1 a /article[1] 2\n", 1, "5 fields"),
        ("1\ta\t/a[1]\t0\t0.5\t5\t10\n", 1, "e 0 exactly when s is 0"),
        ("1\ta\t/a[1]\t2\t0\t0\t10\n", 1, "e 0 exactly when s is 0"),
        ("1\ta\t/a[1]\t3\t0.5\t5\t10\n", 1, "0, 1, 2 or ?"),
        ("1\ta\t/a[1]\t2\t1.5\t5\t10\n", 1, "[0, 1]"),
        ("1\ta\t/a[1]\t2\t0.5\t11\t10\n", 1, "rsize <= size"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(FormatError, match=message) as caught:
        read_element_qrels(path)
    assert caught.value.file == str(path) and caught.value.line == line


def test_empty_file(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="empty"):
        read_element_qrels(write(tmp_path, "\n"))
