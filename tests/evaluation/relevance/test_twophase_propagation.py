"""Propagation never overwrites an assessor's value: a conflict is GAIN's reset-and-flag
(seed 003 §4.2.2: a section given E1 whose only paragraph is then given E2 is reset and marked
for re-assessment), in both orders, for the too-small case, and as a property of any sequence
of actions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.relevance.derivation import SpanElement
from focal.evaluation.relevance.twophase import (
    RANK,
    RULE_GAIN,
    TwoPhaseError,
    TwoPhaseState,
    start_two_phase,
)

ART, SEC, PARA = "/article[1]", "/article[1]/sec[1]", "/article[1]/sec[1]/p[1]"
# A section containing one paragraph, inside the article; everything highlighted.
TABLE = [SpanElement(ART, 0, 300, -1), SpanElement(SEC, 0, 200, 0), SpanElement(PARA, 0, 200, 1)]


def fresh() -> TwoPhaseState:
    return start_two_phase(TABLE, [(0, 200)]).state


def test_section_partly_then_its_paragraph_highly_exhaustive() -> None:
    # The seed's example: section 1, then its only paragraph 2. "2 propagates to ancestors"
    # must not turn the section into 2: its 1 conflicts with the paragraph's 2, so GAIN resets
    # it and flags it; the article, which had no value, is filled with 2.
    step = fresh().assess(SEC, "1").state.assess(PARA, "2")
    state = step.state
    assert state.value_of(PARA) == "2" and state.value_of(ART) == "2"
    assert state.value_of(SEC) is None
    flag = state.flag_of(SEC)
    assert flag is not None and "re-assess" in flag
    assert (SEC, "1", None, RULE_GAIN) in [
        (c.path, c.before, c.after, c.rule) for c in step.changes
    ]


def test_paragraph_highly_then_its_section_partly_exhaustive() -> None:
    # The other order: paragraph 2 (which fills section and article with 2 by propagation),
    # then the assessor gives the section 1: the section is the ancestor in conflict: reset and
    # flagged; the paragraph keeps its 2.
    state = fresh().assess(PARA, "2").state
    assert state.value_of(SEC) == "2" and state.sources[1] == "propagated"
    step = state.assess(SEC, "1")
    assert step.state.value_of(PARA) == "2"
    assert step.state.value_of(SEC) is None and step.state.flag_of(SEC) is not None


def test_too_small_section_over_a_highly_exhaustive_paragraph() -> None:
    # Paragraph 2, then its section ?: "? propagates to descendants" must not turn the
    # paragraph into ?; the section (? < 2) is reset and flagged instead.
    step = fresh().assess(PARA, "2").state.assess(SEC, "?")
    assert step.state.value_of(PARA) == "2"
    assert step.state.value_of(SEC) is None and step.state.flag_of(SEC) is not None
    assert not any(c.path == PARA for c in step.changes)


def test_propagation_still_fills_values_that_are_not_the_assessors() -> None:
    # The article got 2 by propagation; a too-small section then replaces the paragraph's
    # propagated value but never the assessor's own.
    state = fresh().assess(SEC, "?").state
    assert state.value_of(PARA) == "?" and state.sources[2] == "propagated"


# -- property: after any sequence of actions GAIN holds, and an assessor's value never changes
# without a flag on it or a change record saying why.

WIDE = [
    SpanElement("/a[1]", 0, 100, -1),
    SpanElement("/a[1]/s[1]", 0, 60, 0),
    SpanElement("/a[1]/s[1]/p[1]", 0, 30, 1),
    SpanElement("/a[1]/s[1]/p[2]", 30, 60, 1),
    SpanElement("/a[1]/s[1]/p[2]/b[1]", 35, 40, 3),
    SpanElement("/a[1]/s[2]", 60, 100, 0),
]
PATHS = [e.path for e in WIDE]
ACTIONS = st.lists(
    st.tuples(st.sampled_from(["assess", "clear"]), st.sampled_from(PATHS),
              st.sampled_from(["2", "1", "0", "?"])),
    max_size=25,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(ACTIONS, st.booleans())
def test_gain_holds_and_assessor_values_change_only_with_a_reason(
    actions: list[tuple[str, str, str]], automatic: bool
) -> None:
    step = start_two_phase(WIDE, [(10, 70)], too_small_below=20 if automatic else None)
    state = step.state
    table = state.table
    for kind, path, value in actions:
        before = state
        try:
            step = before.assess(path, value) if kind == "assess" else before.clear(path)
        except TwoPhaseError:
            continue  # C-Rule ONLY refused it; nothing changed
        state = step.state
        # GAIN: no element is more exhaustive than any ancestor with a value
        for i, v in enumerate(state.values):
            if v is None:
                continue
            for a in table.ancestors(i):
                above = state.values[a]
                assert above is None or RANK[above] >= RANK[v], (table.paths[i], table.paths[a])
        # an assessor's value changed only by the action on that element or with a reason
        explained = {c.path for c in step.changes if c.rule == RULE_GAIN}
        for i, (old, source) in enumerate(zip(before.values, before.sources, strict=True)):
            if source != "assessor" or state.values[i] == old or table.paths[i] == path:
                continue
            assert state.flags[i] is not None and table.paths[i] in explained, table.paths[i]
