"""The qrels as arrays (`focal.evaluation.measures.passages.qrels_arrays`): computed from the fast
path's columns at once, they equal those computed topic by topic from each topic's
`RelevantText`."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.fol.qrels import read_qrels_columns
from focal.evaluation.measures.evaluate import PreparedQrels
from focal.evaluation.measures.passages.qrels_arrays import (
    JudgedArrays,
    arrays_of_columns,
    arrays_of_texts,
    plain_number,
    plain_numbers,
)

ARTICLE_IDS = st.one_of(
    st.integers(0, 1 << 34).map(str),
    st.text("0123456789", min_size=1, max_size=12),  # leading zeros, eleven digits and more
    st.text(min_size=1, max_size=4),  # letters, Unicode digits, signs
)
FIELDS = ("composites", "keys", "limits", "span_keys", "starts", "lengths", "before")


@given(st.lists(ARTICLE_IDS, max_size=20))
def test_plain_numbers_of_a_list_are_those_of_each_id(articles: list[str]) -> None:
    assert plain_numbers(articles).tolist() == [plain_number(a) for a in articles]


@st.composite
def qrels_files(draw: st.DrawFn) -> str:
    """FOL qrels the fast path reads: topics in blocks that may come back, ids plain numbers or
    not, relevant lines with passages out of order, unknown article lengths (0)."""
    topics = draw(st.lists(st.sampled_from(["1", "2", "10", "t7", "003"]), min_size=1, max_size=6))
    ids = st.sampled_from(["5", "17", "007", "0", "2147483647", "2147483648", "a", "99"])
    lines = []
    for topic in topics:  # a topic drawn twice comes back in a later block
        for article in draw(st.lists(ids, min_size=1, max_size=4, unique=True)):
            if any(line.split()[:3:2] == [topic, article] for line in lines):
                continue  # judged once per topic
            size = draw(st.sampled_from([0, 500, 3000]))
            cuts = draw(st.lists(st.integers(0, 400), min_size=2, max_size=6, unique=True))
            if draw(st.booleans()) or len(cuts) % 2:
                lines.append(f"{topic} Q0 {article} 0 {size}")
                continue
            cuts.sort()
            spans = [(cuts[i], cuts[i + 1] - cuts[i]) for i in range(0, len(cuts), 2)]
            spans = draw(st.permutations(spans))
            passages = " ".join(f"{start}:{length}" for start, length in spans)
            rel = sum(length for _, length in spans)
            lines.append(f"{topic} Q0 {article} {rel} {size} {spans[0][0]} {passages}")
    return "\n".join(lines) + "\n"


def equal(ours: JudgedArrays, theirs: JudgedArrays) -> bool:
    return (
        ours.topics == theirs.topics
        and all(np.array_equal(getattr(ours, f), getattr(theirs, f)) for f in FIELDS)
        and np.array_equal(ours.rel_size, theirs.rel_size)
        and np.array_equal(ours.num_rel, theirs.num_rel)
    )


@settings(max_examples=200, deadline=None)
@given(qrels_files())
def test_the_arrays_of_the_columns_are_those_of_the_texts(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "q.qrels"
        path.write_text(text)
        qrels, columns = read_qrels_columns(path)
    assert qrels is None and columns is not None  # every file drawn is plain
    prepared = PreparedQrels(None, columns)
    topics = list(prepared.qrels)  # the records, built from the columns
    by_topic = arrays_of_texts(topics, [prepared.text(topic) for topic in topics])
    assert equal(arrays_of_columns(columns), by_topic)


def test_a_worked_example() -> None:
    """Topic 1 judges 17 (relevant, passages 10:5 and 0:3 given out of order) and 007 (left out:
    no run can name it); topic 2 judges 5 (relevant, 4:6) and then topic 1 comes back with 9
    (relevant, 0:2). Keys: topic 1's relevant articles first in file order (17 -> 0, 9 -> 1),
    then topic 2's (5 -> 2); `before` counts the article's relevant characters before each
    passage (3 before 10:5)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "q.qrels"
        path.write_text(
            "1 Q0 17 8 100 0 10:5 0:3\n1 Q0 007 0 0\n2 Q0 5 6 0 4 4:6\n1 Q0 9 2 50 0 0:2\n"
        )
        _, columns = read_qrels_columns(path)
    assert columns is not None
    arrays = arrays_of_columns(columns)
    assert arrays.topics == {"1": 0, "2": 1}
    assert arrays.composites.tolist() == [17, 9, 1 << 32 | 5]
    assert arrays.keys.tolist() == [0, 1, 2] and arrays.limits.tolist() == [100, 50, -1]
    assert arrays.span_keys.tolist() == [0, 0, 1, 2]
    assert arrays.starts.tolist() == [0, 10, 0, 4] and arrays.lengths.tolist() == [3, 5, 2, 6]
    assert arrays.before.tolist() == [0, 3, 0, 0]
    assert arrays.rel_size.tolist() == [10, 6] and arrays.num_rel.tolist() == [2, 1]
