"""Per-topic scores of several runs, paired by topic id into one topics × runs matrix.

Spec section 8: with `complete` (`-c`) every topic counts and a topic a run does not answer scores
0; without, only the topics every run answers count, and the others are reported as dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from focal.evaluation.statistics.significance.results import FloatArray


@dataclass(frozen=True)
class PairedScores:
    """A topics × runs matrix, its row and column names, and the topics left out."""

    runs: tuple[str, ...]
    topics: tuple[str, ...]
    matrix: FloatArray
    dropped: tuple[str, ...] = ()
    complete: bool = False

    @property
    def description(self) -> str:
        """How the topics were chosen, for a note on stderr."""
        if self.complete:
            return f"paired on all {len(self.topics)} topics (-c; a missing topic scores 0)"
        text = f"paired on the {len(self.topics)} topics every run answers"
        return text + (f"; {len(self.dropped)} dropped" if self.dropped else "")


def pair_by_topic(
    values: Mapping[str, Mapping[str, float]],
    complete: bool = False,
    topics: Sequence[str] | None = None,
) -> PairedScores:
    """Pair the per-topic `values` of each run (run → topic → value) by topic id.

    `topics` is the full topic set (the qrels topics) for `complete`; by default, every topic
    any run answers, in first-seen order. Raises ValueError when fewer than two runs are given
    or when no topic is left.

    >>> paired = pair_by_topic({"a": {"1": .5, "2": .1}, "b": {"2": .3, "3": .2}})
    >>> paired.topics, paired.dropped, paired.matrix.tolist()
    (('2',), ('1', '3'), [[0.1, 0.3]])
    >>> pair_by_topic({"a": {"1": .5}, "b": {"2": .3}}, complete=True).matrix.tolist()
    [[0.5, 0.0], [0.0, 0.3]]
    """
    runs = tuple(values)
    if len(runs) < 2:
        raise ValueError("comparing needs at least two runs")
    seen: dict[str, None] = dict.fromkeys(topics or ())
    if topics is None:
        for run in runs:
            seen.update(dict.fromkeys(values[run]))
    every = tuple(seen)
    dropped: tuple[str, ...] = ()
    if complete:
        chosen = every
    else:
        chosen = tuple(t for t in every if all(t in values[run] for run in runs))
        dropped = tuple(t for t in every if t not in set(chosen))
    if not chosen:
        raise ValueError("the runs have no topic in common" if not complete else "no topics")
    matrix = np.array(
        [[float(values[run].get(topic, 0.0)) for run in runs] for topic in chosen],
        dtype=np.float64,
    )
    return PairedScores(runs, chosen, matrix, dropped, complete)
