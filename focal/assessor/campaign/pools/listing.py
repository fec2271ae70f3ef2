"""The assessor's pool list: every pooled article with its title, state and flag, in one query.

A pool may hold 1,500 articles (INEX 2006 pooled about 500 per topic, the top-n default here is
500): the list is read with one SELECT (pool entries joined to their documents' stored titles,
this assessor's judgements and notes), never a file per article. Search, filter and sort then
work on those rows in Python, so the page answers the same with or without JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.store.models import (
    ArticleNote,
    Assignment,
    Document,
    Judgement,
    Pool,
    PoolEntry,
)

FILTERS = ("all", "unfinished", "unjudged", "relevant", "nonrelevant", "flagged")
SORTS = ("pool", "title", "state")
SEARCH_LENGTH = 200  # longer searches are cut: no title or id is longer
STATE_ORDER = {"unjudged": 0, "relevant": 1, "nonrelevant": 2}


@dataclass(frozen=True, slots=True)
class PoolRow:
    position: int  # 0-based display order of the pool
    article: str
    title: str | None  # None: no title found in the file (the page shows the id)
    status: str  # unjudged | relevant | nonrelevant
    finished: bool
    passages: int
    flagged: bool
    noted: bool  # a note was written

    @property
    def label(self) -> str:
        """What the list shows as the article's name: its title, else its id."""
        return self.title or self.article


@dataclass(frozen=True, slots=True)
class PoolList:
    rows: list[PoolRow]  # the whole pool, in pool order
    counts: dict[str, int]  # filter -> how many rows it keeps

    @property
    def left(self) -> int:
        """How many articles are still to be judged."""
        return self.counts["unjudged"]


def pool_list(session: Session, assignment: Assignment) -> PoolList:
    """Every pooled article of the assignment's topic with this assessor's state and flag."""
    query = (
        select(
            PoolEntry.position,
            PoolEntry.article,
            Document.title,
            Judgement.status,
            Judgement.finished,
            Judgement.passages,
            ArticleNote.flag,
            func.length(ArticleNote.note),
        )
        .join(Pool, Pool.id == PoolEntry.pool_id)
        .join(Document, Document.id == PoolEntry.article)
        .outerjoin(
            Judgement,
            (Judgement.assignment_id == assignment.id) & (Judgement.article == PoolEntry.article),
        )
        .outerjoin(
            ArticleNote,
            (ArticleNote.assignment_id == assignment.id)
            & (ArticleNote.article == PoolEntry.article),
        )
        .where(Pool.topic_id == assignment.topic_id)
        .order_by(PoolEntry.position)
    )
    rows = [
        PoolRow(
            position=position,
            article=article,
            title=title,
            status=status or "unjudged",
            finished=bool(finished),
            passages=len(passages or ()),
            flagged=bool(flag),
            noted=bool(note_length),
        )
        for position, article, title, status, finished, passages, flag, note_length in (
            session.execute(query)
        )
    ]
    counts = {name: sum(1 for row in rows if keeps(row, name)) for name in FILTERS}
    return PoolList(rows, counts)


def keeps(row: PoolRow, wanted: str) -> bool:
    """Whether the filter `wanted` (one of FILTERS) shows `row`."""
    if wanted == "all":
        return True
    if wanted == "flagged":
        return row.flagged
    if wanted == "unfinished":  # not judged yet, or highlighted without "Done" (no ✓)
        return not row.finished
    return row.status == wanted


def resume_point(rows: list[PoolRow]) -> PoolRow | None:
    """Where an assessor continues: the first article of the pool not finished yet (None: all
    are). `rows` in the order the assessor judges them (the pool's)."""
    return next((row for row in rows if not row.finished), None)


def matches(row: PoolRow, search: str) -> bool:
    """Whether `search` (already case-folded) occurs in the row's title or article id."""
    return search in row.article.casefold() or (
        row.title is not None and search in row.title.casefold()
    )


def shown_rows(rows: list[PoolRow], wanted: str, sort: str, search: str) -> list[PoolRow]:
    """The rows the page lists: filtered by state and search, then sorted.

    `pool` keeps the pool's order; `title` sorts by the label (title, else id) ignoring case;
    `state` puts unjudged first, then relevant, then not relevant, flagged ones first within
    each; ties keep the pool's order.
    """
    folded = " ".join(search[:SEARCH_LENGTH].split()).casefold()
    shown = [row for row in rows if keeps(row, wanted) and (not folded or matches(row, folded))]
    if sort == "title":
        shown.sort(key=lambda row: (row.label.casefold(), row.position))
    elif sort == "state":
        shown.sort(key=lambda row: (STATE_ORDER.get(row.status, 3), not row.flagged, row.position))
    return shown
