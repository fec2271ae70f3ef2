"""Every quantisation against spec section 5's tables, value by value.

The expected grids are typed from the spec (rows e = 0..3, columns s = 0..3), not computed from
the module's tables, so that a wrong entry in either shows up.
"""

from __future__ import annotations

import pytest

from focal.evaluation.measures.elements.quantisation import (
    QUANTISATIONS,
    Grades,
    Grades5,
    canonical,
    quantise_2004,
    quantiser,
    scale_of,
)

GRIDS = {
    # s:       0     1     2     3
    "strict": [
        [0, 0, 0, 0],  # e = 0
        [0, 0, 0, 0],  # e = 1
        [0, 0, 0, 0],  # e = 2
        [0, 0, 0, 1],  # e = 3
    ],
    "generalised": [
        [0, 0, 0, 0],
        [0, 0.25, 0.25, 0.5],
        [0, 0.5, 0.5, 0.75],
        [0, 0.75, 0.75, 1],
    ],
    "sog": [
        [0, 0, 0, 0],
        [0, 0.1, 0.25, 0.75],
        [0, 0.1, 0.5, 0.9],
        [0, 0.25, 0.75, 1],
    ],
    "e3_s321": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 1]],
    "e3_s32": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1]],
    "s3_e321": [[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1]],
    "s3_e32": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1]],
    # liberal: s in {2, 3} or e in {2, 3}, on the valid pairs (both > 0)
    "liberal": [[0, 0, 0, 0], [0, 0, 1, 1], [0, 1, 1, 1], [0, 1, 1, 1]],
    # anyrel (seed 000 Table 1, "Any Rel"): 1 whenever e > 0 and s > 0
    "anyrel": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 1, 1], [0, 1, 1, 1]],
}


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_four_grade_tables(name: str) -> None:
    function = quantiser(name, "2004")
    for e in range(4):
        for s in range(4):
            expected = GRIDS[name][e][s]
            assert function(Grades(e, s)) == expected, (name, e, s)  # type: ignore[arg-type]
            assert quantise_2004(name, e, s) == expected


def test_aliases() -> None:
    assert canonical("exhaustive") == "e3_s321" and canonical("specific") == "s3_e321"
    for e in range(4):
        for s in range(4):
            assert quantise_2004("exhaustive", e, s) == GRIDS["e3_s321"][e][s]
            assert quantise_2004("specific", e, s) == GRIDS["s3_e321"][e][s]


def test_unknown_name_lists_the_choices() -> None:
    with pytest.raises(ValueError, match="strict5"):
        canonical("stricter")


# 2005 scale: e in {0, 1, 2, ?}, s in [0, 1]. Values worked from the spec's formulas:
# strict5 = [e = 2 and s = 1]; gen5 = (e/2)·s, ? -> 0; genlifted = (e'+1)·s/3, e' = 0 for ?;
# binexh = s; fullyspec = [s = 1]; anyrel = [s > 0].
CASES_2005 = [
    # e,   s,    strict5, gen5,  genlifted, binexh, fullyspec, anyrel
    ("2", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    ("2", 0.5, 0.0, 0.5, 0.5, 0.5, 0.0, 1.0),
    ("1", 1.0, 0.0, 0.5, 2 / 3, 1.0, 1.0, 1.0),
    ("1", 0.3, 0.0, 0.15, 0.2, 0.3, 0.0, 1.0),
    ("?", 1.0, 0.0, 0.0, 1 / 3, 1.0, 1.0, 1.0),
    ("?", 0.6, 0.0, 0.0, 0.2, 0.6, 0.0, 1.0),
    ("0", 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
]
NAMES_2005 = ("strict5", "gen5", "genlifted", "binexh", "fullyspec", "anyrel")


@pytest.mark.parametrize("case", CASES_2005, ids=lambda c: f"{c[0]}-{c[1]}")
def test_2005_family(case: tuple[object, ...]) -> None:
    e, s, *expected = case
    for name, value in zip(NAMES_2005, expected, strict=True):
        got = quantiser(name)(Grades5(str(e), float(s)))  # type: ignore[arg-type]
        assert got == pytest.approx(value, abs=1e-15), (name, e, s)
        assert scale_of(name) == "2005" and quantiser(name, "2005") is quantiser(name)


def test_every_named_quantisation_resolves() -> None:
    assert set(QUANTISATIONS) >= {*GRIDS, "exhaustive", "specific", *NAMES_2005}
    for name in QUANTISATIONS:
        assert callable(quantiser(name))
