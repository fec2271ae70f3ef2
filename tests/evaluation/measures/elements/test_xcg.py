"""nxCG@k and MAep worked by hand (ideal recall base, seen and seen-in-part elements, the
normalisation under ideal elements, alpha)."""

from __future__ import annotations

import pytest

from focal.evaluation.measures.elements.cutoffs import ElementKey
from focal.evaluation.measures.elements.xcg import (
    RecallBase,
    ideal_vector,
    maep,
    nxcg_at,
    run_gains,
)

# One article: sec[1] (0.5) holds p[1] (1.0) and p[2] (0.25); sec[2] (0.75) holds p[1] (0.75).
VALUES: dict[ElementKey, float] = {
    ("a", "/x[1]/sec[1]"): 0.5,
    ("a", "/x[1]/sec[1]/p[1]"): 1.0,
    ("a", "/x[1]/sec[1]/p[2]"): 0.25,
    ("a", "/x[1]/sec[2]"): 0.75,
    ("a", "/x[1]/sec[2]/p[1]"): 0.75,
}
ART, SEC1, SEC2 = ("a", "/article[1]"), ("a", "/article[1]/sec[1]"), ("a", "/article[1]/sec[2]")
P1, P2 = ("a", "/article[1]/sec[1]/p[1]"), ("a", "/article[1]/sec[1]/p[2]")


def scores(keys: list[ElementKey], base: RecallBase, alpha: float = 1.0) -> tuple[float, float]:
    gains = run_gains(keys, base, alpha)
    return nxcg_at(gains, base.ideal_values, (5,))[5], maep(gains, base.ideal_values)


def test_ideal_base_takes_the_best_per_path_deeper_on_ties() -> None:
    # By value: sec[1]/p[1] 1.0 taken; sec[2] and sec[2]/p[1] tie at 0.75: the deeper p[1]
    # is taken, sec[2] refused; sec[1] 0.5 refused (p[1] under it); sec[1]/p[2] 0.25 taken
    # (neither its ancestor sec[1] nor a descendant was taken).
    assert ideal_vector(VALUES) == [1.0, 0.75, 0.25]


def test_nxcg_and_maep_of_a_run_with_a_seen_element() -> None:
    keys: list[ElementKey] = [
        ("a", "/x[1]/sec[2]"),  # 0.75, charged to the ideal sec[2]/p[1] below it (0.75 left)
        ("a", "/x[1]/sec[2]/p[1]"),  # 0.75, but sec[2] was read: seen, alpha = 1 -> 0
        ("b", "/x[1]"),  # not assessed: 0
        ("a", "/x[1]/sec[1]/p[1]"),  # 1.0
    ]
    gains = run_gains(keys, RecallBase(VALUES), alpha=1.0)
    assert gains == [0.75, 0.0, 0.0, 1.0]
    ideal = [1.0, 0.75, 0.25]
    # xCG = 0.75, 0.75, 0.75, 1.75; xCI = 1, 1.75, 2, 2 (the ideal has 3 elements).
    # nxCG@1 = 0.75; @2 = 0.75/1.75; @5 = 1.75/2.
    got = nxcg_at(gains, ideal, (1, 2, 5))
    assert got == pytest.approx({1: 0.75, 2: 0.75 / 1.75, 5: 0.875}, abs=1e-15)
    # MAep: rank 1 reaches 0.75, the ideal reaches it at rank 1: ep = 1/1, weight 0.75.
    # rank 4 reaches 1.75, the ideal at rank 2: ep = 2/4, weight 1. (0.75 + 0.5) / 2 = 0.625.
    assert maep(gains, ideal) == pytest.approx(0.625, abs=1e-15)


def test_ancestor_after_its_descendant_gains_only_what_the_rest_holds() -> None:
    # `exhaustive` (e = 3, any s): article (3, 1) -> 1, sec[1] (3, 3) -> 1, sec[2] (1, 1) -> 0.
    # Ideal: sec[1] (ties with the article, deeper). sec[1] gains 1; the article is then seen
    # in part: its children are sec[1] (seen: 0) and sec[2] (0): 0. Before: nxCG@5 = 2.
    base = RecallBase({ART: 1.0, SEC1: 1.0, SEC2: 0.0})
    assert base.ideal_values == [1.0]
    assert run_gains([SEC1, ART], base) == [1.0, 0.0]
    assert scores([SEC1, ART], base) == (1.0, 1.0)


def test_descendant_after_its_ancestor_is_seen() -> None:
    # The article (1) first: charged to the ideal sec[1] below it, which has 1 left: 1. Then
    # sec[1] is seen (its ancestor was read): (1 - alpha) * 1, 0 at alpha = 1; at alpha = 0.5
    # it would gain 0.5, but sec[1] has paid out its whole value already: 0.
    base = RecallBase({ART: 1.0, SEC1: 1.0, SEC2: 0.0})
    assert run_gains([ART, SEC1], base) == [1.0, 0.0]
    assert run_gains([ART, SEC1], base, alpha=0.5) == [1.0, 0.0]
    assert scores([ART, SEC1], base) == (1.0, 1.0)


def test_siblings_under_one_ideal_element_share_its_value() -> None:
    # `generalised`: sec[1] (3, 3) -> 1, its paragraphs (2, 3) -> 0.75 each. Ideal [1] (sec[1]).
    # p[1] gains 0.75; p[2] would gain 0.75 but sec[1] has 0.25 left: 0.25. nxCG@5 = 1 (was
    # 1.5). MAep: rank 1 xCG 0.75, ideal rank 1, ep 1, weight 0.75; rank 2 xCG 1, ideal rank 1,
    # ep 1/2, weight 0.25: (0.75 + 0.125) / 1 = 0.875 (was 1.5).
    base = RecallBase({SEC1: 1.0, P1: 0.75, P2: 0.75})
    assert run_gains([P1, P2], base) == [0.75, 0.25]
    assert scores([P1, P2], base) == (1.0, 0.875)


def test_seen_in_part_weighs_the_children_by_size() -> None:
    # generalised: article (2, 2) 0.5, size 100; sec[1] (3, 3) 1.0, size 40; sec[2] (1, 2)
    # 0.25, size 60. Ideal: sec[1] 1.0, sec[2] 0.25 (the article has sec[1] under it).
    # sec[1] gains 1; the article, seen in part: 0 * 40/100 + 0.25 * 60/100 = 0.15, charged to
    # sec[2] (0.25 left, sec[1] none): 0.15. xCG[2] = 1.15, xCI[2] = 1.25: nxCG@2 = 0.92.
    # MAep: ep 1 at rank 1 (weight 1) and at rank 2 (1.15 needs ideal rank 2; weight 0.15):
    # 1.15 / 1.25 = 0.92. With equal weights (no sizes): 0.25 / 2 = 0.125.
    values = {ART: 0.5, SEC1: 1.0, SEC2: 0.25}
    base = RecallBase(values, {ART: 100, SEC1: 40, SEC2: 60})
    assert run_gains([SEC1, ART], base) == pytest.approx([1.0, 0.15])
    gains = run_gains([SEC1, ART], base)
    assert nxcg_at(gains, base.ideal_values, (2,))[2] == pytest.approx(0.92)
    assert maep(gains, base.ideal_values) == pytest.approx(0.92)
    assert run_gains([SEC1, ART], RecallBase(values)) == [1.0, 0.125]
    assert run_gains([SEC1, ART], RecallBase(values, {}, "equal")) == [1.0, 0.125]


def test_the_ideal_run_scores_one() -> None:
    base = RecallBase(VALUES)
    nxcg, average = scores(list(base.ideal), base)
    assert nxcg == 1.0 and average == 1.0
    gains = run_gains(list(base.ideal), base)
    assert nxcg_at(gains, base.ideal_values, (1, 2, 3, 50)) == dict.fromkeys((1, 2, 3, 50), 1.0)


def test_alpha_below_one_keeps_part_of_a_seen_gain() -> None:
    # /x (0.5) holds /x/p (1.0, the ideal). alpha = 0.25: /x gains 0.5 (charged to p, 0.5
    # left); p is seen: 0.75 * 1.0, cut to the 0.5 left; /x again: 0.75 * 0.5, nothing left.
    base = RecallBase({("a", "/x[1]"): 0.5, ("a", "/x[1]/p[1]"): 1.0})
    keys: list[ElementKey] = [("a", "/x[1]"), ("a", "/x[1]/p[1]"), ("a", "/x[1]")]
    assert run_gains(keys, base, alpha=0.25) == [0.5, 0.5, 0.0]
    # with an ideal of its own (no normalisation at work): /y (1.0) twice, alpha 0.25.
    other = RecallBase({("b", "/y[1]"): 1.0, ("b", "/z[1]"): 1.0})
    assert run_gains([("b", "/y[1]"), ("b", "/z[1]")], other, alpha=0.25) == [1.0, 1.0]


def test_no_ideal_means_zero() -> None:
    assert nxcg_at([1.0], [], (5,)) == {5: 0.0} and maep([1.0], []) == 0.0
