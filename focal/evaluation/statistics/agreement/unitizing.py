"""Krippendorff's unitizing alpha (α_U) of assessors' passages (spec section 7).

Krippendorff (1995; 2004, *Content Analysis* §11.6, and *Quality & Quantity* 38) measures how
far observers agree on where units begin and end in a continuum. Here the continuum is an
article's text, a unit is a highlighted passage (one category, "relevant") and everything
between units is a gap; each observer's units and gaps cover the article once.

- Distance of two overlapping segments g and h (begin b, length l): both units →
  (b_g − b_h)² + (b_g + l_g − b_h − l_h)²; a unit lying wholly inside the other's gap → l_unit²;
  otherwise (gap against gap, a unit only partly in a gap, no overlap) 0.
- Observed disagreement D_o: the distances summed over every ordered pair of observers and
  their overlapping segments, divided by m(m − 1)L².
- Expected disagreement D_e: from all units and gaps of all observers pooled, the distance
  expected if every unit were placed anywhere a gap of the pool could hold it (Krippendorff's
  closed form, `expected_disagreement`).
- α_U = 1 − D_o/D_e; None when D_e is 0 (no unit at all, or nothing a unit could move into).

Several articles (a topic, or all topics) form one continuum: the articles side by side, L the
sum of their lengths, segments never crossing from one article into the next (a gap ends with
its article). Sums over articles, not a mean of per-article values, so long articles weigh
more, as longer stretches of text do in Krippendorff's single continuum.

Articles one assessor found relevant and the other not are in the continuum: the relevant
side's passages lie in the other's gap (the whole article), the largest disagreement a unit can
have. Articles that both judged not relevant are pure gap: they add length and no observed
disagreement. Which articles enter is the caller's choice (`assessors.topic_agreement` passes
the articles both assessors judged).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from focal.evaluation.formats.records import Span, merge_passages


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of one observer's continuum: a unit (highlighted) or a gap."""

    begin: int
    length: int
    unit: bool

    @property
    def end(self) -> int:
        return self.begin + self.length


@dataclass(frozen=True, slots=True)
class UnitizedArticle:
    """One article as every observer divided it: its length and each observer's passages."""

    length: int
    passages: tuple[tuple[Span, ...], ...]  # one tuple of (start, end) spans per observer


def unit_spans(length: int, passages: Sequence[Span]) -> list[Span]:
    """One observer's units of an article, in order: the passages merged where they overlap or
    touch (`merge_passages`) and clipped to [0, length); no two units touch.

    >>> unit_spans(10, [(2, 4), (4, 5), (8, 12)])
    [(2, 5), (8, 10)]
    """
    if len(passages) < 2:  # most sides: none or one passage, nothing to merge
        if not passages:
            return []
        start, end = passages[0]
        start, end = max(start, 0), min(end, length)
        return [(start, end)] if end > start else []
    out: list[Span] = []
    for start, end in merge_passages(passages):
        start, end = max(start, 0), min(end, length)
        if end > start:
            out.append((start, end))
    return out


def segments(length: int, passages: Sequence[Span]) -> list[Segment]:
    """One observer's units and gaps, in order, covering [0, length) once.

    Overlapping or touching passages merge into one unit; passages are clipped to the article.

    >>> [(s.begin, s.length, s.unit) for s in segments(10, [(2, 4), (4, 5)])]
    [(0, 2, False), (2, 3, True), (5, 5, False)]
    """
    out: list[Segment] = []
    position = 0
    for start, end in unit_spans(length, passages):
        if start > position:
            out.append(Segment(position, start - position, False))
        out.append(Segment(start, end - start, True))
        position = end
    if position < length:
        out.append(Segment(position, length - position, False))
    return out


def distance(g: Segment, h: Segment) -> int:
    """Krippendorff's squared distance δ² of two segments of different observers.

    Worked (spec section 7, the book's example): units (75, 70) and (70, 80) → 5² + 5² = 50;
    a unit (250, 20) inside a gap (250, 50) → 20² = 400.

    >>> distance(Segment(75, 70, True), Segment(70, 80, True))
    50
    >>> distance(Segment(250, 50, False), Segment(250, 20, True))
    400
    """
    if g.unit and h.unit:
        if g.begin < h.end and h.begin < g.end:
            return (g.begin - h.begin) ** 2 + (g.end - h.end) ** 2
        return 0
    if g.unit != h.unit:
        unit, gap = (g, h) if g.unit else (h, g)
        if gap.begin <= unit.begin and unit.end <= gap.end:
            return unit.length**2
    return 0


def observed_sum(first: Sequence[Span], second: Sequence[Span]) -> int:
    """Σ δ² (`distance`) over the overlapping segments of two observers of one article, one
    direction, from their `unit_spans` alone.

    Each observer's units and gaps alternate and cover the article, so a unit that overlaps no
    unit of the other lies wholly inside one of the other's gaps (δ² its length squared), and a
    unit that overlaps one lies inside no gap (δ² 0 against every gap); gap against gap is 0.
    The sum is therefore the units' overlapping pairs plus the lone units of either side, met
    in one sweep over the two lists of units (tests/evaluation/statistics/
    test_unitizing_sweep.py checks it against every pair of segments).

    >>> observed_sum([(75, 145), (220, 250)], [(70, 150), (205, 225), (250, 270)])
    1300
    """
    total = i = j = 0
    met_first = met_second = False  # whether first[i], second[j] overlapped a unit yet
    while i < len(first) and j < len(second):
        begin_g, end_g = first[i]
        begin_h, end_h = second[j]
        if begin_g < end_h and begin_h < end_g:
            total += (begin_g - begin_h) ** 2 + (end_g - end_h) ** 2
            met_first = met_second = True
        if end_g <= end_h:
            if not met_first:
                total += (end_g - begin_g) ** 2
            i, met_first = i + 1, False
        else:
            if not met_second:
                total += (end_h - begin_h) ** 2
            j, met_second = j + 1, False
    for k in range(i, len(first)):
        if not (k == i and met_first):
            total += (first[k][1] - first[k][0]) ** 2
    for k in range(j, len(second)):
        if not (k == j and met_second):
            total += (second[k][1] - second[k][0]) ** 2
    return total


def expected_disagreement(
    unit_lengths: Sequence[int], gap_lengths: Sequence[int], length: int, observers: int
) -> Fraction:
    """Krippendorff's D_e from the pooled units and gaps of every observer.

    D_e = (2/L) Σ_g [(N − 1)(2l_g³ − 3l_g² + l_g)/3 + l_g² Σ_{h: l_h ≥ l_g} (l_h − l_g + 1)]
          / (mL(mL − 1) − Σ_g l_g(l_g − 1)),
    g over all N units, h over all gaps, m observers, L the continuum's length. The inner sum
    over gaps comes from sorted gap lengths and their running sums (numpy), once per distinct
    unit length; the outer sums stay in Python integers, exact however long the continuum
    (a cube of a 400,000-character unit times 100,000 units leaves int64 far behind).
    """
    import numpy as np  # loaded only when α_U is computed, as `krippendorff` is

    units = np.asarray(unit_lengths, dtype=np.int64)
    n = len(units)
    sizes, counts = np.unique(units, return_counts=True)
    gaps = np.sort(np.asarray(gap_lengths, dtype=np.int64))
    # suffix[k]: the sum of the k longest gaps, at most the m·L characters every gap covers
    exact = np.int64 if observers * length < 2**62 else object  # object: Python integers
    suffix = np.concatenate(([0], np.cumsum(gaps[::-1].astype(exact)))).astype(exact)
    room = len(gaps) - np.searchsorted(gaps, sizes, side="left")  # gaps at least as long
    fits = suffix[room] - room.astype(exact) * (sizes.astype(exact) - 1)
    thrice = 0  # 3 × the numerator's sum, kept in integers (exact)
    squares = 0  # Σ_g l_g(l_g − 1)
    for size, count, fit in zip(sizes.tolist(), counts.tolist(), fits.tolist(), strict=True):
        thrice += count * ((n - 1) * (2 * size**3 - 3 * size**2 + size) + 3 * size**2 * fit)
        squares += count * size * (size - 1)
    denominator = observers * length * (observers * length - 1) - squares
    if denominator <= 0:
        return Fraction(0)
    return Fraction(2 * thrice, 3 * length * denominator)


@dataclass(frozen=True, slots=True)
class Unitizing:
    """α_U with its two disagreements, over one continuum of articles."""

    observed: float
    expected: float
    alpha: float | None


@dataclass(frozen=True, slots=True)
class Continuum:
    """What α_U needs of a stretch of articles, and no more: the observed Σ δ² (every ordered
    pair of observers), the length, and every observer's unit and gap lengths.

    Continua side by side (`joined`) are one continuum: the sums add and the lengths pool, so
    α_U of many topics comes from each topic's continuum without reading an article again.
    """

    observers: int | None  # None: no article
    length: int
    observed: int
    units: tuple[int, ...]
    gaps: tuple[int, ...]


class ContinuumBuilder:
    """Articles added one by one into one continuum (`continuum`; `assessors.topic_continuum`
    adds a topic's articles without building an `UnitizedArticle` for each).

    An article nobody highlighted is one gap per observer and adds no disagreement: most
    articles of a campaign, taken without cutting them into segments. Units and gaps are kept
    in the order of the articles, each article's observers in turn.
    """

    def __init__(self) -> None:
        self.observers: int | None = None
        self.length = 0
        self.observed = 0
        self.units: list[int] = []
        self.gaps: list[int] = []

    def add(self, length: int, passages: Sequence[Sequence[Span]]) -> None:
        """One article: its length and each observer's passages (ValueError unless every
        article has the same observers)."""
        observers = len(passages)
        if self.observers != observers:
            if self.observers is not None:
                raise ValueError("every article needs the same observers")
            self.observers = observers
        self.length += length
        if not any(passages):
            if length > 0:
                self.gaps.extend([length] * observers)
            return
        cut = [unit_spans(length, spans) for spans in passages]
        for first, second in combinations(cut, 2):  # δ² is symmetric: each pair counts twice
            self.observed += 2 * observed_sum(first, second)
        units, gaps = self.units, self.gaps
        for each in cut:
            position = 0
            for start, end in each:
                units.append(end - start)
                if start > position:
                    gaps.append(start - position)
                position = end
            if position < length:
                gaps.append(length - position)

    def build(self) -> Continuum:
        """The continuum of every article added so far."""
        return Continuum(
            self.observers, self.length, self.observed, tuple(self.units), tuple(self.gaps)
        )


def continuum(articles: Iterable[UnitizedArticle]) -> Continuum:
    """The articles as one continuum (ValueError unless every article has the same observers)."""
    builder = ContinuumBuilder()
    for article in articles:
        builder.add(article.length, article.passages)
    return builder.build()


def joined(parts: Iterable[Continuum]) -> Continuum:
    """Continua side by side as one (ValueError when their observers differ)."""
    observers: int | None = None
    length = observed = 0
    units: list[int] = []
    gaps: list[int] = []
    for part in parts:
        if part.observers is None:
            continue
        if observers is not None and observers != part.observers:
            raise ValueError("every article needs the same observers")
        observers = part.observers
        length += part.length
        observed += part.observed
        units.extend(part.units)
        gaps.extend(part.gaps)
    return Continuum(observers, length, observed, tuple(units), tuple(gaps))


def continuum_alpha(part: Continuum) -> Unitizing | None:
    """α_U of one continuum; None without any text or any observer pair."""
    observers, length = part.observers, part.length
    if observers is None or observers < 2 or length == 0:
        return None
    d_o = Fraction(part.observed, observers * (observers - 1) * length**2)
    d_e = expected_disagreement(part.units, part.gaps, length, observers)
    alpha = None if d_e == 0 else float(1 - d_o / d_e)
    return Unitizing(float(d_o), float(d_e), alpha)


def unitizing_alpha(articles: Iterable[UnitizedArticle]) -> Unitizing | None:
    """α_U of the articles taken as one continuum; None without any text or any observer pair.

    Worked (spec section 7; Krippendorff 2004 p. 254): L = 300, A's units (75, 70), (220, 30),
    B's (70, 80), (205, 20), (250, 20): D_o = 1300/90000, D_e ≈ 0.0532, α_U ≈ 0.7286.

    >>> article = UnitizedArticle(
    ...     300, (((75, 145), (220, 250)), ((70, 150), (205, 225), (250, 270)))
    ... )
    >>> result = unitizing_alpha([article])
    >>> round(result.observed, 4), round(result.expected, 4), round(result.alpha, 4)
    (0.0144, 0.0532, 0.7286)
    """
    return continuum_alpha(continuum(articles))
