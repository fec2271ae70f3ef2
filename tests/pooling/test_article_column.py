"""`ArticleColumn` behaves as the list of article ids it stands for; runs read side by side keep
their order and the first error in path order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.runs import read_run
from focal.pooling.article_column import ArticleColumn
from focal.pooling.ranked import ranked_run, read_ranked_run, read_ranked_runs
from focal.pooling.strategies import build_pool


@settings(deadline=None)
@given(st.lists(st.integers(0, 2**40), max_size=80), st.booleans())
def test_an_article_column_is_the_list_it_stands_for(values: list[int], named: bool) -> None:
    names = None
    if named:  # codes into distinct ids
        values = [value % 50 for value in values]
        names = [f"a{n}" for n in range(50)]
    expected = [names[v] if names else str(v) for v in values]
    column = ArticleColumn(np.array(values, dtype=np.int64), names)
    assert len(column) == len(expected)
    assert list(column) == expected  # iterated in chunks of 32
    assert list(reversed(column)) == expected[::-1]
    assert column == expected and expected == column
    assert column[3:45] == expected[3:45] and column[::-1] == expected[::-1]
    if expected:
        assert column[0] == expected[0] and column[-1] == expected[-1]
        assert column.index(expected[-1]) == expected.index(expected[-1])
        assert expected[0] in column


def fol(path: Path, run_id: str, articles: list[str]) -> Path:
    path.write_text(
        "".join(f"1 Q0 {a} {k} {1 / k:.3f} {run_id} 0 5\n" for k, a in enumerate(articles, 1))
    )
    return path


def test_runs_read_side_by_side_keep_their_order_and_pool_as_one_at_a_time(tmp_path: Path) -> None:
    paths = [
        fol(tmp_path / f"r{n}.run", f"r{n}", [str(100 + (n * 7 + k) % 13) for k in range(20)])
        for n in range(6)
    ]
    side_by_side = read_ranked_runs(paths, threads=3)
    one_at_a_time = [ranked_run(read_run(path)) for path in paths]
    assert [run.run_id for run in side_by_side] == [f"r{n}" for n in range(6)]
    assert side_by_side == one_at_a_time
    assert build_pool(side_by_side, "topn", size=5) == build_pool(one_at_a_time, "topn", size=5)


def test_the_first_error_in_path_order_is_raised(tmp_path: Path) -> None:
    paths = [fol(tmp_path / f"r{n}.run", f"r{n}", ["1", "2"]) for n in range(5)]
    paths[1].write_text("1 Q0 a 1 0.5 r1 0 5\n1 Q0 b 2 nan r1 0 5\n")
    paths[3].write_text("1 Q0 a 1 0.5 r3 0\n")
    with pytest.raises(FormatError) as raised:
        read_ranked_runs(paths, threads=4)
    assert (raised.value.file, raised.value.line) == (str(paths[1]), 2)
    with pytest.raises(FormatError) as alone:
        read_ranked_run(paths[1])
    assert str(raised.value) == str(alone.value)
