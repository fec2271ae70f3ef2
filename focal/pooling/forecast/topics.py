"""Per topic: the relevant articles still unjudged, with an interval (docs/forecast.md).

The model of `model` is fitted to the topic's judgements; coefficients are drawn from its
posterior and, for each draw, every unjudged pooled article is drawn relevant or not at its
probability. The count of relevant draws over the unjudged articles is the forecast: its mean,
and the central `confidence` interval of the draws (a posterior predictive interval, as the
stratified estimate behind statAP gives one from sampling, Aslam, Pavlu & Yilmaz 2006). Each
draw is also a completion of the topic's qrels, which `ranking` uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from focal.pooling.forecast.model import TopicPool, fit

DRAWS = 400
"""Completions drawn per topic: the interval's ends move by about one article between seeds."""
MIN_JUDGED = 5
"""Judgements a topic needs before a page shows its interval (fewer: the prior alone speaks)."""


@dataclass(frozen=True)
class TopicForecast:
    """One topic's forecast: pool size, judged articles and relevant among them, and the
    relevant articles left (mean of the draws) with the interval's ends."""

    topic: str
    pool_size: int
    judged: int
    relevant_found: int
    relevant_left: float
    relevant_left_low: int
    relevant_left_high: int


@dataclass(frozen=True)
class TopicDraws:
    """The forecast and its draws: `completions` is draws × pool (judged articles as judged,
    the others drawn), `probabilities` each pooled article's relevance probability at the
    posterior mode (1 or 0 for judged ones)."""

    forecast: TopicForecast
    data: TopicPool
    completions: NDArray[np.bool_]
    probabilities: NDArray[np.float64]


def with_judged(data: TopicPool, judged: Mapping[str, bool]) -> TopicPool:
    """`data` with the judged articles it does not pool appended (judged, so never drawn)."""
    extra = tuple(article for article in judged if article not in set(data.pool))
    if not extra:
        return data
    return replace(data, pool=data.pool + extra)


def forecast_topic(
    data: TopicPool,
    judged: Mapping[str, bool],
    rng: np.random.Generator,
    confidence: float = 0.9,
    draws: int = DRAWS,
) -> TopicDraws:
    """The forecast of one topic from `judged` (article -> relevant).

    >>> from focal.pooling.forecast.model import topic_rng
    >>> data = TopicPool.of("1", ["a", "b", "c"], [["a", "b", "c"]])
    >>> done = forecast_topic(data, {"a": True, "b": False, "c": True}, topic_rng(0, "1"))
    >>> (done.forecast.relevant_found, done.forecast.relevant_left_high)
    (2, 0)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"a confidence is between 0 and 1, got {confidence}")
    data = with_judged(data, judged)
    index = {article: i for i, article in enumerate(data.pool)}
    rows = {index[article]: relevant for article, relevant in judged.items()}
    features = data.features()
    posterior = fit(features, rows)
    unjudged = np.array([i for i in range(len(data.pool)) if i not in rows], dtype=np.int64)
    completions = np.zeros((draws, len(data.pool)), dtype=bool)
    for row, relevant in rows.items():
        completions[:, row] = relevant
    probabilities = np.zeros(len(data.pool))
    for row, relevant in rows.items():
        probabilities[row] = float(relevant)
    if len(unjudged):
        drawn = posterior.draws(features[unjudged], draws, rng)
        completions[:, unjudged] = rng.random(drawn.shape) < drawn
        probabilities[unjudged] = posterior.probabilities(features[unjudged])
    left = completions[:, unjudged].sum(axis=1) if len(unjudged) else np.zeros(draws)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(left, [tail, 1.0 - tail], method="inverted_cdf")
    forecast = TopicForecast(
        data.topic,
        len(data.pool),
        len(rows),
        sum(rows.values()),
        float(left.mean()),
        int(low),
        int(high),
    )
    return TopicDraws(forecast, data, completions, probabilities)
