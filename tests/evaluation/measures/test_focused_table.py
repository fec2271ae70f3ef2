"""The focused task of a whole run at once (`evaluation.measures.focused_table`) gives exactly the
evaluation of the topic-by-topic path, or declines (None) where that path warns or fails."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from evaluation.errors import FormatError
from evaluation.formats._source import read_bytes
from evaluation.formats.columns import columns_of_table
from evaluation.formats.fol_arrow import FolTable, read_fol_table
from evaluation.formats.qrels import read_qrels
from evaluation.measures.evaluate import PreparedQrels, RunEvaluation, Settings, evaluate
from evaluation.measures.focused_table import evaluate_table


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


def write_run(folder: Path, rng: random.Random, overlap: bool, past_end: bool) -> Path:
    """Topics in a random order, one absent from the qrels (9); several passages per article;
    with `overlap` one passage twice, with `past_end` a last passage at 5000 of every article
    (past the end of those of known length)."""
    lines, rank = [], 0
    for topic in rng.sample(["1", "2", "3", "4", "5", "6", "9"], rng.randint(1, 7)):
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


@pytest.mark.parametrize("seed", range(60))
def test_same_evaluation_as_topic_by_topic(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    prepared = PreparedQrels(read_qrels(write_qrels(tmp_path, rng)))
    overlap, past_end = seed % 5 == 1, seed % 7 == 2
    table = read_fol_table(read_bytes(write_run(tmp_path, rng, overlap, past_end)), True)
    assert table is not None and table.names is None
    settings = Settings(complete=seed % 2 == 0, strict=seed % 3 == 0)
    fast = evaluate_table(prepared, table, "r.run", settings)
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
