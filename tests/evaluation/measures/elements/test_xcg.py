"""nxCG@k and MAep worked by hand (ideal recall base, seen elements, alpha)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.measures.elements.cutoffs import ElementKey
from evaluation.measures.elements.xcg import ideal_vector, maep, nxcg_at, run_gains

# One article: sec[1] (0.5) holds p[1] (1.0) and p[2] (0.25); sec[2] (0.75) holds p[1] (0.75).
VALUES: dict[ElementKey, float] = {
    ("a", "/x[1]/sec[1]"): 0.5,
    ("a", "/x[1]/sec[1]/p[1]"): 1.0,
    ("a", "/x[1]/sec[1]/p[2]"): 0.25,
    ("a", "/x[1]/sec[2]"): 0.75,
    ("a", "/x[1]/sec[2]/p[1]"): 0.75,
}


def test_ideal_base_takes_the_best_per_path_deeper_on_ties() -> None:
    # By value: sec[1]/p[1] 1.0 taken; sec[2] and sec[2]/p[1] tie at 0.75: the deeper p[1]
    # is taken, sec[2] refused; sec[1] 0.5 refused (p[1] under it); sec[1]/p[2] 0.25 taken
    # (neither its ancestor sec[1] nor a descendant was taken).
    assert ideal_vector(VALUES) == [1.0, 0.75, 0.25]


def test_nxcg_and_maep_of_a_run_with_a_seen_element() -> None:
    keys: list[ElementKey] = [
        ("a", "/x[1]/sec[2]"),  # 0.75
        ("a", "/x[1]/sec[2]/p[1]"),  # 0.75, but sec[2] was read: seen, alpha = 1 -> 0
        ("b", "/x[1]"),  # not assessed: 0
        ("a", "/x[1]/sec[1]/p[1]"),  # 1.0
    ]
    gains = run_gains(keys, [VALUES.get(k, 0.0) for k in keys], alpha=1.0)
    assert gains == [0.75, 0.0, 0.0, 1.0]
    ideal = [1.0, 0.75, 0.25]
    # xCG = 0.75, 0.75, 0.75, 1.75; xCI = 1, 1.75, 2, 2 (the ideal has 3 elements).
    # nxCG@1 = 0.75; @2 = 0.75/1.75; @5 = 1.75/2.
    got = nxcg_at(gains, ideal, (1, 2, 5))
    assert got == pytest.approx({1: 0.75, 2: 0.75 / 1.75, 5: 0.875}, abs=1e-15)
    # MAep: rank 1 reaches 0.75, the ideal reaches it at rank 1: ep = 1/1.
    # rank 4 reaches 1.75, the ideal at rank 2: ep = 2/4. Sum 1.5 over |ideal| = 3: 0.5.
    assert maep(gains, ideal) == pytest.approx(0.5, abs=1e-15)


def test_alpha_below_one_keeps_part_of_a_seen_gain() -> None:
    keys: list[ElementKey] = [("a", "/x[1]"), ("a", "/x[1]/p[1]"), ("a", "/x[1]")]
    # alpha = 0.25: p[1] is under /x[1], read at rank 1: 0.75 * 1.0; the repeat: 0.75 * 0.5.
    assert run_gains(keys, [0.5, 1.0, 0.5], alpha=0.25) == [0.5, 0.75, 0.375]


def test_no_ideal_means_zero() -> None:
    assert nxcg_at([1.0], [], (5,)) == {5: 0.0} and maep([1.0], []) == 0.0


KEYS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.lists(st.integers(1, 2), min_size=1, max_size=4).map(
            lambda steps: "/x[1]" + "".join(f"/y[{n}]" for n in steps[1:])
        ),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(KEYS, st.sampled_from([0.0, 0.25, 1.0]))
def test_seen_gains_equal_a_result_by_result_scan(keys: list[ElementKey], alpha: float) -> None:
    values = [0.25 * (1 + i % 4) for i in range(len(keys))]
    expected = []
    for i, (article, path) in enumerate(keys):
        seen = any(a == article and (p == path or path.startswith(p + "/")) for a, p in keys[:i])
        expected.append((1 - alpha) * values[i] if seen else values[i])
    assert run_gains(keys, values, alpha) == expected
