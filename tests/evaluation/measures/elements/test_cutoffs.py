"""P@k and overlap@k: hand-worked examples and a set-based oracle under hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.measures.elements.cutoffs import (
    ElementKey,
    first_partners,
    nested,
    overlap_at,
    precision_at,
)


def test_precision_of_a_short_run() -> None:
    # Three results with gains 1, 0.75, 0 (generalised (3,3), (2,3), not relevant).
    # P@5 = (1 + 0.75 + 0) / 5 = 0.35: the two missing results count 0 and k stays 5.
    # P@1 = 1; P@2 = 1.75 / 2 = 0.875.
    assert precision_at([1.0, 0.75, 0.0], (1, 2, 5)) == {1: 1.0, 2: 0.875, 5: 0.35}


def test_precision_of_an_unanswered_topic_is_zero() -> None:
    assert precision_at([], (5, 10)) == {5: 0.0, 10: 0.0}


def test_overlap_with_nested_results_and_a_short_run() -> None:
    keys: list[ElementKey] = [
        ("a", "/article[1]"),  # 1: contains 2 and 4
        ("a", "/article[1]/sec[1]"),  # 2: inside 1
        ("b", "/article[1]"),  # 3: alone (other article)
        ("a", "/article[1]/sec[2]/p[1]"),  # 4: inside 1, not inside 2
        ("b", "/article[1]/sec[10]"),  # 5: inside 3
    ]
    # R_1 = {1}: nothing nested -> 0/1. R_2: 1 and 2 nested -> 2/2. R_3: 1, 2 -> 2/3.
    # R_4: 1, 2, 4 -> 3/4. R_5: all five -> 5/5. R_10 (short run): 5/10, the missing five
    # count as not overlapping.
    assert overlap_at(keys, (1, 2, 3, 4, 5, 10)) == {
        1: 0.0,
        2: 1.0,
        3: 2 / 3,
        4: 0.75,
        5: 1.0,
        10: 0.5,
    }


def test_sibling_paths_with_a_common_prefix_are_not_nested() -> None:
    # /p[1] is not an ancestor of /p[10]: a path prefix must end at a step.
    keys: list[ElementKey] = [("a", "/x[1]/p[1]"), ("a", "/x[1]/p[10]")]
    assert overlap_at(keys, (2,)) == {2: 0.0}


def test_a_repeated_result_overlaps_its_copy() -> None:
    keys: list[ElementKey] = [("a", "/x[1]"), ("b", "/x[1]"), ("a", "/x[1]")]
    assert overlap_at(keys, (2, 3)) == {2: 0.0, 3: 2 / 3}


def oracle_overlap(keys: list[ElementKey], k: int) -> float:
    """The set definition, directly: R_k and every pair."""
    top = keys[:k]
    count = sum(
        1 for i, r in enumerate(top) if any(j != i and nested(r, o) for j, o in enumerate(top))
    )
    return count / k


ARTICLES = st.sampled_from(["a", "b"])
PATHS = st.lists(st.integers(1, 2), min_size=1, max_size=4).map(
    lambda steps: "/x[1]" + "".join(f"/y[{n}]" for n in steps[1:])
)
KEYS = st.lists(st.tuples(ARTICLES, PATHS), max_size=40)


@settings(max_examples=300, deadline=None)
@given(KEYS)
def test_fast_overlap_equals_the_set_definition(keys: list[ElementKey]) -> None:
    cutoffs = tuple(range(1, len(keys) + 3))
    fast = overlap_at(keys, cutoffs)
    for k in cutoffs:
        assert fast[k] == oracle_overlap(keys, k), k


@settings(max_examples=200, deadline=None)
@given(KEYS)
def test_first_partner_is_the_smallest_nested_index(keys: list[ElementKey]) -> None:
    partners = first_partners(keys)
    for i, key in enumerate(keys):
        others = [j for j, other in enumerate(keys) if j != i and nested(key, other)]
        assert partners[i] == (min(others) if others else len(keys))


def test_a_topic_reads_each_rows_parameter_not_its_name() -> None:
    """The registry parses `P@2` once (`element_selection`); a topic's values come from the
    rows' parameters, so a row named otherwise still gets the value at its cut-off."""
    from focal.evaluation.formats.elements.qrels import ElementJudgement
    from focal.evaluation.measures.elements.rows import ElementRow
    from focal.evaluation.measures.elements.topic import (
        ElementOptions,
        ElementResult,
        evaluate_topic,
    )
    from focal.evaluation.measures.registry.names import element_selection

    judged = {("a", "/article[1]"): ElementJudgement("1", "a", "/article[1]", 3, 3, 1)}
    results = [ElementResult("a", "/article[1]", 2.0, 1), ElementResult("b", "/article[1]", 1.0, 2)]
    rows = element_selection(["P@2", "overlap@k"])
    assert (rows[0].name, rows[0].measure, rows[0].parameter) == ("P@2", "P@k", 2.0)
    renamed = [ElementRow("two", "P@k", 2.0), ElementRow("one", "P@k", 1.0)]
    options = ElementOptions(quant="strict")
    values = evaluate_topic(results, judged, "2004", options, renamed)
    assert values == {"two": 0.5, "one": 1.0}
    assert evaluate_topic(results, judged, "2004", options, rows[:1]) == {"P@2": 0.5}
