"""Results and files as pandas DataFrames: the tidy form (`run, measure, topic, value`), its
wide form (runs × measures), and qrels and runs in ir_measures' columns.

pandas is imported by these functions only, so that `focal eval` and the other commands never
load it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from focal.evaluation.api import Evaluation
from focal.evaluation.measures.registry.vocabulary import asked_rows

if TYPE_CHECKING:
    import pandas

TIDY_COLUMNS = ("run", "measure", "topic", "value")


def tidy(result: Evaluation, names: Sequence[str], per_topic: bool) -> pandas.DataFrame:
    """One row per run, measure and topic (`all`: the run's aggregate, as `focal eval` prints
    it); `measure` is the name as asked for (`AP`, not trec_eval's `map`); with `names` empty,
    every row the engine printed, by its printed name.

    >>> from focal.evaluation.api import evaluate
    >>> result = evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, "articles", ["AP"])
    >>> tidy(result, ["AP"], per_topic=False).to_dict("records")
    [{'run': 'run1', 'measure': 'AP', 'topic': 'all', 'value': 1.0}]
    """
    import pandas as pd

    rows: list[tuple[str, str, str, float]] = []
    for run in result.runs:
        aggregate, topics = result.aggregate[run], result.per_topic[run]
        if per_topic and "num_q" in aggregate:  # each topic counts 1, as ir_measures' NumQ
            topics = {topic: {**values, "num_q": 1} for topic, values in topics.items()}
        printed = (
            [*dict.fromkeys(r for v in topics.values() for r in v)] if per_topic else [*aggregate]
        )
        if not printed:  # no topic shared with the qrels: no rows, whatever was asked
            continue
        chosen = asked_rows(names, printed) if names else [(r, r) for r in printed]
        if per_topic:
            for topic, values in topics.items():
                rows.extend(
                    (run, name, topic, float(values[row])) for name, row in chosen if row in values
                )
        else:
            rows.extend((run, name, "all", float(aggregate[row])) for name, row in chosen)
    frame = pd.DataFrame(rows, columns=list(TIDY_COLUMNS))
    return frame


def wide(frame: pandas.DataFrame, topic: str = "all") -> pandas.DataFrame:
    """The tidy frame of `focal.evaluate` as a table: one row per run, one column per measure
    (the values of `topic`, `all` by default), runs and measures in their first order.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": ["a", "a", "b", "b"], "measure": ["AP", "P@5"] * 2,
    ...                       "topic": ["all"] * 4, "value": [0.5, 0.4, 0.3, 0.2]})
    >>> wide(frame).to_dict("index")
    {'a': {'AP': 0.5, 'P@5': 0.4}, 'b': {'AP': 0.3, 'P@5': 0.2}}
    """
    chosen = frame[frame["topic"] == topic]
    table = chosen.pivot(index="run", columns="measure", values="value")
    table = table.reindex(index=list(dict.fromkeys(chosen["run"])))
    table = table.reindex(columns=list(dict.fromkeys(chosen["measure"])))
    table.columns.name = None
    return table


def qrels_frame(path: str | os.PathLike[str]) -> pandas.DataFrame:
    """A qrels file (TREC or FOL, told apart as `focal eval` does) in ir_measures' columns:
    `query_id, doc_id, relevance`; FOL qrels add `rel_chars` and `article_chars`, relevance
    being 1 when the article has relevant text (as trec_eval's engine reads FOL qrels).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "q.qrels"
    >>> _ = path.write_text("1 Q0 a 10 100 0 0:10\\n", encoding="utf-8")
    >>> qrels_frame(path).to_dict("records")
    [{'query_id': '1', 'doc_id': 'a', 'relevance': 1, 'rel_chars': 10, 'article_chars': 100}]
    """
    import pandas as pd

    from focal.evaluation.api import read_qrels
    from focal.evaluation.formats.trec import TrecQrels

    read = read_qrels(path)
    if not isinstance(read, TrecQrels):
        rows = [
            (topic, article, int(j.rel_chars > 0), j.rel_chars, j.article_chars)
            for topic, judged in read.items()
            for article, j in judged.items()
        ]
        columns = ["query_id", "doc_id", "relevance", "rel_chars", "article_chars"]
        return pd.DataFrame(rows, columns=columns)
    return pd.DataFrame({
        "query_id": [t.decode() for t in read.topic.to_pylist()],
        "doc_id": [d.decode() for d in read.doc.to_pylist()],
        "relevance": read.grade.tolist(),
    })  # fmt: skip


def run_frame(path: str | os.PathLike[str]) -> pandas.DataFrame:
    """A run file (TREC, FOL, element or article run) in ir_measures' columns: `query_id,
    doc_id, score`, with `run_id` and `rank` (a passage run keeps one row per passage; its
    articles score their best passage when evaluated).

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = path.write_text("1 Q0 a 1 2.0 r 0 20\\n", encoding="utf-8")
    >>> run_frame(path).to_dict("records")
    [{'run_id': 'r', 'query_id': '1', 'doc_id': 'a', 'rank': 1, 'score': 2.0}]
    """
    import pandas as pd

    from focal.evaluation.formats.fol.runs import read_run

    run = read_run(os.fspath(path))
    rows = [
        (run.run_id, topic, result.article, result.rank, result.score)
        for topic, results in run.topics.items()
        for result in results
    ]
    return pd.DataFrame(rows, columns=["run_id", "query_id", "doc_id", "rank", "score"])
