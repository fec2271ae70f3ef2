"""The numpy pass's memory budget (`numpy_pass.look.KEEP`): files within it read once and their
lines kept, the qrels first and the run in what is left, files beyond it read again a block at
a time; every mix answers as the C pass (docs/trec_eval.md, "The C part")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from focal.evaluation.measures.registry.names import parse_trec
from focal.evaluation.measures.trec_eval.engine.plain_pass import PlainOptions, row_tuples
from focal.evaluation.measures.trec_eval.numpy_pass import look
from focal.evaluation.measures.trec_eval.numpy_pass.passes import open_numpy_pass

from .test_numpy_pass import assert_same, both
from .test_plain_pass import write


def test_files_within_the_budget_are_read_once(tmp_path: Path) -> None:
    """The first look keeps a file's lines while the file and they fit in the budget (the qrels
    first, the run in what is left); a file beyond it is read again a block at a time. Every
    mix answers as the C pass."""
    rng = random.Random(5)
    qrels = [f"{t} 0 d{d} {rng.choice([0, 1, 2])}\n" for t in range(1, 7) for d in range(9)]
    run = [f"{t} Q0 d{d} {d} {rng.random():.2f} r\n" for t in (2, 1, 3, 5, 6) for d in range(11)]
    paths = write(tmp_path, qrels, run, "grouped", 0)
    r_size = Path(paths[1]).stat().st_size
    whole = look.look(paths[0], look.QRELS_FIELDS, 1 << 20)
    assert whole is not None and whole.kept is not None  # a word and a byte a line, each group
    held = whole.kept.size
    assert held == 9 * len(qrels) + 8 * (6 + 1)
    dropped = look.look(paths[0], look.QRELS_FIELDS, held - 1)  # read, lines not kept
    assert dropped is not None and dropped.kept is None
    assert dropped.topics.texts() == whole.topics.texts() == [str(t).encode() for t in range(1, 7)]
    rows = row_tuples(parse_trec(["official"], 10))
    for budget, kept in [(0, (False, False)), (held - 1, (False, False)),
                         (held + r_size - 1, (True, False)), (1 << 20, (True, True))]:  # fmt: skip
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(look, "KEEP", budget)
            mine = open_numpy_pass(*paths, rows, PlainOptions())
        assert mine is not None
        indexes = mine._indexes  # (which files the pass keeps)
        assert (indexes[0].kept is not None, indexes[1].kept is not None) == kept, budget
        for size in [(16, 1, budget), (1 << 20, 2048, budget)]:
            assert_same(*both(paths, rows, PlainOptions(), size))


def test_kept_lines_outgrowing_the_first_chunks_guess(tmp_path: Path) -> None:
    """Long lines first, then many short ones: the kept arrays, sized from the first chunk's
    lines a byte, grow; the same answers as the C pass."""
    long_id = "d" * 300
    qrels = [f"1 0 {long_id}{i} 1\n" for i in range(3)]
    qrels += [f"{t} 0 d{d} {d % 3}\n" for t in range(1, 9) for d in range(60)]
    run = [f"1 Q0 {long_id}{i} {i} 9.5 r\n" for i in range(3)]
    run += [f"{t} Q0 d{d} {d} {1 / (d + 1):.4f} r\n" for t in range(1, 9) for d in range(70)]
    paths = write(tmp_path, qrels, run, "grouped", 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(look, "CHUNK", 400)
        index = look.look(paths[0], look.QRELS_FIELDS, 1 << 20)
    assert index is not None and index.kept is not None
    assert int(index.kept.firsts[-1]) == len(qrels)
    rows = row_tuples(parse_trec(["official"], 10))
    for size in [(400, 1, 1 << 20), (400, 2048, 1 << 20)]:
        assert_same(*both(paths, rows, PlainOptions(), size))
