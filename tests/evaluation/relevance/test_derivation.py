"""Element relevance derived from highlights (spec section 4), checked against hand computation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.formats.records import Judgement, merge_passages
from focal.evaluation.relevance.analytics import elemental_passages
from focal.evaluation.relevance.derivation import (
    SpanElement,
    derive,
    highlighted_in,
)
from focal.evaluation.text.document import Document

# Text, by element (code points):
#   title "Cats" [0,4) | p1 "Cats purr." [4,14) | p2 "Dogs bark." [14,24) | empty [24,24)
#   | sec2/p "Birds sing." [24,35)
ARTICLE = (
    b"<article><title>Cats</title><bdy><sec><p>Cats purr.</p><p>Dogs bark.</p></sec>"
    b"<empty/><sec><p>Birds sing.</p></sec></bdy></article>"
)
A = "/article[1]"
PATHS = [
    A,
    f"{A}/title[1]",
    f"{A}/bdy[1]",
    f"{A}/bdy[1]/sec[1]",
    f"{A}/bdy[1]/sec[1]/p[1]",
    f"{A}/bdy[1]/sec[1]/p[2]",
    f"{A}/bdy[1]/empty[1]",
    f"{A}/bdy[1]/sec[2]",
    f"{A}/bdy[1]/sec[2]/p[1]",
]


@pytest.fixture
def document() -> Document:
    return Document.from_bytes(ARTICLE, "1")


def test_the_small_article_has_the_spans_the_hand_computation_assumes(document: Document) -> None:
    assert document.text == "CatsCats purr.Dogs bark.Birds sing."
    assert [e.path for e in document.elements] == PATHS
    assert [(e.start, e.end) for e in document.elements] == [
        (0, 35), (0, 4), (4, 35), (4, 24), (4, 14), (14, 24), (24, 24), (24, 35), (24, 35),
    ]  # fmt: skip


def test_passages_crossing_boundaries_overlapping_and_empty(document: Document) -> None:
    # (9,19) = "purr.Dogs " crosses p1/p2; (24,29) and (27,30) overlap -> (24,30) "Birds ";
    # (0,0) is empty and highlights nothing.
    result = derive(document.elements, [(27, 30), (9, 19), (24, 29), (0, 0)])
    rows = result.by_path()
    expected = {  # path: (rsize, size, specificity, exhaustivity)
        PATHS[0]: (16, 35, 16 / 35, 2),
        PATHS[1]: (0, 4, 0.0, 0),
        PATHS[2]: (16, 31, 16 / 31, 2),
        PATHS[3]: (10, 20, 0.5, 2),
        PATHS[4]: (5, 10, 0.5, 2),
        PATHS[5]: (5, 10, 0.5, 2),
        PATHS[6]: (0, 0, 0.0, 0),  # no text: specificity 0, never a division by zero
        PATHS[7]: (6, 11, 6 / 11, 2),
        PATHS[8]: (6, 11, 6 / 11, 2),
    }
    for path, (rsize, size, specificity, exhaustivity) in expected.items():
        row = rows[path]
        assert (row.rsize, row.size, row.exhaustivity) == (rsize, size, exhaustivity), path
        assert row.specificity == pytest.approx(specificity, abs=1e-15), path


def test_touching_passages_count_once_and_full_highlight_is_specificity_one(
    document: Document,
) -> None:
    rows = derive(document.elements, [(4, 14), (14, 24), (4, 24)]).by_path()
    assert rows[PATHS[3]].rsize == 20 and rows[PATHS[3]].specificity == 1.0
    assert rows[PATHS[0]].rsize == 20


def test_no_passages_gives_zero_everywhere(document: Document) -> None:
    result = derive(document.elements, [])
    assert result.rsize.tolist() == [0] * 9
    assert result.exhaustivity.tolist() == [0] * 9
    assert list(result.rows(relevant_only=True)) == []


def test_relevant_only_keeps_elements_with_highlighted_text(document: Document) -> None:
    rows = list(derive(document.elements, [(30, 31)]).rows(relevant_only=True))
    assert [row.path for row in rows] == [PATHS[0], PATHS[2], PATHS[7], PATHS[8]]


def test_merge_passages_applies_atom() -> None:
    assert merge_passages([(5, 9), (0, 2), (2, 4), (8, 12), (20, 20)]) == [(0, 4), (5, 12)]
    assert merge_passages([(0, 10), (2, 3)]) == [(0, 10)]
    assert merge_passages([]) == []


def test_elemental_passages(document: Document) -> None:
    def elemental(*passages: tuple[int, int]) -> int:
        line = Judgement("1", "x", 1, 35, passages[0][0], passages, 1)
        return elemental_passages(line, document.elements)

    assert elemental((4, 14)) == 1  # exactly p1
    assert elemental((24, 35)) == 1  # sec2 and its p share a span
    assert elemental((0, 35)) == 1
    assert elemental((9, 19)) == 0  # the lowest common ancestor is sec1 [4,24)
    assert elemental((4, 14), (9, 19), (0, 35)) == 2


def _slow_rsize(spans: list[tuple[int, int]], passages: list[tuple[int, int]]) -> list[int]:
    """Obviously correct oracle: a per-character mask."""
    length = max([e for _, e in spans + passages] + [0])
    mask = [False] * length
    for start, end in passages:
        for i in range(start, end):
            mask[i] = True
    return [sum(mask[start:end]) for start, end in spans]


span = st.tuples(st.integers(0, 60), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1]))


@given(spans=st.lists(span, max_size=15), passages=st.lists(span, max_size=8))
def test_vectorised_rsize_matches_a_character_mask(
    spans: list[tuple[int, int]], passages: list[tuple[int, int]]
) -> None:
    starts = np.array([s for s, _ in spans], dtype=np.int64)
    ends = np.array([e for _, e in spans], dtype=np.int64)
    assert highlighted_in(starts, ends, passages).tolist() == _slow_rsize(spans, passages)


def test_span_elements_work_without_a_parsed_document() -> None:
    table = [SpanElement("/a[1]", 0, 4, -1), SpanElement("/a[1]/b[1]", 1, 3, 0)]
    result = derive(table, [(2, 10)])
    assert result.rsize.tolist() == [2, 1]
    assert result.specificity.tolist() == [0.5, 0.5]
