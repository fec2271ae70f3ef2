"""Top-n pools on integer article ids equal the pools of the rounds on strings.

`focal.pooling.topn_arrays` pools runs read as `ArticleColumn`s of numeric ids with a matrix of
rounds; the same runs given as lists of strings take the rounds of `focal.pooling.topn`. Both must
give the same pool: articles, order, first rounds, contributors, depths and rounds read.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.pooling.article_column import ArticleColumn
from focal.pooling.records import RankedRun, RunLists
from focal.pooling.strategies import top_n_pool
from focal.pooling.topn import top_n_topic_pool
from focal.pooling.topn_arrays import numeric_columns

ARTICLES = st.lists(st.integers(0, 40), min_size=1, max_size=70)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.dictionaries(st.sampled_from(["1", "2", "10"]), ARTICLES), min_size=1, max_size=6),
    st.integers(1, 60),
)
def test_numeric_columns_pool_as_lists_of_strings(
    runs: list[dict[str, list[int]]], size: int
) -> None:
    as_columns, as_lists = [], []
    for index, topics in enumerate(runs):
        as_columns.append(
            RankedRun(
                f"r{index}", {t: ArticleColumn(np.array(a, np.int32)) for t, a in topics.items()}
            )
        )
        as_lists.append(RankedRun(f"r{index}", {t: list(map(str, a)) for t, a in topics.items()}))
    assert top_n_pool(as_columns, size) == top_n_pool(as_lists, size)


def test_more_rounds_than_the_first_matrix_holds() -> None:
    # one run of 200 distinct articles: a pool of 150 reads 150 rounds (the matrix starts at 32)
    column = ArticleColumn(np.arange(1000, 1200, dtype=np.int32))
    lists: RunLists = [(0, column)]
    assert numeric_columns(lists) is not None
    pool = top_n_topic_pool("1", lists, ["r"], 150)
    assert pool == top_n_topic_pool("1", [(0, list(column))], ["r"], 150)
    assert pool.rounds == 150 and len(pool.articles) == 150
    assert pool.articles[-1].article == "1149" and pool.articles[-1].first_round == 150


def test_ids_that_are_not_numbers_take_the_rounds_on_strings() -> None:
    assert numeric_columns([(0, ArticleColumn(np.array([0, 1], np.int32), ["a", "b"]))]) is None
    assert numeric_columns([(0, ["1", "2"])]) is None
