"""Element-level agreement (seed 003 Table X) on hand-made element records."""

from __future__ import annotations

import pytest

from focal.evaluation.formats.elements.qrels import DerivedElement
from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.statistics.agreement.elements import (
    ELEMENT_COLUMNS,
    element_agreement,
    element_summary,
)


def article(name: str, *elements: tuple[str, str, float]) -> ArticleElements:
    """An article whose elements are (path, exhaustivity, specificity); rsize 0 when s = 0."""
    records = tuple(
        DerivedElement("1", name, path, e, s, 0 if s == 0 else 10, 10) for path, e, s in elements
    )
    return ArticleElements("1", name, 100, 10, records)


def test_elements_relevant_for_both_and_for_either() -> None:
    a = [
        article(
            "x",
            ("/article[1]", "2", 0.2),
            ("/article[1]/p[1]", "2", 1.0),
            ("/article[1]/p[2]", "1", 0.5),
            ("/article[1]/p[3]", "0", 0.0),  # not relevant
        )
    ]
    b = [
        article(
            "x",
            ("/article[1]", "2", 0.25),
            ("/article[1]/p[1]", "1", 0.3),
            ("/article[1]/p[3]", "?", 1.0),
        ),
        article("y", ("/article[1]", "2", 1.0)),
    ]
    row = element_agreement("1", a, b)
    # A: article, p1, p2; B: article, p1, p3 of x and article of y -> both 2, either 5
    assert (row.elements_a, row.elements_b, row.elements_both) == (3, 4, 2)
    assert row.elements_agreement == pytest.approx(2 / 5)
    # same exhaustivity: only x's article (2 and 2); p1 is 2 vs 1
    assert row.same_exhaustivity == pytest.approx(1 / 5)
    # exact: article 0.2 and 0.25 are both grade 1 with the same exhaustivity -> 1/5
    assert row.exact == pytest.approx(1 / 5)
    # |Δs|: article 0.05, p1 0.7 -> within 0.1: 1, within 0.5: 1, within 0.9: 2
    assert row.spec_within == pytest.approx((1 / 5, 1 / 5, 2 / 5))
    assert list(row.cells()) == list(ELEMENT_COLUMNS)


def test_nothing_relevant_leaves_the_ratios_undefined_and_out_of_the_mean() -> None:
    empty = element_agreement("2", [], [])
    assert empty.elements_agreement is None and empty.spec_within == (None, None, None)
    full = element_agreement(
        "1", [article("x", ("/a[1]", "2", 1.0))], [article("x", ("/a[1]", "2", 1.0))]
    )
    total = element_summary([full, empty])
    assert total.elements_agreement == total.exact == 1.0
    assert (total.elements_a, total.elements_both) == (1, 1)
