"""The ideal DCG's running sums: each topic's own cumsum, bit for bit, whichever way they are
summed, and the normaliser read at a cut-off."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from focal.evaluation.measures.trec_eval.families.ideal import running_sums


def _own_cumsums(terms: np.ndarray, sizes: list[int]) -> list[list[float]]:
    starts = np.cumsum([0, *sizes])
    return [np.cumsum(terms[a:b]).tolist() for a, b in itertools.pairwise(starts)]


@pytest.mark.parametrize("seed", range(6))
def test_running_sums_are_each_topics_own_cumsum(seed: int) -> None:
    # random terms of random magnitudes (so rounding differs between summation orders); seeds 0-2
    # have even sizes (summed in one padded matrix), 3-5 one long topic among short ones (padding
    # would cost more than four times the terms: summed topic by topic)
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 40, size=300).tolist()
    if seed >= 3:
        sizes[7] = 100_000
    terms = rng.random(sum(sizes)) * 10.0 ** rng.integers(-8, 8, size=sum(sizes))
    ideal = running_sums(terms, np.array(sizes))
    for index, expected in enumerate(_own_cumsums(terms, sizes)):
        assert ideal.topic(index).tolist() == expected  # exact: the same additions in order


def test_at_a_cut_off_reads_the_rank_or_the_last_and_zero_without_relevant() -> None:
    # topics of 3, 0 and 1 terms: running sums [1, 3, 6], [], [5]
    ideal = running_sums(np.array([1.0, 2.0, 3.0, 5.0]), np.array([3, 0, 1]))
    assert ideal.at(2).tolist() == [3.0, 0.0, 5.0]  # rank 2; none; beyond its only rank
    assert ideal.at(None).tolist() == [6.0, 0.0, 5.0]
    assert ideal.of(np.array([2, 0])).at(1).tolist() == [5.0, 1.0]
    assert running_sums(np.zeros(0), np.zeros(0, dtype=np.int64)).at(10).tolist() == []
