"""The focused task of a whole run at once (`focal.evaluation.measures.engines.focused_run`) gives
exactly the evaluation of the topic-by-topic path, or declines (None) where that path warns or
fails."""

from __future__ import annotations

import random
from contextlib import ExitStack
from itertools import pairwise
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.arrow_table import FolTable, read_fol_table
from focal.evaluation.formats.fol.columns import columns_of_table
from focal.evaluation.formats.fol.qrels import read_qrels, read_qrels_columns
from focal.evaluation.formats.source import read_bytes
from focal.evaluation.measures.engines.focused_run import evaluate_table
from focal.evaluation.measures.evaluate import PreparedQrels, RunEvaluation, Settings, evaluate
from focal.evaluation.measures.passages import focused_groups
from focal.evaluation.measures.passages.focused_curves import _sums_before


def write_qrels(folder: Path, rng: random.Random) -> Path:
    """Topics 1-6: relevant and non-relevant articles (ids plain numbers, and one `007` that no
    run id can name); topic 5 has no relevant text; article lengths sometimes unknown (0)."""
    lines = []
    for topic in range(1, 7):
        for article in rng.sample(range(1, 60), 25):
            size = rng.choice((0, rng.randint(800, 3000)))
            if topic == 5 or rng.random() < 0.4:
                lines.append(f"{topic} Q0 {article} 0 {size}")
                continue
            cuts = sorted(rng.sample(range(1, 700), 4))
            spans = [(cuts[0], cuts[1] - cuts[0]), (cuts[2], cuts[3] - cuts[2])]
            passages = " ".join(f"{s}:{n}" for s, n in spans)
            rel = sum(n for _, n in spans)
            lines.append(f"{topic} Q0 {article} {rel} {size} {spans[0][0]} {passages}")
        lines.append(f"{topic} Q0 007 5 900 0 0:5")
    path = folder / "q.qrels"
    path.write_text("\n".join(lines) + "\n")
    return path


def write_run(
    folder: Path, rng: random.Random, overlap: bool, past_end: bool, ascending: bool = False
) -> Path:
    """Topics in a random order (or ascending), one absent from the qrels (9); several passages
    per article, some of length 0; with `overlap` one passage twice, with `past_end` a last
    passage at 5000 of every article (past the end of those of known length)."""
    lines, rank = [], 0
    topics = rng.sample(["1", "2", "3", "4", "5", "6", "9"], rng.randint(1, 7))
    for topic in sorted(topics) if ascending else topics:
        for article in rng.sample(range(0, 80), rng.randint(1, 30)):
            starts = sorted(rng.sample(range(0, 800, 100), rng.randint(1, 3)))
            for start in starts + [5000] * past_end:
                rank += 1
                length = rng.randint(0, 100)
                lines.append(f"{topic} Q0 {article} {rank} {1 / rank:.6f} r {start} {length}")
    if overlap:
        again = rng.randrange(len(lines))
        lines.insert(again, lines[again])
    path = folder / "r.run"
    path.write_text("\n".join(lines) + "\n")
    return path


def topic_by_topic(prepared: PreparedQrels, table: FolTable, settings: Settings) -> RunEvaluation:
    parameters = {k: v for k, v in settings.__dict__.items() if k != "task"}
    return evaluate(prepared, columns_of_table(table, "r.run"), "focused", **parameters)


GROUPINGS: dict[
    str, dict[str, int]
] = {  # how `focused_groups` sorts: with the line or the rank in the topic in the low
    "lines": {"_SORT_BITS": 63},  # bits, by np.argsort, topic block by topic block
    "ranks": {"_BY_LINE": False},
    "argsort": {"_SORT_BITS": 0},
    "lines in blocks": {"_BLOCK_SORT": 1},
    "ranks in blocks": {"_BLOCK_SORT": 1, "_BY_LINE": False},
}


@pytest.mark.parametrize("grouping", GROUPINGS)
@pytest.mark.parametrize("seed", range(60))
def test_same_evaluation_as_topic_by_topic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, grouping: str
) -> None:
    for name, value in GROUPINGS[grouping].items():
        monkeypatch.setattr(focused_groups, name, value)
    rng = random.Random(seed)
    qrels_path = write_qrels(tmp_path, rng)
    prepared = PreparedQrels(read_qrels(qrels_path))
    # half of the time the whole-run path indexes the qrels from the fast reader's columns
    read = read_qrels_columns(qrels_path)
    assert read[1] is not None
    indexed = PreparedQrels(*read) if seed % 4 < 2 else prepared
    overlap, past_end = seed % 5 == 1, seed % 7 == 2
    path = write_run(tmp_path, rng, overlap, past_end, ascending="blocks" in grouping)
    table = read_fol_table(read_bytes(path), True)
    assert table is not None and table.names is None
    settings = Settings(complete=seed % 2 == 0, strict=seed % 3 == 0)
    fast = evaluate_table(indexed, table, "r.run", settings)
    try:
        expected = topic_by_topic(prepared, table, settings)
    except FormatError:
        assert fast is None  # overlapping results: the topic-by-topic path names the lines
        return
    if fast is None:  # declined: only where the topic-by-topic path warns of more than topics
        assert any("has no relevant text" not in warning for warning in expected.warnings)
        return
    assert fast.topics == expected.topics
    assert fast.warnings == expected.warnings
    assert fast.unknown_topics == expected.unknown_topics
    assert (fast.run_id, fast.file, fast.settings) == (expected.run_id, "r.run", settings)


def test_declines_what_would_warn_or_fail(tmp_path: Path) -> None:
    """Overlapping results (an error) and results past their article's end (a warning)."""
    declined = {"overlap": 0, "past end": 0}
    for seed in range(20):
        rng = random.Random(seed)
        prepared = PreparedQrels(read_qrels(write_qrels(tmp_path, rng)))
        for kind in declined:
            path = write_run(tmp_path, rng, kind == "overlap", kind == "past end")
            table = read_fol_table(read_bytes(path), True)
            assert table is not None
            try:
                warnings = topic_by_topic(prepared, table, Settings()).warnings
            except FormatError:
                warnings = ["overlap"]
            if any("has no relevant text" not in warning for warning in warnings):
                assert evaluate_table(prepared, table, "r.run", Settings()) is None
                declined[kind] += 1
    assert declined["overlap"] > 5 and declined["past end"] > 5


def test_answers_an_ordinary_run(tmp_path: Path) -> None:
    """The fast path is taken (the comparison above is not only of declines)."""
    rng = random.Random(3)
    prepared = PreparedQrels(read_qrels(write_qrels(tmp_path, rng)))
    table = read_fol_table(read_bytes(write_run(tmp_path, rng, False, False)), True)
    assert table is not None
    fast = evaluate_table(prepared, table, "r.run", Settings())
    assert fast is not None and fast.topics
    assert fast.topics == topic_by_topic(prepared, table, Settings()).topics


BLOCKS = st.lists(  # topic blocks of results (article, start, length)
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 30), st.integers(0, 12)), min_size=1),
    min_size=1,
    max_size=4,
)


@given(BLOCKS, st.permutations(range(4)))
def test_groups_are_those_of_a_plain_sort(
    blocks: list[list[tuple[int, int, int]]], topics: list[int]
) -> None:
    """Every way of sorting groups the results as Python's sort of (topic, article, start,
    line) does, and declines exactly ties and overlaps (`focused.check_no_overlap`)."""
    rows = [(topics[b], *result) for b, block in enumerate(blocks) for result in block]
    keyed = sorted((t, a, s, line) for line, (t, a, s, _) in enumerate(rows))
    clash = any(
        (t, a) == (t2, a2) and (s == s2 or s2 < s + rows[line][3])
        for (t, a, s, line), (t2, a2, s2, _) in pairwise(keyed)
    )
    _, articles, starts, sizes = (np.array(c, np.int64) for c in zip(*rows, strict=True))
    qrels_topics = np.array(topics[: len(blocks)], np.int64)
    counts = np.array([len(block) for block in blocks], np.int64)
    bits = (2, 3, 5)
    for grouping in GROUPINGS.values():
        with ExitStack() as patches:
            for name, value in grouping.items():
                patches.enter_context(mock.patch.object(focused_groups, name, value))
            groups = focused_groups.group_results(
                qrels_topics, counts, articles, starts, sizes, bits
            )
        if clash:
            assert groups is None
            continue
        assert groups is not None
        assert groups.lines(np.arange(len(rows))).tolist() == [k[3] for k in keyed]
        assert groups.ordered.tolist() == [(t << 3 | a) << 5 | s for t, a, s, _ in keyed]
        firsts = [i for i, k in enumerate(keyed) if i == 0 or k[:2] != keyed[i - 1][:2]]
        assert groups.firsts.tolist() == firsts


@given(st.lists(st.integers(0, 1000), min_size=1), st.data())
def test_sums_before_are_prefix_sums(values: list[int], data: st.DataObject) -> None:
    points = data.draw(st.lists(st.integers(0, len(values))))
    sums = _sums_before(np.array(values, np.int64), np.array(points, np.int64))
    assert sums.tolist() == [sum(values[:x]) for x in points]


@given(st.sets(st.integers(0, 60)), st.sets(st.integers(0, 60)), st.sampled_from([0, 1000]))
def test_matches_are_the_common_values(needles: set[int], haystack: set[int], share: int) -> None:
    """By binary searches (share 1000) or by one merge (share 0), each common value once."""
    ordered_needles, ordered_haystack = sorted(needles), sorted(haystack)
    with mock.patch.object(focused_groups, "_MERGE_SHARE", share):
        found, where = focused_groups.matches(
            np.array(ordered_needles, np.int64), np.array(ordered_haystack, np.int64)
        )
    common = sorted(needles & haystack)
    assert found.tolist() == [ordered_needles.index(v) for v in common]
    assert where.tolist() == [ordered_haystack.index(v) for v in common]
