"""Article-level measures from passage qrels, with trec_eval semantics.

An article is relevant when `rel_chars > 0` and judged non-relevant when `rel_chars == 0`; its
graded gain (nDCG) is its relevant fraction `rel_chars / article_chars`. A run is reduced to
articles (an article's score is the best score of its results) and ranked as trec_eval does:
score descending, then article id descending (string order). The names (`MAP`, `P@k`, ...) are
declared in `focal.evaluation.measures.registry`; `engines.article_topics` computes them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from focal.evaluation.formats.fol.columns import TopicColumns
from focal.evaluation.formats.records import Judgement, Result


@dataclass(frozen=True)
class ArticleJudgements:
    """One topic's article-level judgements."""

    gains: dict[str, float]  # relevant article -> relevant fraction
    nonrelevant: frozenset[str]

    @classmethod
    def from_qrels(cls, judgements: Mapping[str, Judgement]) -> ArticleJudgements:
        gains = {
            a: j.rel_chars / j.article_chars if j.article_chars > 0 else 1.0
            for a, j in judgements.items()
            if j.rel_chars > 0
        }
        return cls(gains, frozenset(a for a, j in judgements.items() if j.rel_chars <= 0))


def article_ranking(results: Sequence[Result] | TopicColumns) -> list[str]:
    """Articles of a topic (its results, or its columns) ranked as trec_eval ranks documents.

    >>> rs = [Result("1", a, 0, s, 0) for a, s in [("5", 1.0), ("7", 2.0), ("5", 3.0), ("9", 2.0)]]
    >>> article_ranking(rs)
    ['5', '9', '7']
    """
    scored: Iterable[tuple[str, float]]
    if isinstance(results, TopicColumns):
        scored = zip(results.articles, results.scores.tolist(), strict=True)
    else:
        scored = ((result.article, result.score) for result in results)
    best: dict[str, float] = {}
    for article, score in scored:
        if article not in best or score > best[article]:
            best[article] = score
    return sorted(best, key=lambda a: (best[a], a), reverse=True)


def average_precision(ranking: Sequence[str], relevant: Mapping[str, float]) -> float:
    """AP = Σ_{r: d_r relevant} P@r / R (MAP is its mean). Reference: trec_eval `m_map.c`.

    >>> average_precision(["a", "x", "b"], {"a": 1.0, "b": 1.0, "c": 1.0})
    0.5555555555555555
    """
    found, total = 0, 0.0
    for rank, article in enumerate(ranking, 1):
        if article in relevant:
            found += 1
            total += found / rank
    return total / len(relevant) if relevant else 0.0


def precision_at(ranking: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """P@k = |relevant in ranks 1..k| / k (always divided by k). Reference: trec_eval `m_P.c`.

    >>> precision_at(["a", "x"], {"a": 1.0}, 5)
    0.2
    """
    return sum(1 for article in ranking[:k] if article in relevant) / k


def r_precision(ranking: Sequence[str], relevant: Mapping[str, float]) -> float:
    """Rprec = |relevant in ranks 1..R| / R. Reference: trec_eval `m_Rprec.c`.

    >>> r_precision(["a", "x", "b"], {"a": 1.0, "b": 1.0})
    0.5
    """
    r = len(relevant)
    return sum(1 for article in ranking[:r] if article in relevant) / r if r else 0.0


def bpref(
    ranking: Sequence[str], relevant: Mapping[str, float], nonrelevant: frozenset[str]
) -> float:
    """bpref = Σ_{relevant d_r} (1 − min(n_r, m)/m) / R with n_r the judged non-relevant
    articles above rank r and m = min(R, |judged non-relevant|); unjudged articles are skipped.

    Reference: Buckley & Voorhees, SIGIR 2004; trec_eval `m_bpref.c`.

    >>> bpref(["n", "a", "u", "b"], {"a": 1.0, "b": 1.0}, frozenset({"n", "m"}))
    0.5
    """
    r = len(relevant)
    m = min(r, len(nonrelevant))
    above, total = 0, 0.0
    for article in ranking:
        if article in relevant:
            total += 1.0 - min(above, m) / m if above else 1.0
        elif article in nonrelevant:
            above += 1
    return total / r if r else 0.0


def ndcg_at(ranking: Sequence[str], gains: Mapping[str, float], k: int) -> float:
    """nDCG@k = Σ_{r≤k} g(d_r) / log2(r+1) ÷ the same sum over the ideal ordering of all judged
    gains. Reference: Järvelin & Kekäläinen, TOIS 2002; trec_eval `m_ndcg_cut.c`.

    >>> round(ndcg_at(["b", "a"], {"a": 1.0, "b": 0.5}, 10), 6)
    0.859719
    """
    dcg = sum(gains.get(a, 0.0) / math.log2(r + 1) for r, a in enumerate(ranking[:k], 1))
    ideal_gains = sorted(gains.values(), reverse=True)[:k]
    ideal = sum(g / math.log2(r + 1) for r, g in enumerate(ideal_gains, 1))
    return dcg / ideal if ideal > 0 else 0.0
