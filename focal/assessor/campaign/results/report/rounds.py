"""Relevant articles found per pooling round (spec section 10; seed 003 §5.2.1, Fig 2).

The imported runs are pooled again, top-n with each topic's stored pool size (`pooling`), to
learn in which round every pooled article came in; each round's row counts the articles that
entered then and how many of them some assessor judged relevant, and the share of all the
relevant articles found by the end of that round. Seed 003 plots Fig 2 in highlighted
passages: each row also counts the passages of the relevant articles that entered then (every
assessor's passages, as the articles are every assessor's), and their share so far.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools.build import ranked_runs
from focal.assessor.campaign.results.report.data import Judged
from focal.assessor.campaign.results.report.table import Chart, ReportTable
from focal.assessor.store.models import Pool
from focal.pooling.strategies import top_n_pool

DEFAULT_SIZE = 500


def rounds_table(session: Session, judged: Sequence[Judged]) -> ReportTable:
    """The table of Fig 2 for the topics of `judged` pooled top-n from imported runs."""
    topics = sorted({item.line.topic for item in judged})
    relevant = {(item.line.topic, item.line.article) for item in judged if item.line.relevant}
    passages_of: Counter[tuple[str, str]] = Counter()
    for item in judged:
        if item.line.relevant:
            passages_of[(item.line.topic, item.line.article)] += len(item.line.passages)
    sizes = {
        pool.topic_id: int(pool.parameters.get("size", DEFAULT_SIZE))
        for pool in session.scalars(
            select(Pool).where(Pool.topic_id.in_(topics), Pool.method == "topn")
        )
    }
    entered: Counter[int] = Counter()
    found: Counter[int] = Counter()
    passages: Counter[int] = Counter()
    runs = ranked_runs(session, list(sizes)) if sizes else []
    for size in sorted(set(sizes.values())):
        wanted = [topic for topic, n in sizes.items() if n == size]
        pool = top_n_pool(
            [run.__class__(run.run_id, {t: run.topics[t] for t in wanted if t in run.topics},
                           run.file) for run in runs],
            size=size,
        )  # fmt: skip
        for topic_pool in pool.topics.values():
            for entry in topic_pool.articles:
                entered[entry.first_round] += 1
                if (topic_pool.topic, entry.article) in relevant:
                    found[entry.first_round] += 1
                    passages[entry.first_round] += passages_of[(topic_pool.topic, entry.article)]
    total, total_passages = sum(found.values()), sum(passages.values())
    rows: list[tuple[object, ...]] = []
    cumulative = cumulative_passages = 0
    for round_ in sorted(entered):
        cumulative += found[round_]
        cumulative_passages += passages[round_]
        rows.append((
            round_, entered[round_], found[round_], cumulative / total if total else None,
            passages[round_], cumulative_passages / total_passages if total_passages else None,
        ))  # fmt: skip
    if not judged:
        why = "no article has been judged here yet"
    else:
        why = (
            "no topic here was pooled top-n from imported runs "
            "(pools made from qrels have no rounds)"
        )
    return ReportTable(
        "pooling_rounds",
        "Articles, relevant articles and their highlighted passages entering the pool per "
        "top-n round, and the share of each found by then (seed 003 Fig 2, in articles and "
        "in passages)",
        (
            "round",
            "articles",
            "relevant",
            "relevant_share_so_far",
            "passages",
            "passages_share_so_far",
        ),
        rows,
        None if rows else why,
        [
            Chart("relevant", "Relevant articles entering the pool per round", "round", None),
            Chart("passages", "Highlighted passages entering the pool per round", "round", None),
        ],
    )
