"""A FOL run at article level, as the article engine takes it (a `TrecRun`): each (topic,
article) scores its best result, as trec_eval would score the article (docs/trec_eval.md)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from focal.evaluation.formats.arrow import binary_array, numeric_array, to_numpy
from focal.evaluation.formats.fol.arrow_table import FolTable
from focal.evaluation.formats.trec import TrecRun


def articles_of_table(table: FolTable, name: str) -> TrecRun:
    """A FOL run's columns at article level: the best score of each (topic, article), found on
    integer keys with numpy (no Python loop over the results, and no pyarrow Table, whose
    construction imports pandas when it is installed)."""
    import pyarrow.compute as pc  # (imported when first used: 30 ms)

    assert table.passages is not None  # read with passages=True
    size = len(table)
    blocks = np.diff(np.append(table.firsts, size))
    topic_index = np.repeat(np.arange(len(table.topics), dtype=np.int64), blocks)
    articles = np.asarray(table.articles).astype(np.int64)  # ids, or indexes into table.names
    width = int(articles.max()) + 1 if size else 1
    keys, inverse = np.unique(topic_index * width + articles, return_inverse=True)
    best = np.full(len(keys), -np.inf)
    scores = table.passages.scores
    np.maximum.at(best, inverse, scores if isinstance(scores, np.ndarray) else to_numpy(scores))
    topics = binary_array([t.encode() for t in table.topics])
    topic = topics.take(numeric_array(keys // width))
    if table.names is None:  # every id a plain number
        doc = pc.cast(pc.cast(numeric_array(keys % width), pa.string()), pa.large_binary())
    else:
        names = binary_array([n.encode() for n in table.names])
        doc = names.take(numeric_array(keys % width))
    return TrecRun(table.run_id, name, topic, doc, best)
