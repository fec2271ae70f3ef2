"""Quantisation functions: an element's (exhaustivity, specificity) pair mapped to one gain.

Two scales (spec section 5):

- the INEX 2002-2004 four-grade scale, e, s in {0, 1, 2, 3}, (0, 0) meaning not relevant:
  strict (seed 001 eq. 3), generalised (eq. 4), sog, the specificity-oriented generalised
  function of Kazai et al. (eq. 12), e3_s321 alias exhaustive (eq. 8), e3_s32 (eq. 9),
  s3_e321 alias specific (eq. 10), s3_e32 (eq. 11), liberal (eq. 16) and anyrel (seed 000
  Table 1, "Any Rel": 1 whenever e > 0 and s > 0);
- the INEX 2005 scale, e in {0, 1, 2, ?} (``?``: too small) and s in [0, 1] the highlighted
  share: strict5, gen5, genlifted, binexh, fullyspec and anyrel (seed 000 Table 2, after the
  INEX 2005 and 2006 measures reports).

anyrel is defined on both scales; on 2005/2006 qrels a function of both reads the 2005 values.
A four-grade-only function reads 2005/2006 qrels through the published mapping
(`focal.evaluation.formats.elements.qrels.to_four_grades`); a 2005-only function has no meaning on
four-grade qrels (s is a grade, not a share), and `definition_for` says so.

Every function takes a `Grades` pair; `quantiser(name)` returns the function and raises
ValueError naming the choices for an unknown name.

>>> quantiser("generalised")(Grades(2, 3)), quantiser("sog")(Grades(2, 3))
(0.75, 0.9)
>>> quantiser("gen5")(Grades5("1", 0.5)), quantiser("genlifted")(Grades5("?", 0.75))
(0.25, 0.25)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

Scale = Literal["2004", "2005"]
EXHAUSTIVITY_2005 = ("0", "1", "2", "?")


@dataclass(frozen=True, slots=True)
class Grades:
    """A four-grade assessment (INEX 2002-2004): exhaustivity and specificity in 0..3."""

    e: int
    s: int


@dataclass(frozen=True, slots=True)
class Grades5:
    """An INEX 2005 assessment: exhaustivity ``0``/``1``/``2``/``?`` and specificity in [0, 1]."""

    e: str
    s: float


def _table(*rows: tuple[float, tuple[tuple[int, int], ...]]) -> dict[tuple[int, int], float]:
    return {pair: value for value, pairs in rows for pair in pairs}


# (e, s) -> value; a pair not listed scores 0.
TABLES_2004: dict[str, dict[tuple[int, int], float]] = {
    "strict": _table((1.0, ((3, 3),))),
    "generalised": _table(
        (1.0, ((3, 3),)),
        (0.75, ((2, 3), (3, 2), (3, 1))),
        (0.5, ((1, 3), (2, 2), (2, 1))),
        (0.25, ((1, 2), (1, 1))),
    ),
    "sog": _table(
        (1.0, ((3, 3),)),
        (0.9, ((2, 3),)),
        (0.75, ((1, 3), (3, 2))),
        (0.5, ((2, 2),)),
        (0.25, ((1, 2), (3, 1))),
        (0.1, ((2, 1), (1, 1))),
    ),
    "e3_s321": _table((1.0, ((3, 1), (3, 2), (3, 3)))),
    "e3_s32": _table((1.0, ((3, 2), (3, 3)))),
    "s3_e321": _table((1.0, ((1, 3), (2, 3), (3, 3)))),
    "s3_e32": _table((1.0, ((2, 3), (3, 3)))),
    "liberal": _table(
        (1.0, tuple((e, s) for e in range(1, 4) for s in range(1, 4) if e >= 2 or s >= 2))
    ),
    "anyrel": _table((1.0, tuple((e, s) for e in range(1, 4) for s in range(1, 4)))),
}


def strict5(g: Grades5) -> float:
    """1 iff highly exhaustive (2) and fully specific (s = 1)."""
    return 1.0 if g.e == "2" and g.s == 1.0 else 0.0


def gen5(g: Grades5) -> float:
    """(e / 2) * s, too small (``?``) counting 0."""
    return 0.0 if g.e == "?" else int(g.e) / 2 * g.s


def genlifted(g: Grades5) -> float:
    """(e' + 1) * s / 3 with e' = 0 for ``?``: a too-small element keeps a third of s."""
    lifted = 0 if g.e == "?" else int(g.e)
    return (lifted + 1) * g.s / 3 if g.s > 0 else 0.0


def binexh(g: Grades5) -> float:
    """s for every element with highlighted text, whatever its exhaustivity."""
    return g.s if g.s > 0 else 0.0


def fullyspec(g: Grades5) -> float:
    """1 iff the whole element is highlighted (s = 1)."""
    return 1.0 if g.s == 1.0 else 0.0


def anyrel(g: Grades5) -> float:
    """1 iff any of the element is highlighted (s > 0)."""
    return 1.0 if g.s > 0 else 0.0


FUNCTIONS_2005: dict[str, Callable[[Grades5], float]] = {
    "strict5": strict5,
    "gen5": gen5,
    "genlifted": genlifted,
    "binexh": binexh,
    "fullyspec": fullyspec,
    "anyrel": anyrel,
}
ALIASES: Mapping[str, str] = {"exhaustive": "e3_s321", "specific": "s3_e321"}
QUANTISATIONS = tuple(dict.fromkeys((*TABLES_2004, *ALIASES, *FUNCTIONS_2005)))


def canonical(name: str) -> str:
    """The canonical name of a quantisation (aliases resolved); ValueError if unknown."""
    name = ALIASES.get(name, name)
    if name not in TABLES_2004 and name not in FUNCTIONS_2005:
        raise ValueError(f"unknown quantisation {name!r}: one of {', '.join(QUANTISATIONS)}")
    return name


def scales(name: str) -> tuple[Scale, ...]:
    """The scales a quantisation is defined on (seed 000 Tables 1 and 2, seed 001 §2).

    >>> scales("gen5"), scales("sog"), scales("anyrel")
    (('2005',), ('2004',), ('2004', '2005'))
    """
    key = canonical(name)
    defined: tuple[Scale, ...] = ("2004",) if key in TABLES_2004 else ()
    return (*defined, "2005") if key in FUNCTIONS_2005 else defined


def scale_of(name: str) -> Scale:
    """The scale of a quantisation's own definition: 2005 when it has one there, else 2004."""
    return scales(name)[-1]


def definition_for(name: str, qrels_scale: Scale) -> Scale:
    """Which of the quantisation's definitions scores qrels of `qrels_scale`: the 2005 one on
    2005/2006 qrels when there is one, else the four-grade one (through the mapping); ValueError
    naming the scale when the function does not exist on four-grade qrels.

    >>> definition_for("anyrel", "2004"), definition_for("anyrel", "2005")
    ('2004', '2005')
    >>> definition_for("generalised", "2005")
    '2004'
    """
    defined = scales(name)
    if qrels_scale == "2005":
        return "2005" if "2005" in defined else "2004"
    if "2004" not in defined:
        raise ValueError(
            f"quantisation {name} is defined on the INEX 2005 scale only (e 0, 1, 2, ?; s a "
            "share in [0, 1]), and these qrels are on the 2002-2004 four-grade scale: give "
            "2005/2006 element qrels (topic article path e s rsize size) or FOL qrels with "
            "--collection"
        )
    return "2004"


def quantise_2004(name: str, e: int, s: int) -> float:
    """The value of a four-grade quantisation for (e, s); (0, 0) and unlisted pairs give 0."""
    return TABLES_2004[canonical(name)].get((e, s), 0.0)


def quantiser(
    name: str, scale: Scale | None = None
) -> Callable[[Grades], float] | Callable[[Grades5], float]:
    """The function of quantisation `name` on `scale` (default: `scale_of`): for `Grades`
    (2004) or `Grades5` (2005); ValueError when it is not defined there."""
    key = canonical(name)
    scale = scale or scale_of(key)
    if scale not in scales(key):
        raise ValueError(f"quantisation {name} is not defined on the {scale} scale")
    if scale == "2005":
        return FUNCTIONS_2005[key]
    table = TABLES_2004[key]

    def quantise(g: Grades) -> float:
        return table.get((g.e, g.s), 0.0)

    quantise.__name__ = key
    return quantise


# Per-dimension quantisation for inex_eval_ng (seed 001 §2.3): strict maps a dimension to 1 at
# its top grade; generalised divides by the top grade. The strict-like functions take the strict
# pair, every other function the generalised pair (docs/measures.md).
STRICT_LIKE = frozenset(
    {"strict", "e3_s321", "e3_s32", "s3_e321", "s3_e32", "strict5", "fullyspec"}
)


def dimensions_2004(name: str, e: int, s: int) -> tuple[float, float]:
    """(e-part, s-part) of an assessment on the four-grade scale for inex_eval_ng.

    >>> dimensions_2004("strict", 3, 2), dimensions_2004("generalised", 3, 2)
    ((1.0, 0.0), (1.0, 0.6666666666666666))
    """
    if canonical(name) in STRICT_LIKE:
        return float(e == 3), float(s == 3)
    return e / 3, s / 3


def dimensions_2005(name: str, e: str, s: float) -> tuple[float, float]:
    """(e-part, s-part) of a 2005 assessment for inex_eval_ng (``?`` counts 0 exhaustivity).

    >>> dimensions_2005("strict5", "2", 1.0), dimensions_2005("gen5", "1", 0.25)
    ((1.0, 1.0), (0.5, 0.25))
    """
    exhaustivity = 0 if e == "?" else int(e)
    if canonical(name) in STRICT_LIKE:
        return float(exhaustivity == 2), float(s == 1.0)
    return exhaustivity / 2, s
