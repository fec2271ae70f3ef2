"""The whole-run engine on columns gives the topic-by-topic path's values, bit for bit, on
random runs and qrels (several topics, repeats, unassessed elements, tied scores), under every
quantisation, alpha and tie rule."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.elements.qrels import ElementQrels
from focal.evaluation.formats.elements.run_table import read_element_table
from focal.evaluation.formats.elements.runs import read_element_run
from focal.evaluation.formats.records import Result, Run
from focal.evaluation.measures.elements.quantisation import QUANTISATIONS, scales
from focal.evaluation.measures.elements.topic import ElementOptions
from focal.evaluation.measures.engines.element_topics import (
    PreparedElementQrels,
    evaluate_element_table,
    evaluate_elements,
    on_columns,
)
from focal.evaluation.measures.evaluate import Settings
from tests.evaluation.measures.elements.test_bounds import KEYS, qrels

MEASURES = ("P@k", "overlap@k", "inex_eval", "nxCG@k", "MAep", "nxCG@2", "P@1")


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["2004", "2005"]).flatmap(
        lambda scale: st.lists(qrels(scale), min_size=1, max_size=3)  # type: ignore[arg-type]
    ),
    st.lists(st.lists(st.tuples(KEYS, st.integers(1, 4)), max_size=25), min_size=1, max_size=4),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.sampled_from(["score", "rank"]),
    st.data(),
)
def test_columns_equal_topic_by_topic(topics, ranked, alpha, ties, data) -> None:  # type: ignore[no-untyped-def]
    scale = topics[0][0]
    element_qrels = ElementQrels("q", scale)
    for index, (_, judged) in enumerate(topics):
        element_qrels.topics[str(index)] = judged  # judgements keep topic "1": unused here
    results = {
        str(index): [
            Result(str(index), article, rank, float(score), rank, path=path)
            for rank, ((article, path), score) in enumerate(listed, start=1)
        ]
        for index, listed in enumerate(ranked)
        if listed
    }
    if not results:
        return
    run = Run("r", "r.run", "element", results)
    quant = data.draw(st.sampled_from([q for q in QUANTISATIONS if scale in scales(q) or
                                       scale == "2005"]))  # fmt: skip
    options = ElementOptions(quant=quant, alpha=alpha, ties=ties)  # type: ignore[arg-type]
    chosen = Settings(task="elements", complete=True, measures=MEASURES, elements=options)
    prepared = PreparedElementQrels(element_qrels)
    columns = evaluate_elements(prepared, run, chosen)
    topic_path = evaluate_elements(prepared, run, chosen, by_topic=True)
    assert columns.unknown_topics == topic_path.unknown_topics
    assert [t.topic for t in columns.topics] == [t.topic for t in topic_path.topics]
    for mine, theirs in zip(columns.topics, topic_path.topics, strict=True):
        assert mine.values.keys() == theirs.values.keys()
        for name, value in mine.values.items():
            assert value == theirs.values[name], (mine.topic, name)  # to the last bit


@settings(max_examples=100, deadline=None)
@given(
    st.lists(qrels("2004"), min_size=1, max_size=3),
    st.lists(st.lists(st.tuples(KEYS, st.integers(1, 4)), min_size=1, max_size=25), min_size=1,
             max_size=4),
    st.sampled_from([0.0, 0.5, 1.0]),
)  # fmt: skip
def test_a_run_read_as_a_table_scores_as_its_records(topics, ranked, alpha) -> None:  # type: ignore[no-untyped-def]
    """The table path (`read_element_table`, `evaluate_element_table`) against the records path,
    on a file whose topics include one the qrels lack (`9`): the same topics, the same unknown
    topics, the same values to the last bit."""
    element_qrels = ElementQrels("q", "2004")
    for index, (_, judged) in enumerate(topics):
        element_qrels.topics[str(index)] = judged
    lines = [
        f"{topic} Q0 {article} {rank} {score} r {path}\n"
        for topic, listed in zip([*map(str, range(len(ranked) - 1)), "9"], ranked, strict=True)
        for rank, ((article, path), score) in enumerate(listed, start=1)
    ]
    options = ElementOptions(alpha=alpha)
    chosen = Settings(task="elements", complete=True, measures=MEASURES, elements=options)
    prepared = PreparedElementQrels(element_qrels)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.txt"
        path.write_text("".join(lines))
        table = read_element_table(path)
        records, _ = read_element_run(path)
    assert table is not None and on_columns(prepared, chosen)
    fast = evaluate_element_table(prepared, table, chosen)
    careful = evaluate_elements(prepared, records, chosen)
    assert (fast.run_id, fast.file, fast.unknown_topics) == (
        careful.run_id, careful.file, careful.unknown_topics,
    )  # fmt: skip
    assert [(t.topic, t.answered) for t in fast.topics] == [
        (t.topic, t.answered) for t in careful.topics
    ]
    for mine, theirs in zip(fast.topics, careful.topics, strict=True):
        assert mine.values == theirs.values, mine.topic  # dict equality: every bit
