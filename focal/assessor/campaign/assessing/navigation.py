"""Where an assessor goes within a topic's pool: where to resume, an article's neighbours in
display order, and the article to go on to next.

The assessor's pages (`web.views.assess.pages`) turn these places into links and redirects. The
rules live here, apart from the request handling, because the topics page, the article screen
(`article_screen`) and the "next" redirect all walk the same pool: in display order
(`campaign.pools.listing`), or in the topic's judging order where the organiser chose an
adaptive one (`campaign.pools.ordering`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.pools import listing as pool_list
from focal.assessor.campaign.pools import ordering
from focal.assessor.store.models import Assignment


@dataclass(frozen=True, slots=True)
class Resume:
    """Where "Continue" leads in a topic's pool, and what is left, in the assessor's words."""

    article: str | None  # None: nothing to continue with (every article finished, budget spent)
    position: int  # the article's position in display order, from 1 (0 without an article)
    pool_size: int
    unjudged: int  # articles not judged yet
    unfinished: int  # articles without a ✓ (not judged yet, or highlighted without "Done")
    suggested: bool  # the topic's judging order offers `article` (following it is logged)
    budget_spent: bool  # an adaptive order whose budget of judgements is used up


def resume(session: Session, assignment: Assignment) -> Resume:
    """ "Continue where I stopped": with an adaptive judging order, the article the order
    offers now (as the pool page suggests it, docs/assessing.md "Judging order"); else, or once
    the order offers nothing more, the first article of the pool not finished yet. A spent
    budget leaves only the articles already judged but not finished to go back to."""
    listed = pool_list.pool_list(session, assignment)
    rows = listed.rows
    choice = ordering.suggestion(session, assignment)
    budget_spent = choice is not None and choice.article is None and listed.left > 0
    row: pool_list.PoolRow | None
    if choice is not None and choice.article is not None:
        row = next((r for r in rows if r.article == choice.article), None)
    elif budget_spent:
        row = next((r for r in rows if not r.finished and r.status != "unjudged"), None)
    else:
        row = pool_list.resume_point(rows)
    suggested = row is not None and choice is not None and row.article == choice.article
    return Resume(
        article=None if row is None else row.article,
        position=0 if row is None else row.position + 1,
        pool_size=len(rows),
        unjudged=listed.left,
        unfinished=listed.counts["unfinished"],
        suggested=suggested,
        budget_spent=budget_spent,
    )


def neighbours(articles: list[str], article: str) -> tuple[str | None, str | None]:
    """The articles just before and just after `article` in `articles` (None at either end)."""
    position = articles.index(article)
    previous = articles[position - 1] if position > 0 else None
    following = articles[position + 1] if position + 1 < len(articles) else None
    return previous, following


def next_article(
    session: Session, assignment: Assignment, after: str, verdict: str | None
) -> tuple[str | None, bool]:
    """The article to go on to after `after`, and whether the topic's judging order chose it:
    the article the order offers now; for a topic in a fixed order, the article after `after`
    in display order (else the first unjudged one). None: nothing is left to offer (pool judged
    or budget spent).

    `verdict` (`"1"` or `"0"`) is the page's judgement of `after`, which may not be saved yet;
    an article left unjudged is not offered again at once (the display order's next is).
    Nothing is written: a suggestion is logged when it is followed (`follow_suggestion`).
    """
    articles = assignments.pool_articles(session, assignment.topic_id)
    pending = _pending(articles, after, verdict)
    choice = ordering.suggestion(session, assignment, pending)
    if choice is not None and choice.article is None:
        return None, False
    if choice is not None and choice.article != after:
        return choice.article, True
    target = neighbours(articles, after)[1] if after in articles else None
    if target is None and after not in articles:
        listed = pool_list.pool_list(session, assignment)
        target = next((r.article for r in listed.rows if r.status == "unjudged"), None)
    return target, False


def _pending(articles: list[str], after: str, verdict: str | None) -> tuple[str, bool] | None:
    """The page's judgement of `after` (`verdict` "1" relevant, "0" not), if it gave one."""
    return (after, verdict == "1") if after in articles and verdict in ("0", "1") else None


def follow_suggestion(
    session: Session, assignment: Assignment, article: str, after: str, verdict: str | None
) -> bool:
    """The assessor opened `article` from a suggestion of the topic's judging order (made by
    `next_article` with the same `after` and `verdict`): log it (`ordering.log_suggestion`,
    with what the policy knew) when the order offers it; False, and nothing logged, when it
    does not (the judgements it was made from changed meanwhile)."""
    articles = assignments.pool_articles(session, assignment.topic_id)
    pending = _pending(articles, after, verdict)
    choice = ordering.suggestion(session, assignment, pending)
    if choice is None or choice.article != article:
        return False
    ordering.log_suggestion(session, assignment, choice)
    return True
