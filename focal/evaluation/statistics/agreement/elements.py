"""Element-level agreement of two assessors of one topic (spec section 7; seed 003 Table X).

Each assessor's relevant elements are those with highlighted text and an exhaustivity other
than `0` (on the implicit 2006 scale every element with highlighted text; on the 2005 scale the
assessor's `2`, `1` or too small `?`), keyed by article and path. Over the elements relevant
for either assessor (the union, U):

- `elements_agreement`: relevant for both (N) / U, seed 003's "N/U";
- `same_exhaustivity`: relevant for both with the same exhaustivity value / U;
- `spec_within_0.1`, `_0.5`, `_0.9`: relevant for both with specificities less than m apart / U;
- `exact`: relevant for both with the same exhaustivity AND the same specificity on the
  three-point scale Pehcevski & Thom used for it (seed 003 §5.2.6, spec section 5: (0, 0.33]
  -> 1, (0.33, 0.67] -> 2, (0.67, 1] -> 3), the "exact element agreement" of Table IX.

Every ratio is None when no element is relevant for either; the `all` row sums the counts and
averages the ratios over the topics where they are defined (Table X's "Mean" row).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.statistics.agreement.assessors import Cell, mean_defined, ratio

MARGINS = (0.1, 0.5, 0.9)
ELEMENT_COLUMNS = (
    "elements_a",
    "elements_b",
    "elements_both",
    "elements_agreement",
    "exact",
    "same_exhaustivity",
    "spec_within_0.1",
    "spec_within_0.5",
    "spec_within_0.9",
)
"""The columns `--elements` adds to an agreement table, in order."""

Key = tuple[str, str]  # (article, path)
Value = tuple[str, float]  # (exhaustivity, specificity)


@dataclass(frozen=True, slots=True)
class ElementAgreement:
    """The element-level agreement of one topic, or the `all` row."""

    topic: str
    elements_a: int
    elements_b: int
    elements_both: int
    elements_agreement: float | None
    exact: float | None
    same_exhaustivity: float | None
    spec_within: tuple[float | None, ...]  # one per margin of MARGINS

    def cells(self) -> dict[str, Cell]:
        """The row by column name, as `ELEMENT_COLUMNS` names them."""
        values: list[Cell] = [getattr(self, f.name) for f in fields(self)][1:7]
        return dict(zip(ELEMENT_COLUMNS, [*values, *self.spec_within], strict=True))


def three_point(specificity: float) -> int:
    """Specificity on the three-point scale: 0 stays 0, then (0, .33] 1, (.33, .67] 2, else 3.

    >>> [three_point(s) for s in (0.0, 0.2, 0.33, 0.5, 0.67, 0.9, 1.0)]
    [0, 1, 1, 2, 2, 3, 3]
    """
    if specificity <= 0:
        return 0
    if specificity <= 0.33:
        return 1
    return 2 if specificity <= 0.67 else 3


def relevant_elements(articles: Iterable[ArticleElements]) -> dict[Key, Value]:
    """(article, path) -> (exhaustivity, specificity) of every relevant element."""
    return {
        (record.article, record.path): (record.exhaustivity, record.specificity)
        for article in articles
        for record in article.elements
        if record.rsize > 0 and record.exhaustivity != "0"
    }


def element_agreement(
    topic: str, articles_a: Iterable[ArticleElements], articles_b: Iterable[ArticleElements]
) -> ElementAgreement:
    """The element-level agreement of two assessors' element records of one topic."""
    a, b = relevant_elements(articles_a), relevant_elements(articles_b)
    both = a.keys() & b.keys()
    union = len(a.keys() | b.keys())
    same_e = [key for key in both if a[key][0] == b[key][0]]
    exact = sum(1 for key in same_e if three_point(a[key][1]) == three_point(b[key][1]))
    within = [sum(1 for key in both if abs(a[key][1] - b[key][1]) < margin) for margin in MARGINS]
    return ElementAgreement(
        topic=topic,
        elements_a=len(a),
        elements_b=len(b),
        elements_both=len(both),
        elements_agreement=ratio(len(both), union),
        exact=ratio(exact, union),
        same_exhaustivity=ratio(len(same_e), union),
        spec_within=tuple(ratio(count, union) for count in within),
    )


def element_summary(rows: Sequence[ElementAgreement]) -> ElementAgreement:
    """The `all` row: counts summed, ratios averaged over the topics where they are defined."""
    return ElementAgreement(
        topic="all",
        elements_a=sum(row.elements_a for row in rows),
        elements_b=sum(row.elements_b for row in rows),
        elements_both=sum(row.elements_both for row in rows),
        elements_agreement=mean_defined(row.elements_agreement for row in rows),
        exact=mean_defined(row.exact for row in rows),
        same_exhaustivity=mean_defined(row.same_exhaustivity for row in rows),
        spec_within=tuple(
            mean_defined(row.spec_within[i] for row in rows) for i in range(len(MARGINS))
        ),
    )
