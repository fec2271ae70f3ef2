"""The runs as arms: each run's pooled articles in rank order, and what has been judged.

An arm is a run; pulling it judges the first article of the run's ranking that is in the pool and
not judged yet (Losada et al. 2016, §3). An article is judged once: judging it moves every arm that
ranks it past it. Articles of the pool that no run retrieved (a pool read from a file, or a qrels
pool wider than the given runs) are reached only when every arm is exhausted, in pool order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class ArmStatistics:
    """What a policy knew of one run when it chose: judgements it drew from the run (`pulls`),
    how many of them were relevant, the policy's score for the run (its priority, upper bound
    or sampled rate; `nan` for policies that do not score runs) and whether the run had
    unjudged pooled articles left."""

    run: str
    pulls: int
    relevant: int
    score: float
    exhausted: bool


class Arms:
    """The judging state of one topic: arms over `pool`, and the judgements so far.

    `runs` are (run id, article ids in rank order) pairs in the order the runs were given; an
    article a run returns several times (several passages) counts at its first rank.
    """

    def __init__(self, runs: Sequence[tuple[str, Sequence[str]]], pool: Sequence[str]) -> None:
        pooled = dict.fromkeys(pool)
        self.pool: tuple[str, ...] = tuple(pooled)
        self.names: tuple[str, ...] = tuple(name for name, _ in runs)
        self.lists: list[list[str]] = [
            [article for article in dict.fromkeys(articles) if article in pooled]
            for _, articles in runs
        ]
        self._cursor = [0] * len(self.lists)
        retrieved = {article for ranked in self.lists for article in ranked}
        self.unretrieved: tuple[str, ...] = tuple(a for a in self.pool if a not in retrieved)
        self.judged: dict[str, bool] = {}
        self.pulls: NDArray[np.float64] = np.zeros(len(self.lists))
        self.relevant: NDArray[np.float64] = np.zeros(len(self.lists))

    def restart(self) -> Arms:
        """The same runs and pool with nothing judged (the rankings are shared, not copied)."""
        fresh = object.__new__(Arms)
        fresh.pool, fresh.names, fresh.lists = self.pool, self.names, self.lists
        fresh.unretrieved = self.unretrieved
        fresh._cursor = [0] * len(self.lists)
        fresh.judged = {}
        fresh.pulls = np.zeros(len(self.lists))
        fresh.relevant = np.zeros(len(self.lists))
        return fresh

    def __len__(self) -> int:
        return len(self.lists)

    def head(self, arm: int) -> str | None:
        """The article pulling `arm` would judge next; None when the run is exhausted."""
        ranked, cursor = self.lists[arm], self._cursor[arm]
        while cursor < len(ranked) and ranked[cursor] in self.judged:
            cursor += 1
        self._cursor[arm] = cursor
        return ranked[cursor] if cursor < len(ranked) else None

    def live(self) -> list[int]:
        """The arms with an unjudged pooled article left, in run order."""
        return [arm for arm in range(len(self.lists)) if self.head(arm) is not None]

    def remaining(self) -> int:
        """Pooled articles not judged yet."""
        return len(self.pool) - len(self.judged)

    def first_unjudged(self, order: Sequence[str]) -> str | None:
        """The first article of `order` not judged yet."""
        return next((article for article in order if article not in self.judged), None)

    def record(self, article: str, relevant: bool, arm: int | None) -> None:
        """`article` judged (`relevant` or not), drawn from `arm` (None: from no arm)."""
        self.judged[article] = relevant
        if arm is not None:
            self.pulls[arm] += 1
            self.relevant[arm] += relevant

    def owner(self, article: str) -> int | None:
        """The first arm (in run order) whose next article is `article`, if any: the arm a
        judgement that the policy did not suggest is credited to."""
        return next((arm for arm in range(len(self.lists)) if self.head(arm) == article), None)

    def statistics(self, scores: NDArray[np.float64] | None = None) -> tuple[ArmStatistics, ...]:
        """Per run, what a choice was based on (`scores` from the policy, if it scores runs)."""
        return tuple(
            ArmStatistics(
                name,
                int(self.pulls[arm]),
                int(self.relevant[arm]),
                float("nan") if scores is None else float(scores[arm]),
                self.head(arm) is None,
            )
            for arm, name in enumerate(self.names)
        )


def topic_runs(
    runs: Sequence[tuple[str, Mapping[str, Sequence[str]]]], topic: str
) -> list[tuple[str, Sequence[str]]]:
    """(run id, that run's article ids for `topic`) for every run, in the given order."""
    return [(name, topics.get(topic, ())) for name, topics in runs]
