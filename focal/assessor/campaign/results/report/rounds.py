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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.pools.build import ranked_runs
from focal.assessor.campaign.results.report.data import Judged
from focal.assessor.campaign.results.report.table import Chart, ReportTable
from focal.assessor.store.models import Pool
from focal.pooling import records
from focal.pooling.records import RankedRun, TopicPool
from focal.pooling.strategies import top_n_pool

DEFAULT_SIZE = 500


def rounds_table(session: Session, judged: Sequence[Judged]) -> ReportTable:
    """The table of Fig 2 for the topics of `judged` pooled top-n from imported runs."""
    topics = sorted({item.line.topic for item in judged})
    sizes = _top_n_sizes(session, topics)
    relevant = _relevant_passages(judged)
    counts = _Rounds()
    runs = ranked_runs(session, list(sizes)) if sizes else []
    for pool in _top_n_pools(runs, sizes):
        counts.add(pool.topics.values(), relevant)
    rows = counts.rows()
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
        "top-n round, and the share of each found by then, in articles and in passages",
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


def _relevant_passages(judged: Sequence[Judged]) -> Counter[tuple[str, str]]:
    """Every relevant (topic, article), with its passages summed over the assessors."""
    passages_of: Counter[tuple[str, str]] = Counter()
    for item in judged:
        if item.line.relevant:
            passages_of[(item.line.topic, item.line.article)] += len(item.line.passages)
    return passages_of


def _top_n_sizes(session: Session, topics: list[str]) -> dict[str, int]:
    """Topic -> the size of its top-n pool, for the topics pooled top-n."""
    return {
        pool.topic_id: int(pool.parameters.get("size", DEFAULT_SIZE))
        for pool in session.scalars(
            select(Pool).where(Pool.topic_id.in_(topics), Pool.method == "topn")
        )
    }


def _top_n_pools(runs: Sequence[RankedRun], sizes: dict[str, int]) -> Iterator[records.Pool]:
    """One top-n pool per stored size, of the topics pooled with that size."""
    for size in sorted(set(sizes.values())):
        wanted = [topic for topic, n in sizes.items() if n == size]
        yield top_n_pool(
            [run.__class__(run.run_id, {t: run.topics[t] for t in wanted if t in run.topics},
                           run.file) for run in runs],
            size=size,
        )  # fmt: skip


@dataclass(slots=True)
class _Rounds:
    """Per round, the articles that entered the pool, the relevant ones, and their passages."""

    entered: Counter[int] = field(default_factory=Counter)
    found: Counter[int] = field(default_factory=Counter)
    passages: Counter[int] = field(default_factory=Counter)

    def add(self, topic_pools: Iterable[TopicPool], relevant: Counter[tuple[str, str]]) -> None:
        """Counts the articles of one pool; `relevant` as `_relevant_passages` gives it."""
        for topic_pool in topic_pools:
            for entry in topic_pool.articles:
                self.entered[entry.first_round] += 1
                if (topic_pool.topic, entry.article) in relevant:
                    self.found[entry.first_round] += 1
                    self.passages[entry.first_round] += relevant[(topic_pool.topic, entry.article)]

    def rows(self) -> list[tuple[object, ...]]:
        """A row a round: its counts and the shares found so far (None when nothing is)."""
        total, total_passages = sum(self.found.values()), sum(self.passages.values())
        rows: list[tuple[object, ...]] = []
        cumulative = cumulative_passages = 0
        for round_ in sorted(self.entered):
            found, passages = self.found[round_], self.passages[round_]
            cumulative += found
            cumulative_passages += passages
            rows.append((
                round_, self.entered[round_], found, cumulative / total if total else None,
                passages, cumulative_passages / total_passages if total_passages else None,
            ))  # fmt: skip
        return rows
