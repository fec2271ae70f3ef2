"""`focal trec_eval -q` formats its per-topic rows a block of topics at a time
(`layout.BLOCK`): the bytes must not depend on where the blocks fall, for every kind of row
(counts, `%6.4f` values, NaN, relstring, runid, z-scores) and with a stop after some topics."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval import layout
from tests.evaluation.cli.test_trec_eval_command import files, run_command


def _files(tmp_path: Path, topics: int) -> tuple[str, str, str]:
    """Qrels and a run of `topics` topics (ids 1..topics, so not in byte order), random grades
    and scores, and a -Z file for two measures."""
    chooser = random.Random(topics)
    qrels, run, zscores = [], [], []
    for topic in range(1, topics + 1):
        for doc in range(6):
            qrels.append(f"{topic} 0 d{doc} {chooser.choice([0, 1, 2, -1])}\n")
        for rank, doc in enumerate(chooser.sample(range(9), 5)):
            run.append(f"{topic} Q0 d{doc} {rank} {chooser.choice([1.5, 2.0, 3.25])} tag\n")
        zscores.append(f"{topic} map {chooser.random():.3f} {chooser.random():.3f}\n")
        zscores.append(f"{topic} P_5 0.2 0\n")
    q, r = files(tmp_path, "".join(qrels), "".join(run))
    (tmp_path / "z").write_text("".join(zscores))
    return q, r, str(tmp_path / "z")


@pytest.mark.parametrize(
    "options",
    [
        ["-q", "-m", "all_trec"],
        ["-q", "-m", "relstring", "-m", "runid", "-m", "num_q", "-m", "Rndcg", "-m", "G"],
        ["-q", "-n", "-c", "-M", "3", "-m", "official"],
        ["-q", "-m", "map", "-m", "P.5"],  # with -Z below
    ],
)
def test_rows_do_not_depend_on_the_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    q, r, z = _files(tmp_path, 23)
    argv = [*options, *(["-Z", z] if options[-1] == "P.5" else []), q, r]
    monkeypatch.setattr(layout, "BLOCK", 10_000)
    whole = run_command(*argv)
    assert whole[0] == 0 and whole[1].count("\t1\t") > 1  # per-topic rows of topic 1
    for block in (1, 4, 22, 23):
        monkeypatch.setattr(layout, "BLOCK", block)
        assert run_command(*argv) == whole


def test_rows_before_a_stop_do_not_depend_on_the_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run leaves out topic 9 of 12: exit 4 after the rows of the topics before it."""
    q, r, _ = _files(tmp_path, 12)
    kept = [line for line in Path(r).read_text().splitlines(True) if not line.startswith("9 ")]
    Path(r).write_text("".join(kept))
    monkeypatch.setattr(layout, "BLOCK", 10_000)
    whole = run_command("-q", "-m", "all_trec", q, r)
    assert whole[0] == 4 and "\t8\t" in whole[1] and "\t9\t" not in whole[1]
    for block in (1, 5):
        monkeypatch.setattr(layout, "BLOCK", block)
        assert run_command("-q", "-m", "all_trec", q, r) == whole
