"""The vocabulary of the INEX 2005 two-phase rules: values, rule names, changes, element table.

`focal.evaluation.relevance.twophase` applies the rules (and re-exports these names, which is where
callers find them); `twophase_status` describes them for a screen. Seed 003 (Piwowarski, Trotman
& Lalmas, ACM TOIS 2008) section 4.2 and the INEX 2005 assessment guide.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from focal.evaluation.formats.records import Span
from focal.evaluation.relevance.derivation import ElementLike, derive

Value = Literal["2", "1", "0", "?"]
Source = Literal["assessor", "propagated", "automatic"]
VALUES: tuple[Value, ...] = ("2", "1", "0", "?")
DEFAULT_TOO_SMALL = 55
RANK: dict[str, int] = {"?": 0, "0": 1, "1": 2, "2": 3}  # GAIN's order: ? < 0 < 1 < 2

RULE_ALL = "C-Rule ALL"
RULE_ONLY = "C-Rule ONLY"
RULE_GAIN = "S-Rule GAIN"
RULE_TOO_SMALL = "too small propagates to descendants"
RULE_EXHAUSTIVE = "2 propagates to ancestors"
RULE_AUTOMATIC = "automatic too small"
RULE_ASSESSOR = "assessor"


class TwoPhaseError(ValueError):
    """An action the rules refuse (unknown element, bad value, C-Rule ONLY)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One element's value or flag changed, and which rule changed it."""

    path: str
    before: Value | None
    after: Value | None
    rule: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ElementValue:
    """The stored form of one element's state: a value (or none, when flagged) and its origin."""

    path: str
    value: Value | None
    source: Source | None
    flag: str | None = None


@dataclass(frozen=True, slots=True)
class ElementState:
    """What the screen shows for one element that needs a value."""

    path: str
    depth: int
    rsize: int
    size: int
    value: Value | None
    source: Source | None
    flag: str | None


@dataclass(frozen=True)
class ElementTable:
    """The immutable structure a state works over: paths, tree, and highlighted sizes."""

    paths: tuple[str, ...]
    parents: tuple[int, ...]
    depths: tuple[int, ...]
    last_descendant: tuple[int, ...]  # preorder: the subtree of i is i..last_descendant[i]
    rsize: tuple[int, ...]
    size: tuple[int, ...]
    index: dict[str, int]

    @classmethod
    def build(cls, elements: Sequence[ElementLike], passages: Iterable[Span]) -> ElementTable:
        derived = derive(elements, passages)
        parents = tuple(e.parent for e in elements)
        depths: list[int] = []
        for parent in parents:
            depths.append(0 if parent < 0 else depths[parent] + 1)
        last = list(range(len(parents)))
        for i in range(len(parents) - 1, -1, -1):
            if parents[i] >= 0:
                last[parents[i]] = max(last[parents[i]], last[i])
        return cls(
            paths=derived.paths,
            parents=parents,
            depths=tuple(depths),
            last_descendant=tuple(last),
            rsize=tuple(int(x) for x in derived.rsize),
            size=tuple(int(x) for x in derived.size),
            index={path: i for i, path in enumerate(derived.paths)},
        )

    def needs_value(self, i: int) -> bool:
        """C-Rule ALL/ONLY: exactly the elements intersecting a highlight take a value."""
        return self.rsize[i] > 0

    def ancestors(self, i: int) -> Iterable[int]:
        parent = self.parents[i]
        while parent >= 0:
            yield parent
            parent = self.parents[parent]

    def descendants(self, i: int) -> range:
        return range(i + 1, self.last_descendant[i] + 1)

    def find(self, path: str) -> int:
        try:
            return self.index[path]
        except KeyError:
            raise TwoPhaseError(f"no element {path!r} in this article") from None
