"""Focal's article measures topic by topic, on FOL qrels (the `articles` vocabulary of
`registry.names`): a topic's results reduced to a ranking of articles, then each requested name
read by the grammar and computed by the function its declaration names, from this table (no
chain of name tests). Formulas and references: `focal.evaluation.measures.articles.topic`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from focal.evaluation.formats.fol.columns import TopicColumns
from focal.evaluation.formats.records import Result
from focal.evaluation.measures.articles import topic as articles
from focal.evaluation.measures.articles.topic import ArticleJudgements
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.records import RunEvaluation, Settings, TopicEvaluation
from focal.evaluation.measures.registry import names

Ranking = Sequence[str]
# declared name -> value of a ranking against the judgements, `k` the parameter (0: none)
COMPUTE: dict[str, Callable[[Ranking, ArticleJudgements, int], float]] = {
    "MAP": lambda ranking, judged, _: articles.average_precision(ranking, judged.gains),
    "P@k": lambda ranking, judged, k: articles.precision_at(ranking, judged.gains, k),
    "nDCG(gain=fraction)@k": lambda ranking, judged, k: articles.ndcg_at(ranking, judged.gains, k),
    "Rprec": lambda ranking, judged, _: articles.r_precision(ranking, judged.gains),
    "bpref": lambda ranking, judged, _: articles.bpref(ranking, judged.gains, judged.nonrelevant),
}
PROVIDES = frozenset(COMPUTE)
_parse = functools.lru_cache(maxsize=256)(names.parse)  # each name read once, not per topic


def topic_values(
    ranking: Ranking, judged: ArticleJudgements, measures: Sequence[str]
) -> dict[str, int | float]:
    """Counts (num_ret, num_rel, num_rel_ret) and the requested measures of one topic, each
    row named as it was asked for (`P@10`)."""
    relevant = judged.gains
    values: dict[str, int | float] = {
        "num_ret": len(ranking),
        "num_rel": len(relevant),
        "num_rel_ret": sum(1 for a in ranking if a in relevant),
    }
    for name in measures:
        request = _parse(name, "articles")
        k = int(request.parameters[0]) if request.parameters else 0
        values[name] = COMPUTE[request.measure](ranking, judged, k)
    return values


def evaluate_topic(
    prepared: PreparedQrels,
    topic: str,
    results: Sequence[Result] | TopicColumns,
    evaluation: RunEvaluation,
) -> TopicEvaluation:
    """One topic: its articles ranked as trec_eval ranks documents, then its measures."""
    ranking = articles.article_ranking(results)
    judged = prepared.article_judgements(topic)
    return TopicEvaluation(topic, topic_values(ranking, judged, evaluation.settings.measures))


def missing_topic(prepared: PreparedQrels, topic: str, settings: Settings) -> TopicEvaluation:
    """A qrels topic the run does not answer: an empty ranking, its relevant articles counted."""
    judged = prepared.article_judgements(topic)
    values = topic_values([], judged, settings.measures)
    return TopicEvaluation(topic, values, answered=False)
