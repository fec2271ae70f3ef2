"""What one judged article says about how assessors highlight (spec section 10; seed 003 §5.2).

- passages per relevant article (Fig 6) and best entry point distances (Fig 7) need only the
  qrels line: the distance from the BEP to the start of the first passage, of the largest one
  (the first of equal ones), and of the nearest one, in characters (absolute values);
- whether each passage is elemental (Table VIII; spec section 1: the lowest common ancestor of
  its two ends holds exactly its text, that is, some element spans exactly the passage) needs
  the element table;
- specificity of the relevant elements (Fig 4) by category (Table VII) and the sizes of elements
  per exhaustivity value (Fig 5) come from the element records of `element_export`.

Categories follow seed 003's footnote on tag equivalence: article; body (body, bdy); section
(section, sec, ss1, ss2); paragraph (p, ip1, ip2, list).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from focal.evaluation.formats.records import Judgement
from focal.evaluation.relevance.derivation import ElementLike

CATEGORIES = {
    "article": "article",
    "body": "body",
    "bdy": "body",
    "section": "section",
    "sec": "section",
    "ss1": "section",
    "ss2": "section",
    "p": "paragraph",
    "ip1": "paragraph",
    "ip2": "paragraph",
    "list": "paragraph",
}
"""Tag -> category of seed 003 Table VII."""


@dataclass(frozen=True, slots=True)
class BepDistances:
    """Characters from the best entry point to the start of these passages."""

    first: int
    largest: int
    nearest: int


def bep_distances(line: Judgement) -> BepDistances | None:
    """The BEP's distances to the first, largest and nearest passage (None without either).

    >>> from focal.evaluation.formats.records import Judgement
    >>> bep_distances(Judgement("1", "a", 30, 900, 250, ((10, 20), (200, 220)), 0))
    BepDistances(first=240, largest=50, nearest=50)
    """
    if line.bep is None or not line.passages:
        return None
    starts = [start for start, _end in line.passages]
    largest = max(line.passages, key=lambda span: (span[1] - span[0], -span[0]))
    return BepDistances(
        first=abs(line.bep - starts[0]),
        largest=abs(line.bep - largest[0]),
        nearest=min(abs(line.bep - start) for start in starts),
    )


def elemental_passages(line: Judgement, elements: Sequence[ElementLike]) -> int:
    """How many of the article's passages are elemental (an element spans exactly one)."""
    spans = {(element.start, element.end) for element in elements}
    return sum(1 for passage in line.passages if passage in spans)


def tag_of(path: str) -> str:
    """The tag of an INEX path's last step, without position or prefix, lower case.

    >>> tag_of("/article[1]/bdy[1]/sec[2]"), tag_of("/a[1]/x:SS1[3]")
    ('sec', 'ss1')
    """
    step = path.rsplit("/", 1)[-1]
    return step.split("[", 1)[0].rsplit(":", 1)[-1].lower()


def category_of(path: str) -> str | None:
    """The Table VII category of the element at `path`, None for other elements."""
    return CATEGORIES.get(tag_of(path))
