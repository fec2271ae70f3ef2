"""Krippendorff's unitizing α_U (spec section 7): the book's example, hand-worked cases, an oracle.

The oracle below is slow and literal: D_o from every pair of segments (no sweep), containment
checked character by character; D_e by placing each unit at every position of every gap and
shifting it against every other unit, instead of the closed form.
"""

from __future__ import annotations

import doctest
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.formats.records import Judgement
from focal.evaluation.statistics.agreement import unitizing
from focal.evaluation.statistics.agreement.assessors import agreement, topic_agreement
from focal.evaluation.statistics.agreement.unitizing import (
    Segment,
    UnitizedArticle,
    continuum,
    continuum_alpha,
    distance,
    expected_disagreement,
    joined,
    segments,
    unitizing_alpha,
)

BOOK = UnitizedArticle(300, (((75, 145), (220, 250)), ((70, 150), (205, 225), (250, 270))))
"""Krippendorff 2004 p. 254, as spec section 7 gives it: (begin, length) turned into spans."""


def test_the_books_example() -> None:
    result = unitizing_alpha([BOOK])
    assert result is not None and result.alpha is not None
    # spec section 7: D_o ≈ 0.0144, D_e ≈ 0.0532, α_U ≈ 0.7286
    assert result.observed == pytest.approx(0.0144, abs=5e-5)
    assert result.expected == pytest.approx(0.0532, abs=5e-5)
    assert result.alpha == pytest.approx(0.7286, abs=5e-5)


def test_the_books_distances() -> None:
    assert distance(Segment(75, 70, True), Segment(70, 80, True)) == 50  # 5² + 5²
    assert distance(Segment(220, 30, True), Segment(205, 20, True)) == 850  # 15² + 25²
    assert distance(Segment(250, 50, False), Segment(250, 20, True)) == 400  # 20²
    # a unit only partly inside the gap, and gap against gap: no distance
    assert distance(Segment(240, 20, True), Segment(250, 50, False)) == 0
    assert distance(Segment(0, 5, False), Segment(0, 9, False)) == 0
    # touching units do not overlap
    assert distance(Segment(0, 5, True), Segment(5, 5, True)) == 0


def test_identical_passages_agree_fully() -> None:
    same = ((10, 20), (40, 45))
    result = unitizing_alpha([UnitizedArticle(100, (same, same))])
    assert result is not None and result.observed == 0 and result.alpha == 1


def test_relevant_for_one_not_relevant_for_the_other_worked_by_hand() -> None:
    # L = 10; A highlights [0, 5), B nothing (B's whole article is one gap (0, 10)).
    # D_o: A's unit lies in B's gap: 5² = 25, both directions 50; / (2·1·10²) = 1/4.
    # D_e: one unit (N = 1, so no unit-unit term), gaps 5 (A's) and 10 (B's):
    #   5² · ((5 − 5 + 1) + (10 − 5 + 1)) = 175; · 2/10 / (20·19 − 5·4) = 35/360.
    # α_U = 1 − (1/4)/(35/360) = 1 − 90/35 = −11/7.
    result = unitizing_alpha([UnitizedArticle(10, (((0, 5),), ()))])
    assert result is not None and result.alpha is not None
    assert result.observed == 0.25
    assert result.expected == pytest.approx(35 / 360)
    assert result.alpha == pytest.approx(-11 / 7)


def test_nothing_highlighted_is_undefined() -> None:
    result = unitizing_alpha([UnitizedArticle(50, ((), ()))])
    assert result is not None and result.alpha is None
    assert unitizing_alpha([]) is None


def test_articles_are_one_continuum_not_a_mean() -> None:
    # two copies of the book's article: the gaps at the seam stay apart, so the pooled value is
    # that of a 600-character continuum, not the mean of two equal values
    pooled = unitizing_alpha([BOOK, BOOK])
    assert pooled is not None and pooled.alpha is not None
    # ordered pairs sum 2 · 1300 per copy: 5200 / (2 · 1 · 600²), half the single D_o
    assert pooled.observed == pytest.approx(5200 / (2 * 600**2))
    assert pooled.alpha == pytest.approx(oracle([BOOK, BOOK]))
    assert pooled.alpha != pytest.approx(0.7286, abs=1e-3)


def oracle(articles: list[UnitizedArticle]) -> float | None:
    """α_U the slow way (see the module docstring)."""
    m = len(articles[0].passages)
    length = sum(article.length for article in articles)
    observed = 0
    units: list[Segment] = []
    gaps: list[Segment] = []
    for article in articles:
        cut = [segments(article.length, spans) for spans in article.passages]
        for first, second in permutations(cut, 2):
            for g in first:
                for h in second:
                    observed += literal_distance(g, h)
        for each in cut:
            units += [s for s in each if s.unit]
            gaps += [s for s in each if not s.unit]
    expected = 0
    for index, g in enumerate(units):
        for other in range(len(units) - 1):  # every other unit: g shifted against a copy
            del other
            expected += sum(2 * k * k for k in range(g.length))
        for h in gaps:
            for begin in range(h.begin, h.end - g.length + 1):  # every place it fits
                expected += literal_distance(Segment(begin, g.length, True), h)
        del index
    denominator = m * length * (m * length - 1) - sum(u.length * (u.length - 1) for u in units)
    d_e = Fraction(2 * expected, length * denominator) if denominator > 0 else Fraction(0)
    if d_e == 0:
        return None
    return float(1 - Fraction(observed, m * (m - 1) * length**2) / d_e)


def literal_distance(g: Segment, h: Segment) -> int:
    chars_g, chars_h = set(range(g.begin, g.end)), set(range(h.begin, h.end))
    if g.unit and h.unit and chars_g & chars_h:
        return (g.begin - h.begin) ** 2 + (g.end - h.end) ** 2
    if g.unit and not h.unit and chars_g <= chars_h:
        return g.length**2
    if h.unit and not g.unit and chars_h <= chars_g:
        return h.length**2
    return 0


spans = st.lists(
    st.tuples(st.integers(0, 40), st.integers(1, 12)).map(lambda p: (p[0], p[0] + p[1])),
    max_size=4,
).map(lambda found: tuple(sorted(found)))
articles = st.lists(st.tuples(st.integers(1, 50), spans, spans, spans), min_size=1, max_size=3).map(
    lambda found: [UnitizedArticle(length, (a, b, c)) for length, a, b, c in found]
)


@given(articles, st.booleans())
def test_agrees_with_the_slow_oracle(found: list[UnitizedArticle], three: bool) -> None:
    if not three:
        found = [UnitizedArticle(a.length, a.passages[:2]) for a in found]
    result = unitizing_alpha(found)
    assert result is not None
    expected = oracle(found)
    if expected is None:
        assert result.alpha is None
    else:
        assert result.alpha == pytest.approx(expected, rel=1e-9, abs=1e-12)


@given(articles)
def test_symmetric_in_the_observers(found: list[UnitizedArticle]) -> None:
    swapped = [UnitizedArticle(a.length, a.passages[::-1]) for a in found]
    one, other = unitizing_alpha(found), unitizing_alpha(swapped)
    assert one is not None and other is not None
    assert one.alpha == other.alpha or one.alpha == pytest.approx(other.alpha)


@given(articles, articles)
def test_continua_side_by_side_are_the_articles_side_by_side(
    first: list[UnitizedArticle], second: list[UnitizedArticle]
) -> None:
    """What a topic keeps (its continuum) pools into exactly α_U of every article at once."""
    pooled = continuum_alpha(joined([continuum(first), continuum([]), continuum(second)]))
    assert pooled == unitizing_alpha([*first, *second])


def test_articles_nobody_highlighted_are_gaps_of_their_whole_length() -> None:
    found = continuum([UnitizedArticle(40, ((), ())), UnitizedArticle(0, ((), ())), BOOK])
    book = continuum([BOOK])
    assert found.length == 340 and found.observed == book.observed == 2 * 1300
    assert sorted(found.gaps) == sorted([40, 40, *book.gaps]) and found.units == book.units
    with pytest.raises(ValueError, match="same observers"):
        joined([book, continuum([UnitizedArticle(10, ((), (), ()))])])


def test_the_closed_form_stays_exact_beyond_64_bits() -> None:
    """Units of 10⁹ characters cube past 2⁶³, and a continuum of 2⁶² characters sums its gaps
    past it: D_e still equals the formula summed literally in Python integers."""
    for units, gaps, length in (
        ([10**9, 10**9, 3, 10**9 + 7], [2 * 10**9, 10**9, 5, 4 * 10**9], 9 * 10**9),
        ([2**40, 7, 2**40], [2**61, 11, 2**61 - 3, 2**41], 2**62),
    ):
        n = len(units)
        numerator = sum(
            Fraction((n - 1) * (2 * g**3 - 3 * g**2 + g), 3)
            + g**2 * sum(h - g + 1 for h in gaps if h >= g)
            for g in units
        )
        denominator = 2 * length * (2 * length - 1) - sum(g * (g - 1) for g in units)
        literal = 2 * numerator / (length * denominator)
        assert expected_disagreement(units, gaps, length, 2) == literal


def judged(article: str, *passages: tuple[int, int], length: int = 300) -> Judgement:
    rel = sum(end - start for start, end in passages)
    return Judgement("1", article, rel, length, passages[0][0] if passages else None, passages, 0)


def test_topic_rows_carry_alpha_u_and_char_f1() -> None:
    a = {"x": judged("x", (75, 145), (220, 250)), "only-a": judged("only-a", (0, 10))}
    b = {"x": judged("x", (70, 150), (205, 225), (250, 270))}
    row = topic_agreement("1", a, b)
    # only article x is judged by both: the book's example
    assert row.alpha_u == pytest.approx(0.7286, abs=5e-5)
    # J1 = 70 + 30 + 10 = 110, J2 = 80 + 20 + 20 = 120; ∩ = [75, 145) 70 + [220, 225) 5 = 75
    assert (row.chars_a, row.chars_b, row.chars_both) == (110, 120, 75)
    assert row.char_f1 == pytest.approx(150 / 230)
    rows, total = agreement({"1": a, "2": a}, {"1": b, "2": b})
    assert total.alpha_u == pytest.approx(oracle([BOOK, BOOK]))
    assert [r.alpha_u for r in rows] == [row.alpha_u, row.alpha_u]


def test_docstrings() -> None:
    assert doctest.testmod(unitizing).failed == 0
