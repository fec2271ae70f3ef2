"""The INEX top-n rounds of one topic, with the per-result work done at C speed.

Only the stopping rule needs the rounds one by one: `zip_longest` hands over each round's k-th
results as one tuple (None for an exhausted run) and a set counts the distinct articles, so a
round costs two C calls whatever the number of runs. Everything a pool row says is derived
afterwards from the rounds read:

- pool order: `dict.fromkeys` over the rounds, in order, keeps each article's first visit;
- first round: the articles new in round k are exactly the set's growth in round k, and they
  come in that order, so one count per round gives every article its round;
- best rank: within top-n rounds the rank is the round, so it equals the first round;
- contributors: each run's results within its depth, deduplicated with a set, visited in run
  order (one dict look-up per distinct run and article, no object per result).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, islice, repeat, zip_longest
from typing import cast

from focal.pooling.records import PooledArticle, RunLists, TopicPool, pooled_articles
from focal.pooling.topn_arrays import numeric_columns, top_n_numeric_pool

Round = tuple[str | None, ...]
"""The k-th result of every run of a topic, in run order (None: the run has no k-th result)."""


def read_rounds(
    lists: RunLists, size: int, already: Sequence[str] = ()
) -> tuple[list[Round], list[int]]:
    """The rounds read until one ends with at least `size` articles (or the runs run out).

    `already` are articles in the pool before the first round (a fusion pool's fused top).
    Returns the rounds and the number of distinct articles (plus one, for None) before the
    first round and after each round.
    """
    seen: set[str | None] = {None, *already}
    counts = [len(seen)]
    rounds: list[Round] = []
    target = size + 1  # None is in the set
    if counts[0] < target:
        for row in zip_longest(*[articles for _, articles in lists]):
            rounds.append(row)
            seen.update(row)
            counts.append(len(seen))
            if counts[-1] >= target:
                break
    return rounds, counts


def top_n_topic_pool(
    topic: str,
    lists: RunLists,
    run_ids: Sequence[str],
    size: int,
    before: Sequence[PooledArticle] = (),
) -> TopicPool:
    """One topic's top-n pool: `before` (pooled ahead of the rounds), then rounds up to `size`.

    Articles of `before` keep their rows (their contributors must already cover the rounds).
    Runs read as integer article ids are pooled on arrays (`focal.pooling.topn_arrays`), to the same
    pool.
    """
    if not before and size >= 1:
        columns = numeric_columns(lists)
        if columns is not None:
            return top_n_numeric_pool(topic, lists, columns, run_ids, size)
    already = [entry.article for entry in before]
    rounds, counts = read_rounds(lists, size, already)
    read = len(rounds)
    order = dict.fromkeys(chain([None], already, chain.from_iterable(rounds)))
    # None and `before` are the first keys, then the new articles in the order they entered
    new = cast(list[str], list(islice(order, counts[0], None)))
    first_rounds = list(
        chain.from_iterable(repeat(k, counts[k] - counts[k - 1]) for k in range(1, read + 1))
    )
    contributors: dict[str, list[str]] = {article: [] for article in new}
    skipped = set(already)
    for run_index, articles in lists:
        returned = set(articles[:read])
        if skipped:
            returned -= skipped
        run_id = run_ids[run_index]
        for article in returned:
            contributors[article].append(run_id)
    rows = pooled_articles(
        topic, new, first_rounds, first_rounds, map(tuple, contributors.values())
    )
    depths = {run_ids[index]: min(read, len(articles)) for index, articles in lists}
    return TopicPool(topic, (*before, *rows), depths, read)
