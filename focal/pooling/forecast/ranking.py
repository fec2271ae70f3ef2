"""The campaign's forecast: every topic's, then how the runs' ranking could still move.

Each topic's draws (`topics`) are completions of its qrels; draw s of every topic together is a
completed campaign. The runs are scored by mean average precision over the topics' articles
(binary relevance; an article outside the pool or not judged is not relevant), ranked now (the
judgements so far) and under each completion. From the draws: each run's expected score and
the interval of its rank; Kendall τ and τ_AP (Yilmaz, Aslam & Robertson 2008) of the ranking now
against the completed one, their mean and central interval; a pair of runs is settled when the
completed qrels order it as the judgements so far do with probability at least `confidence`
(Carterette, Allan & Sitaraman 2006 call a comparison settled the same way). The advice of
`advice` then says how many judgements, in which topics, would settle most of the rest, and
which topics may stop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from focal.evaluation.statistics.rank_correlation import tau_a, tau_ap
from focal.pooling.forecast.advice import article_scores, may_stop, most_of, pair_terms
from focal.pooling.forecast.model import TopicPool, topic_rng
from focal.pooling.forecast.topics import DRAWS, TopicDraws, TopicForecast, forecast_topic

Floats = NDArray[np.float64]


@dataclass(frozen=True)
class RunForecast:
    """One run: its mean average precision now and expected once complete, its rank now and
    the interval of its completed rank (1 is best)."""

    run: str
    score_now: float
    score_expected: float
    rank_now: int
    rank_low: int
    rank_high: int


@dataclass(frozen=True)
class RankingForecast:
    """What the judgements left could change in the ranking (τ fields None below 3 runs)."""

    runs: tuple[RunForecast, ...]
    pairs: int
    pairs_settled: int
    unsettled: tuple[tuple[str, str, float], ...]  # (run, run, probability the order holds)
    tau_expected: float | None
    tau_low: float | None
    tau_high: float | None
    tau_ap_expected: float | None
    tau_ap_low: float | None
    tau_ap_high: float | None
    judge_more: int
    judge_topics: tuple[str, ...]
    stop_topics: tuple[str, ...]


@dataclass(frozen=True)
class Forecast:
    """Per topic, the whole campaign (`total`, topic `all`) and the ranking."""

    confidence: float
    topics: tuple[TopicForecast, ...]
    total: TopicForecast
    ranking: RankingForecast


def forecast(
    pools: Sequence[TopicPool],
    runs: Sequence[str],
    judged: Mapping[str, Mapping[str, bool]],
    confidence: float = 0.9,
    seed: int | str = 0,
    draws: int = DRAWS,
) -> Forecast:
    """The forecast of the campaign whose topics are `pools` (each listing the `runs`, in that
    order), from `judged` (topic -> article -> relevant)."""
    done = [
        forecast_topic(p, judged.get(p.topic, {}), topic_rng(seed, p.topic), confidence, draws)
        for p in pools
    ]
    tail = (1.0 - confidence) / 2.0
    left = sum((_left_draws(d) for d in done), np.zeros(draws))
    low, high = np.quantile(left, [tail, 1.0 - tail], method="inverted_cdf")
    total = TopicForecast(
        "all",
        sum(d.forecast.pool_size for d in done),
        sum(d.forecast.judged for d in done),
        sum(d.forecast.relevant_found for d in done),
        float(left.mean()),
        int(low),
        int(high),
    )
    topics = tuple(d.forecast for d in done)
    return Forecast(confidence, topics, total, _ranking(done, runs, confidence, draws))


def _left_draws(done: TopicDraws) -> Floats:
    """Per draw, the relevant articles among the topic's unjudged ones."""
    found = done.forecast.relevant_found
    return np.asarray(done.completions.sum(axis=1) - found, dtype=np.float64)


def average_precision(data: TopicPool, relevant: NDArray[np.bool_]) -> Floats:
    """draws × runs: average precision of each run for each row of `relevant` (draws × pool).

    >>> data = TopicPool.of("1", ["a", "b"], [["a", "x", "b"], ["b"]])
    >>> average_precision(data, np.array([[True, True]])).round(3).tolist()
    [[0.833, 0.5]]
    """
    totals = relevant.sum(axis=1).astype(np.float64)
    index = {article: i for i, article in enumerate(data.pool)}
    scores = np.zeros((relevant.shape[0], len(data.runs)))
    for r, ranked in enumerate(data.runs):
        if not ranked:
            continue
        columns = np.array([index[a] for a in ranked])
        ranks = np.array(data.run_ranks(r), dtype=np.float64)
        hits = relevant[:, columns].astype(np.float64)
        precision = np.cumsum(hits, axis=1) / ranks
        scores[:, r] = (hits * precision).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(totals[:, None] > 0, scores / totals[:, None], 0.0)


def _ranking(
    done: Sequence[TopicDraws], runs: Sequence[str], confidence: float, draws: int
) -> RankingForecast:
    count = max(1, len(done))
    now = np.zeros(len(runs))
    completed = np.zeros((draws, len(runs)))
    for d in done:
        judged_now = (d.probabilities == 1.0)[None, :]
        now += average_precision(d.data, judged_now)[0] / count
        completed += average_precision(d.data, d.completions) / count
    first, second = np.triu_indices(len(runs), 1)
    sign_now = np.sign(now[first] - now[second])
    agree = (np.sign(completed[:, first] - completed[:, second]) == sign_now).mean(axis=0)
    settled = agree >= confidence
    unsettled = tuple(
        (runs[int(i)], runs[int(j)], float(p))
        for i, j, p, s in zip(first, second, agree, settled, strict=True)
        if not s
    )
    tail = (1.0 - confidence) / 2.0
    taus = _taus(runs, now, completed)
    ranks_now = _ranks(now[None, :])[0]
    ranks = _ranks(completed)
    run_rows = tuple(
        RunForecast(
            name, float(now[r]), float(completed[:, r].mean()), int(ranks_now[r]),
            int(np.quantile(ranks[:, r], tail, method="inverted_cdf")),
            int(np.quantile(ranks[:, r], 1.0 - tail, method="inverted_cdf")),
        )
        for r, name in enumerate(runs)
    )  # fmt: skip
    judge_more, judge_topics, stop_topics = _advice(done, ~settled, confidence)
    return RankingForecast(
        run_rows, len(first), int(settled.sum()), unsettled,
        *_summary(taus[0], tail), *_summary(taus[1], tail),
        judge_more, judge_topics, stop_topics,
    )  # fmt: skip


def _ranks(scores: Floats) -> NDArray[np.int64]:
    """draws × runs: each run's rank (1 best; equal scores in run order)."""
    order = np.argsort(-scores, axis=1, kind="stable")
    ranks = np.empty_like(order)
    rows = np.arange(scores.shape[0])[:, None]
    ranks[rows, order] = np.arange(1, scores.shape[1] + 1)[None, :]
    return ranks


def _taus(runs: Sequence[str], now: Floats, completed: Floats) -> tuple[Floats, Floats]:
    if len(runs) < 3:
        return np.zeros(0), np.zeros(0)
    current = dict(zip(runs, now.tolist(), strict=True))
    pairs = [dict(zip(runs, row.tolist(), strict=True)) for row in completed]
    return (
        np.array([tau_a(full, current) for full in pairs]),
        np.array([tau_ap(full, current) for full in pairs]),
    )


def _summary(values: Floats, tail: float) -> tuple[float | None, float | None, float | None]:
    if not len(values):
        return None, None, None
    low, high = np.quantile(values, [tail, 1.0 - tail], method="inverted_cdf")
    return float(values.mean()), float(low), float(high)


def _advice(
    done: Sequence[TopicDraws], open_mask: NDArray[np.bool_], confidence: float
) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """K judgements and the topics holding them that remove most of the open pairs'
    variance, and the topics that may stop (`advice`)."""
    terms = [pair_terms(d.data.weights(), d.probabilities) for d in done]
    totals = sum((t.sum(axis=1) for t in terms), np.zeros(len(open_mask)))
    scored = [
        (float(score), d.forecast.topic)
        for d, t in zip(done, terms, strict=True)
        for score in article_scores(t, open_mask, totals)
        if score > 0
    ]
    count = most_of([score for score, _ in scored])
    chosen = sorted(scored, reverse=True)[:count]
    held: dict[str, int] = {}
    for _, topic in chosen:
        held[topic] = held.get(topic, 0) + 1
    topics = tuple(sorted(held, key=lambda topic: -held[topic]))
    stop = tuple(
        d.forecast.topic
        for d, t in zip(done, terms, strict=True)
        if may_stop(t.sum(axis=1), totals, open_mask, confidence)
    )
    return count, topics, stop


def summary_sentence(result: Forecast) -> str:
    """ "The ranking is settled for N of M pairs; judging K more articles in topics … would
    settle most of the rest." (the sentence the Pools page shows too)."""
    ranking = result.ranking
    text = (
        f"The ranking is settled for {ranking.pairs_settled} of {ranking.pairs} pairs "
        f"at {round(result.confidence * 100)} % confidence"
    )
    if ranking.pairs_settled == ranking.pairs or not ranking.judge_more:
        return text + "."
    topics = ", ".join(ranking.judge_topics[:5]) + (" …" if len(ranking.judge_topics) > 5 else "")
    more = f"judging {ranking.judge_more} more articles in topics {topics}"
    return f"{text}; {more} would settle most of the rest."
