"""α_U's continuum from units alone (`unitizing.observed_sum` over `unit_spans`, built by
`ContinuumBuilder`) is exactly what the segment-by-segment computation gave: the same observed
sum, length, and unit and gap lengths in the same order, on random articles that include the
awkward inputs (passages out of the article, empty, reversed, touching, overlapping; articles of
length 0; two and three observers). `assessors.topic_continuum` is `continuum(unitized(...))`.
"""

from __future__ import annotations

import random
from itertools import combinations, product

from focal.evaluation.formats.records import Judgement, Span
from focal.evaluation.statistics.agreement.assessors import topic_continuum, unitized
from focal.evaluation.statistics.agreement.unitizing import (
    Continuum,
    UnitizedArticle,
    continuum,
    distance,
    observed_sum,
    segments,
    unit_spans,
)

CASES = 3000


def segment_continuum(articles: list[UnitizedArticle]) -> Continuum:
    """The continuum as it was computed before: every observer cut into segments, δ² summed
    over every pair of segments of two observers (no sweep), lengths read off the segments."""
    length = observed = 0
    observers: int | None = None
    units: list[int] = []
    gaps: list[int] = []
    for article in articles:
        observers = len(article.passages)
        length += article.length
        if not any(article.passages):
            if article.length > 0:
                gaps.extend([article.length] * observers)
            continue
        cut = [segments(article.length, spans) for spans in article.passages]
        for first, second in combinations(cut, 2):
            observed += 2 * sum(distance(g, h) for g, h in product(first, second))
        for each in cut:
            units.extend(s.length for s in each if s.unit)
            gaps.extend(s.length for s in each if not s.unit)
    return Continuum(observers, length, observed, tuple(units), tuple(gaps))


def random_spans(rng: random.Random, length: int) -> tuple[Span, ...]:
    """Up to five passages, some outside [0, length), empty, reversed, touching or overlapping;
    often none, often one (as most qrels lines)."""
    count = rng.choice([0, 0, 1, 1, 1, 2, 3, 5])
    spans: list[Span] = []
    for _ in range(count):
        start = rng.randrange(-5, length + 6)
        kind = rng.random()
        if kind < 0.1:
            end = start  # empty
        elif kind < 0.15:
            end = start - rng.randrange(1, 5)  # reversed
        elif kind < 0.3 and spans:
            start = spans[-1][1]  # touching the previous one
            end = start + rng.randrange(1, 20)
        else:
            end = start + rng.randrange(1, max(2, length // 2 + 2))
        spans.append((start, end))
    if rng.random() < 0.7:
        spans.sort()
    return tuple(spans)


def random_articles(rng: random.Random, observers: int) -> list[UnitizedArticle]:
    return [
        UnitizedArticle(length, tuple(random_spans(rng, length) for _ in range(observers)))
        for length in (rng.choice([0, 1, 2, 7, 40, 300]) for _ in range(rng.randrange(1, 6)))
    ]


def test_the_sweep_over_units_is_the_sum_over_every_pair_of_segments() -> None:
    rng = random.Random(2004)
    for _ in range(CASES):
        length = rng.choice([1, 5, 40, 300])
        first, second = random_spans(rng, length), random_spans(rng, length)
        literal = sum(
            distance(g, h) for g, h in product(segments(length, first), segments(length, second))
        )
        assert observed_sum(unit_spans(length, first), unit_spans(length, second)) == literal


def test_continua_are_those_of_the_segments_exactly() -> None:
    rng = random.Random(1995)
    nonzero = 0
    for case in range(CASES):
        articles = random_articles(rng, 3 if case % 4 == 0 else 2)
        found = continuum(articles)
        assert found == segment_continuum(articles), articles
        nonzero += found.observed > 0
    assert nonzero > CASES // 2, "most cases have a disagreement to sum"


def line(article: str, length: int, spans: tuple[Span, ...]) -> Judgement:
    rel = sum(max(0, end - start) for start, end in spans)
    return Judgement("1", article, rel, length, None, spans, 0)


def test_a_topics_continuum_is_the_continuum_of_its_unitized_articles() -> None:
    rng = random.Random(2010)
    for _ in range(CASES // 10):
        judged_a: dict[str, Judgement] = {}
        judged_b: dict[str, Judgement] = {}
        for number in range(rng.randrange(0, 30)):
            article, length = str(number), rng.choice([0, 10, 300])
            if rng.random() < 0.9:
                judged_a[article] = line(article, length, random_spans(rng, length))
            if rng.random() < 0.9:  # a line's recorded length may be shorter than a passage
                judged_b[article] = line(article, rng.choice([0, length]), random_spans(rng, 50))
        expected = continuum(unitized(judged_a, judged_b))
        assert topic_continuum(judged_a, judged_b) == expected
        assert expected == segment_continuum(unitized(judged_a, judged_b))
