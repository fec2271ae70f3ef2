"""The INEX 2005 two-phase assessment rules, as a pure state machine over an element table.

Phase one is highlighting (passages, merged by H-Rule ATOM). In phase two the assessor gives an
exhaustivity value to elements, and the interface enforces these rules (spec section 4; seeds:
the INEX 2005 relevance assessment guide, and Piwowarski, Trotman & Lalmas, "Sound and complete
relevance assessment for XML retrieval", ACM TOIS 27(1), 2008, section 4.2):

- Values: ``2`` highly exhaustive, ``1`` partly exhaustive, ``0`` not exhaustive, ``?`` too small.
- **C-Rule ALL**: every element that intersects a highlight (``rsize > 0``) needs a value; the
  assessment is complete when none is missing and nothing is flagged.
- **C-Rule ONLY**: no other element may get one (`assess` refuses; values restored from storage
  for elements that no longer intersect a highlight are dropped and reported).
- **S-Rule GAIN**: an element cannot be more exhaustive than its parent (hence than any ancestor),
  with the order ``? < 0 < 1 < 2`` (too small is below every value, since a too-small element can
  sit inside an element of any exhaustivity). On a conflict the ANCESTOR's value is reset (no
  value) and flagged for re-assessment, whichever of the two was given last: giving a parent less
  than a child already has resets the parent itself.
- **Too-small propagation**: ``?`` propagates to every descendant that needs a value (a part of a
  too-small element is too small).
- **Exhaustive propagation**: ``2`` propagates to every ancestor (an element containing a highly
  exhaustive element is highly exhaustive).
- Propagation, both ways, fills only elements WITHOUT an assessor's value (none yet, or one set by
  propagation or automatically). It never overwrites what the assessor gave: where it meets a
  conflicting assessor's value, GAIN applies and the ancestor is reset and flagged (seed 003
  §4.2.2 works this very case: a section given 1, then its only paragraph 2, leaves the section
  reset and marked for re-assessment, not silently turned into 2).
- **Automatic too small** (optional): an element needing a value whose size is below a threshold
  (`DEFAULT_TOO_SMALL` = 55 characters) gets ``?`` without asking, unless it already has a value.

States are immutable: every action returns a `Step` holding the new state and the list of
`Change`s it caused, so a screen can show what the rules did and a caller can store the result.
`records()` and `start_two_phase(..., saved=...)` round-trip a state through storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from focal.evaluation.formats.records import Span
from focal.evaluation.relevance.derivation import ElementLike
from focal.evaluation.relevance.twophase_records import (
    DEFAULT_TOO_SMALL,
    RANK,
    RULE_ALL,
    RULE_ASSESSOR,
    RULE_AUTOMATIC,
    RULE_EXHAUSTIVE,
    RULE_GAIN,
    RULE_ONLY,
    RULE_TOO_SMALL,
    VALUES,
    Change,
    ElementState,
    ElementTable,
    ElementValue,
    Source,
    TwoPhaseError,
    Value,
)

__all__ = [
    "DEFAULT_TOO_SMALL",
    "RULE_ALL",
    "RULE_ASSESSOR",
    "RULE_AUTOMATIC",
    "RULE_EXHAUSTIVE",
    "RULE_GAIN",
    "RULE_ONLY",
    "RULE_TOO_SMALL",
    "VALUES",
    "Change",
    "ElementState",
    "ElementTable",
    "ElementValue",
    "Source",
    "Step",
    "TwoPhaseError",
    "TwoPhaseState",
    "Value",
    "start_two_phase",
]


@dataclass(frozen=True)
class TwoPhaseState:
    """Values, their sources and the GAIN flags of every element of one assessed article."""

    table: ElementTable
    values: tuple[Value | None, ...]
    sources: tuple[Source | None, ...]
    flags: tuple[str | None, ...]
    too_small_below: int | None = None

    def assess(self, path: str, value: str) -> Step:
        """The assessor gives `value` (``2``, ``1``, ``0`` or ``?``) to the element at `path`."""
        if value not in RANK:
            raise TwoPhaseError(f"exhaustivity must be one of 2, 1, 0, ?; got {value!r}")
        i = self.table.find(path)
        if not self.table.needs_value(i):
            raise TwoPhaseError(f"{RULE_ONLY}: {path} contains no highlighted text")
        edit = _Edit(self)
        edit.put(i, _as_value(value), "assessor", RULE_ASSESSOR)
        # Propagation fills only elements without an assessor's value; where it meets one
        # that conflicts, GAIN below resets and flags the ancestor (seed 003 §4.2.2).
        if value == "?":
            for d in self.table.descendants(i):
                if (
                    self.table.needs_value(d)
                    and edit.values[d] != "?"
                    and edit.sources[d] != "assessor"
                ):
                    edit.put(d, "?", "propagated", RULE_TOO_SMALL, f"inside too small {path}")
        elif value == "2":
            for a in self.table.ancestors(i):
                if edit.values[a] != "2" and edit.sources[a] != "assessor":
                    edit.put(a, "2", "propagated", RULE_EXHAUSTIVE, f"contains {path}")
        edit.enforce_gain()
        return edit.step()

    def clear(self, path: str) -> Step:
        """Remove the value of one element (nothing propagates); its flag goes too."""
        i = self.table.find(path)
        edit = _Edit(self)
        if self.values[i] is not None or self.flags[i] is not None:
            edit.put(i, None, None, RULE_ASSESSOR, "cleared")
        return edit.step()

    def value_of(self, path: str) -> Value | None:
        return self.values[self.table.find(path)]

    def flag_of(self, path: str) -> str | None:
        return self.flags[self.table.find(path)]

    @property
    def needs_value(self) -> tuple[str, ...]:
        """Paths (document order) that intersect a highlight and have no value yet."""
        t = self.table
        return tuple(
            t.paths[i] for i in range(len(t.paths)) if t.needs_value(i) and self.values[i] is None
        )

    @property
    def flagged(self) -> dict[str, str]:
        return {self.table.paths[i]: f for i, f in enumerate(self.flags) if f is not None}

    @property
    def complete(self) -> bool:
        """C-Rule ALL holds: every element intersecting a highlight has a value."""
        return not self.needs_value

    def elements(self) -> tuple[ElementState, ...]:
        """Every element that needs a value, in document order, with its state."""
        t = self.table
        return tuple(
            ElementState(
                t.paths[i],
                t.depths[i],
                t.rsize[i],
                t.size[i],
                self.values[i],
                self.sources[i],
                self.flags[i],
            )
            for i in range(len(t.paths))
            if t.needs_value(i)
        )

    def exhaustivity(self) -> dict[str, Value]:
        """path -> value, for the elements that have one (what an export writes)."""
        return {self.table.paths[i]: v for i, v in enumerate(self.values) if v is not None}

    def records(self) -> list[ElementValue]:
        """The state to store: every element with a value or a flag."""
        return [
            ElementValue(self.table.paths[i], v, self.sources[i], self.flags[i])
            for i, v in enumerate(self.values)
            if v is not None or self.flags[i] is not None
        ]


@dataclass(frozen=True)
class Step:
    """The outcome of one action: the new state and what changed (in the order it happened)."""

    state: TwoPhaseState
    changes: tuple[Change, ...]


def _as_value(value: str) -> Value:
    for candidate in VALUES:
        if candidate == value:
            return candidate
    raise TwoPhaseError(f"exhaustivity must be one of 2, 1, 0, ?; got {value!r}")


class _Edit:
    """A mutable working copy of a state; `step()` freezes it again."""

    def __init__(self, state: TwoPhaseState) -> None:
        self.state = state
        self.table = state.table
        self.values = list(state.values)
        self.sources = list(state.sources)
        self.flags = list(state.flags)
        self.changes: list[Change] = []

    def put(
        self, i: int, value: Value | None, source: Source | None, rule: str, reason: str = ""
    ) -> None:
        before = self.values[i]
        self.values[i], self.sources[i], self.flags[i] = value, source, None
        self.changes.append(Change(self.table.paths[i], before, value, rule, reason))

    def enforce_gain(self) -> None:
        """S-Rule GAIN: reset and flag every ancestor less exhaustive than a descendant."""
        resets: dict[int, str] = {}
        for i, value in enumerate(self.values):
            if value is None:
                continue
            for a in self.table.ancestors(i):
                above = self.values[a]
                if a not in resets and above is not None and RANK[above] < RANK[value]:
                    resets[a] = (
                        f"{RULE_GAIN}: {self.table.paths[i]} is {value}, more exhaustive than "
                        f"{above}; re-assess"
                    )
        for a, reason in sorted(resets.items()):
            self.put(a, None, None, RULE_GAIN, reason)
            self.flags[a] = reason

    def step(self) -> Step:
        state = replace(
            self.state,
            values=tuple(self.values),
            sources=tuple(self.sources),
            flags=tuple(self.flags),
        )
        return Step(state, tuple(self.changes))


def start_two_phase(
    elements: Sequence[ElementLike],
    passages: Iterable[Span],
    *,
    saved: Iterable[ElementValue] = (),
    too_small_below: int | None = None,
) -> Step:
    """The state of one article after highlighting, restoring `saved` values.

    Saved values on elements that no longer intersect a highlight, or no longer exist, are
    dropped (C-Rule ONLY) and reported as changes; with `too_small_below` set (e.g.
    `DEFAULT_TOO_SMALL`), elements under that size without a value get ``?`` automatically;
    then GAIN is enforced, so a restored state is always consistent.
    """
    table = ElementTable.build(elements, passages)
    count = len(table.paths)
    empty = TwoPhaseState(table, (None,) * count, (None,) * count, (None,) * count, too_small_below)
    edit = _Edit(empty)
    edit.changes = []
    for record in saved:
        i = table.index.get(record.path)
        if i is None or not table.needs_value(i):
            edit.changes.append(
                Change(record.path, record.value, None, RULE_ONLY, "no highlighted text")
            )
            continue
        edit.values[i], edit.sources[i], edit.flags[i] = record.value, record.source, record.flag
    if too_small_below is not None:
        for i in range(count):
            if (
                table.needs_value(i)
                and edit.values[i] is None
                and edit.flags[i] is None  # a GAIN flag waits for the assessor
                and table.size[i] < too_small_below
            ):
                reason = f"{table.size[i]} characters, under {too_small_below}"
                edit.put(i, "?", "automatic", RULE_AUTOMATIC, reason)
    edit.enforce_gain()
    return edit.step()
