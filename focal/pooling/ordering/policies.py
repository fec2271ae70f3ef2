"""The judging-order policies: given one topic's arms and the judgements so far, the next article.

- `rank`: the pool's own order (pool rank: what the runs ranked first is judged first), as
  assessors judged before adaptive orders existed.
- `random`: a random permutation of the pool, drawn once per topic from the seed.
- `mtf`: move-to-front (Cormack, Palmer and Clarke, SIGIR 1998): every run starts with priority 0;
  the run with the highest priority is read while it gives relevant articles; a non-relevant one
  lowers its priority by one and the next run of highest priority is read (ties: the run just
  read, then the runs after it in the given order, cyclically).
- `ucb`: UCB1 (Auer, Cesa-Bianchi and Fischer 2002), one of the bandits of Losada et al. (2016):
  every run once, then the run maximising its share of relevant judgements plus
  `sqrt(c · ln n / n_i)` (`c` = 2 by default; n judgements credited to runs, n_i to this run).
- `thompson`: Thompson sampling (Losada et al. 2016, 2017): each run's rate of relevant articles
  has a Beta(1 + relevant, 1 + non-relevant) posterior; a rate is drawn per run, the highest
  is read.
- `thompson-ns`: the non-stationary variant (Losada et al., IPM 2017): a run's relevant articles
  thin out as it is read deeper, so its older evidence counts less. Our reading: each time a run is
  read its counts are first multiplied by `discount` (0.9 by default; 1 gives `thompson`).
- `mtc`: a minimal test collection (Carterette, Allan & Sitaraman 2006): the article whose
  judgement is expected to move most the differences of the pairs of runs whose order on the
  topic is still open, relevance probabilities from the topic's judgements so far
  (`focal.pooling.forecast.advice.shift_scores`, docs/forecast.md).

A judgement the policy suggested is credited to the run it drew from; one the assessor chose
otherwise is credited to the first run whose next article it was, or to none (it is still judged).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from focal.pooling.forecast.advice import open_pairs, shift_scores
from focal.pooling.forecast.model import Posterior, TopicPool, fit, topic_rng
from focal.pooling.ordering.arms import Arms, ArmStatistics


@dataclass(frozen=True, slots=True)
class Choice:
    """The next article (None when the pool is judged), the run it was drawn from (None for
    `rank`, `random`, and articles no run retrieved) and the arm statistics of the choice."""

    article: str | None
    run: str | None
    arms: tuple[ArmStatistics, ...]


class Policy:
    """A judging order over one topic's `arms`; `rng` draws every random choice it makes."""

    name: ClassVar[str] = ""
    deterministic: ClassVar[bool] = True  # True: the seed changes nothing

    def __init__(self, arms: Arms, rng: np.random.Generator) -> None:
        self.arms = arms
        self.rng = rng

    def choose(self) -> Choice:
        """The article to judge next."""
        raise NotImplementedError

    def observe(self, article: str, relevant: bool, choice: Choice) -> None:
        """`article` was judged `relevant` (or not) after `choice` was offered."""
        arm = (
            self.arms.names.index(choice.run)
            if choice.run is not None and choice.article == article
            else self.arms.owner(article)
        )
        self.arms.record(article, relevant, arm)
        if arm is not None:
            self.learn(arm, relevant)

    def learn(self, arm: int, relevant: bool) -> None:
        """Update the policy's own state after a judgement credited to `arm`."""


class RankOrder(Policy):
    name = "rank"

    def choose(self) -> Choice:
        return Choice(self.arms.first_unjudged(self.arms.pool), None, self.arms.statistics())


class RandomOrder(Policy):
    name = "random"
    deterministic = False

    def __init__(self, arms: Arms, rng: np.random.Generator) -> None:
        super().__init__(arms, rng)
        self.order = [arms.pool[i] for i in rng.permutation(len(arms.pool)).tolist()]

    def choose(self) -> Choice:
        return Choice(self.arms.first_unjudged(self.order), None, self.arms.statistics())


class Bandit(Policy):
    """A policy that reads runs: scores the live runs and reads the best one's next article."""

    def choose(self) -> Choice:
        live = self.arms.live()
        if not live:
            article = self.arms.first_unjudged(self.arms.unretrieved)
            return Choice(article, None, self.arms.statistics())
        scores = self.scores(live)
        arm = self.pick(live, scores)
        return Choice(self.arms.head(arm), self.arms.names[arm], self.arms.statistics(scores))

    def scores(self, live: Sequence[int]) -> NDArray[np.float64]:
        """One score per arm (arms not in `live` are never picked)."""
        raise NotImplementedError

    def pick(self, live: Sequence[int], scores: NDArray[np.float64]) -> int:
        """The live arm of highest score, the first in run order on ties."""
        return max(live, key=lambda arm: (scores[arm], -arm))


class MoveToFront(Bandit):
    name = "mtf"

    def __init__(self, arms: Arms, rng: np.random.Generator) -> None:
        super().__init__(arms, rng)
        self.priority = np.zeros(len(arms))
        self.last: int | None = None

    def scores(self, live: Sequence[int]) -> NDArray[np.float64]:
        return self.priority.copy()

    def pick(self, live: Sequence[int], scores: NDArray[np.float64]) -> int:
        start = 0 if self.last is None else self.last
        count = len(self.arms)
        # The run just read first, then the others cyclically after it.
        return max(live, key=lambda arm: (scores[arm], -((arm - start) % count)))

    def learn(self, arm: int, relevant: bool) -> None:
        self.last = arm
        if not relevant:
            self.priority[arm] -= 1


class UpperConfidence(Bandit):
    name = "ucb"
    exploration = 2.0

    def scores(self, live: Sequence[int]) -> NDArray[np.float64]:
        pulls, relevant = self.arms.pulls, self.arms.relevant
        total = float(pulls.sum())
        with np.errstate(divide="ignore", invalid="ignore"):
            bonus = np.sqrt(self.exploration * math.log(max(total, 1.0)) / pulls)
            scores = np.where(pulls > 0, relevant / pulls + bonus, np.inf)
        return scores


class Thompson(Bandit):
    name = "thompson"
    deterministic = False

    def evidence(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Relevant and non-relevant judgements per arm, as the posterior counts them."""
        return self.arms.relevant, self.arms.pulls - self.arms.relevant

    def scores(self, live: Sequence[int]) -> NDArray[np.float64]:
        relevant, other = self.evidence()
        return self.rng.beta(1.0 + relevant, 1.0 + other)


class NonStationaryThompson(Thompson):
    name = "thompson-ns"
    discount = 0.9

    def __init__(self, arms: Arms, rng: np.random.Generator) -> None:
        super().__init__(arms, rng)
        self.relevant = np.zeros(len(arms))
        self.other = np.zeros(len(arms))

    def evidence(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return self.relevant, self.other

    def learn(self, arm: int, relevant: bool) -> None:
        self.relevant[arm] = self.discount * self.relevant[arm] + relevant
        self.other[arm] = self.discount * self.other[arm] + (not relevant)


class MinimalTestCollection(Policy):
    name = "mtc"
    confidence = 0.9

    def __init__(self, arms: Arms, rng: np.random.Generator) -> None:
        super().__init__(arms, rng)
        data = TopicPool("", arms.pool, tuple(tuple(ranked) for ranked in arms.lists))
        self.features = data.features()
        self.weights = data.weights()
        self.index = {article: i for i, article in enumerate(arms.pool)}
        self.posterior: Posterior | None = None

    def choose(self) -> Choice:
        judged = {self.index[a]: r for a, r in self.arms.judged.items() if a in self.index}
        unjudged = np.array([i for i in range(len(self.index)) if i not in judged], dtype=int)
        if not len(unjudged):
            return Choice(None, None, self.arms.statistics())
        start = None if self.posterior is None else self.posterior.mode
        self.posterior = fit(self.features, judged, start)
        probabilities = self.posterior.probabilities(self.features)
        for row, relevant in judged.items():
            probabilities[row] = float(relevant)
        open_mask = open_pairs(self.weights, probabilities, self.confidence)
        scores = shift_scores(self.weights, probabilities, open_mask)[unjudged]
        # Ties: the article most likely relevant, then pool order.
        best = max(range(len(unjudged)), key=lambda k: (scores[k], probabilities[unjudged[k]], -k))
        return Choice(self.arms.pool[int(unjudged[best])], None, self.arms.statistics())


POLICIES: dict[str, type[Policy]] = {
    policy.name: policy
    for policy in (RankOrder, RandomOrder, MoveToFront, UpperConfidence, Thompson,
                   NonStationaryThompson, MinimalTestCollection)
}  # fmt: skip
"""Every policy by name, in the order the docs and the simulator list them."""


def policy_for(name: str, arms: Arms, seed: int | str, topic: str) -> Policy:
    """The policy `name` over `arms`, its random choices seeded by `seed` and `topic` (so that
    topics draw independently, and the same seed gives the same order)."""
    try:
        kind = POLICIES[name]
    except KeyError:
        raise ValueError(
            f"unknown judging order {name!r}: expected one of {', '.join(POLICIES)}"
        ) from None
    return kind(arms, topic_rng(seed, topic))
