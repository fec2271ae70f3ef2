"""The reliability studies read measure names as `focal eval` does: ir_measures' and trec_eval's
names of task articles rank the runs as Focal's own names for the same measure do."""

from __future__ import annotations

import pytest

from focal.reliability.api import example, pool_depths


def test_ap_and_map_give_the_same_study() -> None:
    qrels, runs = example()
    focal_name = pool_depths(qrels, runs, [1, 3], task="articles", measure="MAP")
    for other in ("AP", "map"):
        assert pool_depths(qrels, runs, [1, 3], task="articles", measure=other) == focal_name


def test_a_measure_of_several_rows_is_refused() -> None:
    qrels, runs = example()
    with pytest.raises(ValueError, match="a study ranks by one"):
        pool_depths(qrels, runs, [1], task="articles", measure="official")
