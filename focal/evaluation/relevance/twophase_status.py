"""How a two-phase state stands with each INEX 2005 rule, in words a screen can show."""

from __future__ import annotations

from dataclasses import dataclass

from focal.evaluation.relevance.twophase import (
    RULE_ALL,
    RULE_AUTOMATIC,
    RULE_EXHAUSTIVE,
    RULE_GAIN,
    RULE_ONLY,
    RULE_TOO_SMALL,
    TwoPhaseState,
)


@dataclass(frozen=True, slots=True)
class RuleStatus:
    """One rule, what it says, and how the current state stands with it."""

    rule: str
    description: str
    status: str
    satisfied: bool


def rule_status(state: TwoPhaseState) -> list[RuleStatus]:
    """How `state` stands with every rule, in words a screen can show."""
    t = state.table
    needing = [i for i in range(len(t.paths)) if t.needs_value(i)]
    missing = len(state.needs_value)
    flagged = len(state.flagged)
    automatic = sum(1 for i in needing if state.sources[i] == "automatic")
    too_small = (
        f"elements under {state.too_small_below} characters: {automatic} set to ? automatically"
        if state.too_small_below is not None
        else "off"
    )
    return [
        RuleStatus(
            RULE_ALL,
            "every element that intersects a highlight needs a value",
            f"{len(needing) - missing} of {len(needing)} elements have a value",
            missing == 0,
        ),
        RuleStatus(
            RULE_ONLY,
            "no other element may get a value",
            "enforced: elements without highlighted text cannot be assessed",
            True,
        ),
        RuleStatus(
            RULE_GAIN,
            "an element cannot be more exhaustive than its parent; on conflict the ancestor is "
            "reset and flagged",
            f"{flagged} element(s) flagged for re-assessment" if flagged else "no conflict",
            flagged == 0,
        ),
        RuleStatus(RULE_TOO_SMALL, "? given to an element is given to its descendants", "", True),
        RuleStatus(RULE_EXHAUSTIVE, "2 given to an element is given to its ancestors", "", True),
        RuleStatus(RULE_AUTOMATIC, "small elements are too small without asking", too_small, True),
    ]
