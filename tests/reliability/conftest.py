"""A small campaign written by hand: three topics, five runs in three groups.

Every article is 1000 characters long; a relevant article has one relevant passage 0:200 (BEP 0).
Runs return passages 0:100 of their articles, best first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

RELEVANT = {
    "1": ["a1", "a2", "a3", "a4", "a5", "a6"],
    "2": ["b1", "b2", "b3", "b4"],
    "3": ["c1", "c2", "c3", "c4", "c5"],
}
NOT_RELEVANT = {"1": ["x1", "x2"], "2": ["y1"], "3": ["z1", "z2"]}

RUNS = {
    "alpha": {"1": "a1 x1 a2 a3 q1", "2": "b1 y1 b2", "3": "c1 c2 z1 c3"},
    "alpha-b": {"1": "a1 a2 x1 a5", "2": "b1 b2 b4", "3": "c2 c1 c5"},
    "beta": {"1": "x2 a4 a1 q2", "2": "y1 b3 b1", "3": "z2 c4 c1"},
    "gamma": {"1": "a6 a1 x1", "2": "b2 q3", "3": "c3 z1 c1 c2"},
    "delta": {"1": "q4 a3 a2", "2": "b4 b1", "3": "z2 z1 c5"},
}
GROUPS = {"alpha": "A", "alpha-b": "A", "beta": "B", "gamma": "C"}  # delta alone


def qrels_text() -> str:
    lines = []
    for topic in RELEVANT:
        for article in RELEVANT[topic]:
            lines.append(f"{topic} Q0 {article} 200 1000 0 0:200\n")
        for article in NOT_RELEVANT[topic]:
            lines.append(f"{topic} Q0 {article} 0 1000\n")
    return "".join(lines)


def run_text(run_id: str) -> str:
    lines = []
    for topic, articles in RUNS[run_id].items():
        for rank, article in enumerate(articles.split(), start=1):
            lines.append(f"{topic} Q0 {article} {rank} {1 / rank:.4f} {run_id} 0 100\n")
    return "".join(lines)


@pytest.fixture
def campaign(tmp_path: Path) -> tuple[Path, list[Path], Path]:
    """(qrels file, run files in the order of RUNS, groups file)."""
    qrels = tmp_path / "campaign.qrels"
    qrels.write_text(qrels_text(), encoding="utf-8")
    runs = []
    for run_id in RUNS:
        path = tmp_path / f"{run_id}.fol.run"
        path.write_text(run_text(run_id), encoding="utf-8")
        runs.append(path)
    groups = tmp_path / "groups.tsv"
    groups.write_text("".join(f"{run}\t{group}\n" for run, group in GROUPS.items()))
    return qrels, runs, groups
