"""The INEX 2005 two-phase rules: every rule, every propagation, the reset on conflict."""

from __future__ import annotations

import pytest

from focal.evaluation.relevance.derivation import SpanElement
from focal.evaluation.relevance.twophase import (
    DEFAULT_TOO_SMALL,
    RULE_ALL,
    RULE_AUTOMATIC,
    RULE_EXHAUSTIVE,
    RULE_GAIN,
    RULE_ONLY,
    RULE_TOO_SMALL,
    ElementValue,
    TwoPhaseError,
    TwoPhaseState,
    start_two_phase,
)
from focal.evaluation.relevance.twophase_status import rule_status
from focal.evaluation.text.document import Document

ART, SEC1, P1, P2, IT, SEC2, P3 = (
    "/article[1]",
    "/article[1]/sec[1]",
    "/article[1]/sec[1]/p[1]",
    "/article[1]/sec[1]/p[2]",
    "/article[1]/sec[1]/p[2]/it[1]",
    "/article[1]/sec[2]",
    "/article[1]/sec[2]/p[1]",
)
TABLE = [
    SpanElement(ART, 0, 200, -1),
    SpanElement(SEC1, 0, 100, 0),
    SpanElement(P1, 0, 40, 1),
    SpanElement(P2, 40, 100, 1),
    SpanElement(IT, 50, 60, 3),
    SpanElement(SEC2, 100, 200, 0),
    SpanElement(P3, 100, 200, 5),
]
# (30, 55) touches the article, sec1, p1 [30,40), p2 [40,55) and it [50,55); sec2 and p3 nothing.
HIGHLIGHTED = [ART, SEC1, P1, P2, IT]


def fresh() -> TwoPhaseState:
    return start_two_phase(TABLE, [(30, 55)]).state


def values(state: TwoPhaseState) -> dict[str, str | None]:
    return {path: state.value_of(path) for path in HIGHLIGHTED}


def test_c_rule_all_every_highlighted_element_needs_a_value() -> None:
    state = fresh()
    assert state.needs_value == tuple(HIGHLIGHTED)
    assert not state.complete
    for path, value in zip(HIGHLIGHTED, ["1", "1", "0", "1", "0"], strict=True):
        state = state.assess(path, value).state
    assert state.needs_value == () and state.complete
    status = {s.rule: s for s in rule_status(state)}
    assert status[RULE_ALL].satisfied and status[RULE_ALL].status == "5 of 5 elements have a value"


def test_c_rule_only_refuses_elements_without_highlighted_text() -> None:
    state = fresh()
    for path in (SEC2, P3):
        with pytest.raises(TwoPhaseError, match="C-Rule ONLY"):
            state.assess(path, "0")
    with pytest.raises(TwoPhaseError, match="no element"):
        state.assess("/article[1]/nothing[1]", "1")
    with pytest.raises(TwoPhaseError, match=r"one of 2, 1, 0, \?"):
        state.assess(P1, "3")


def test_too_small_propagates_to_descendants_only() -> None:
    state = fresh().assess(P1, "1").state
    step = state.assess(SEC1, "?")
    # p2 and it have no value: they become ?; p1 has the assessor's 1 and keeps it, so sec1
    # (? < 1) is reset and flagged by GAIN instead.
    assert [(c.path, c.before, c.after, c.rule) for c in step.changes] == [
        (SEC1, None, "?", "assessor"),
        (P2, None, "?", RULE_TOO_SMALL),
        (IT, None, "?", RULE_TOO_SMALL),
        (SEC1, "?", None, RULE_GAIN),
    ]
    assert values(step.state) == {ART: None, SEC1: None, P1: "1", P2: "?", IT: "?"}
    assert step.state.sources[3] == "propagated" and step.state.flag_of(SEC1) is not None


def test_too_small_does_not_reach_descendants_without_highlight() -> None:
    step = fresh().assess(ART, "?")
    assert {c.path for c in step.changes} == set(HIGHLIGHTED)  # not sec2 nor p3
    assert step.state.value_of(SEC2) is None and step.state.value_of(P3) is None


def test_two_propagates_to_ancestors_only() -> None:
    step = fresh().assess(IT, "2")
    assert [(c.path, c.after, c.rule) for c in step.changes] == [
        (IT, "2", "assessor"),
        (P2, "2", RULE_EXHAUSTIVE),
        (SEC1, "2", RULE_EXHAUSTIVE),
        (ART, "2", RULE_EXHAUSTIVE),
    ]
    assert step.state.value_of(P1) is None  # a sibling is not an ancestor


def test_gain_resets_and_flags_the_parent_that_is_less_exhaustive() -> None:
    state = fresh().assess(ART, "1").state.assess(SEC1, "0").state
    step = state.assess(P1, "1")
    assert values(step.state) == {ART: "1", SEC1: None, P1: "1", P2: None, IT: None}
    assert [(c.path, c.before, c.after, c.rule) for c in step.changes] == [
        (P1, None, "1", "assessor"),
        (SEC1, "0", None, RULE_GAIN),
    ]
    flag = step.state.flag_of(SEC1)
    assert flag is not None and P1 in flag and "re-assess" in flag
    assert SEC1 in step.state.needs_value  # a reset element needs a value again
    status = {s.rule: s for s in rule_status(step.state)}
    assert not status[RULE_GAIN].satisfied
    assert status[RULE_GAIN].status == "1 element(s) flagged for re-assessment"


def test_gain_looks_past_the_parent_to_every_ancestor() -> None:
    state = fresh().assess(ART, "0").state
    step = state.assess(P1, "1")  # sec1 has no value; the article is still less exhaustive
    assert step.state.value_of(ART) is None and step.state.flag_of(ART) is not None


def test_gain_resets_the_ancestor_even_when_it_was_given_last() -> None:
    state = fresh().assess(P1, "1").state
    step = state.assess(SEC1, "0")
    assert step.state.value_of(SEC1) is None and step.state.value_of(P1) == "1"
    assert step.state.flag_of(SEC1) is not None
    assert [c.rule for c in step.changes] == ["assessor", RULE_GAIN]


def test_too_small_parent_is_reset_when_a_child_is_given_a_value() -> None:
    state = fresh().assess(SEC1, "?").state
    assert values(state) == {ART: None, SEC1: "?", P1: "?", P2: "?", IT: "?"}
    step = state.assess(P1, "0")  # ? < 0: the child is no longer too small, the parent cannot be
    assert values(step.state) == {ART: None, SEC1: None, P1: "0", P2: "?", IT: "?"}
    assert step.state.flag_of(SEC1) is not None


def test_equal_values_and_too_small_children_are_no_conflict() -> None:
    state = fresh()
    for path, value in [(ART, "1"), (SEC1, "1"), (P1, "1"), (P2, "0"), (IT, "?")]:
        state = state.assess(path, value).state
    assert state.flagged == {} and state.complete


def test_giving_a_value_clears_the_flag() -> None:
    state = fresh().assess(SEC1, "0").state.assess(P1, "1").state
    assert state.flag_of(SEC1) is not None
    state = state.assess(SEC1, "1").state
    assert state.flag_of(SEC1) is None and state.flagged == {}


def test_clear_removes_one_value_without_propagation() -> None:
    state = fresh().assess(IT, "2").state
    step = state.clear(P2)
    assert values(step.state) == {ART: "2", SEC1: "2", P1: None, P2: None, IT: "2"}
    assert state.clear(P1).changes == ()


def test_automatic_too_small_below_the_threshold() -> None:
    assert DEFAULT_TOO_SMALL == 55
    step = start_two_phase(TABLE, [(30, 55)], too_small_below=DEFAULT_TOO_SMALL)
    # p1 has 40 characters and it 10: under 55; p2 (60), sec1 (100), article (200) are not.
    assert values(step.state) == {ART: None, SEC1: None, P1: "?", P2: None, IT: "?"}
    assert {c.path: c.rule for c in step.changes} == {P1: RULE_AUTOMATIC, IT: RULE_AUTOMATIC}
    assert step.state.sources[2] == "automatic"
    # the assessor may overrule it
    assert step.state.assess(P1, "1").state.value_of(P1) == "1"
    status = {s.rule: s for s in rule_status(step.state)}
    assert status[RULE_AUTOMATIC].status.endswith("2 set to ? automatically")
    assert {s.rule: s for s in rule_status(fresh())}[RULE_AUTOMATIC].status == "off"


def test_records_round_trip_and_only_drops_values_that_lost_their_highlight() -> None:
    state = fresh().assess(SEC1, "0").state.assess(P1, "1").state.assess(IT, "?").state
    records = state.records()
    assert ElementValue(SEC1, None, None, state.flag_of(SEC1)) in records
    restored = start_two_phase(TABLE, [(30, 55)], saved=records)
    assert restored.changes == ()
    assert restored.state.values == state.values and restored.state.flags == state.flags
    # the highlight shrinks to (30, 45): `it` [50,60) no longer intersects it
    shrunk = start_two_phase(TABLE, [(30, 45)], saved=records)
    assert [(c.path, c.before, c.rule) for c in shrunk.changes] == [(IT, "?", RULE_ONLY)]
    assert shrunk.state.value_of(IT) is None and IT not in shrunk.state.needs_value


def test_restoring_an_inconsistent_state_enforces_gain() -> None:
    saved = [ElementValue(SEC1, "0", "assessor"), ElementValue(P2, "2", "assessor")]
    step = start_two_phase(TABLE, [(30, 55)], saved=saved)
    assert step.state.value_of(SEC1) is None and step.state.flag_of(SEC1) is not None


def test_works_on_a_parsed_document() -> None:
    document = Document.from_bytes(b"<a><b>one</b><c>two three</c></a>", "d")
    state = start_two_phase(document.elements, [(4, 7)]).state
    assert state.needs_value == ("/a[1]", "/a[1]/c[1]")
    assert [(e.path, e.depth, e.rsize, e.size) for e in state.elements()] == [
        ("/a[1]", 0, 3, 12),
        ("/a[1]/c[1]", 1, 3, 9),
    ]
    state = state.assess("/a[1]/c[1]", "2").state
    assert state.exhaustivity() == {"/a[1]": "2", "/a[1]/c[1]": "2"}
