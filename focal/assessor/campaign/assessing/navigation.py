"""Where an assessor goes within a topic's pool: where to resume, an article's neighbours in
display order, and the article to go on to next.

The assessor's pages (`web.views.assess.pages`) turn these places into links and redirects. The
rules live here, apart from the request handling, because the topics page, the article screen
(`article_screen`) and the "next" redirect all walk the same pool: in display order
(`campaign.pools.listing`), or in the topic's judging order where the organiser chose an
adaptive one (`campaign.pools.ordering`).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.pools import listing as pool_list
from focal.assessor.campaign.pools import ordering
from focal.assessor.store.models import Assignment


def resume(session: Session, assignment: Assignment) -> tuple[str, int, int] | None:
    """ "Continue where I stopped": (article, its position from 1, pool size), or None when
    every article is finished."""
    rows = pool_list.pool_list(session, assignment).rows
    row = pool_list.resume_point(rows)
    return None if row is None else (row.article, row.position + 1, len(rows))


def neighbours(articles: list[str], article: str) -> tuple[str | None, str | None]:
    """The articles just before and just after `article` in `articles` (None at either end)."""
    position = articles.index(article)
    previous = articles[position - 1] if position > 0 else None
    following = articles[position + 1] if position + 1 < len(articles) else None
    return previous, following


def next_article(
    session: Session, assignment: Assignment, after: str, verdict: str | None, by_assessor: bool
) -> str | None:
    """The article the topic's judging order offers now; for a topic in a fixed order, the
    article after `after` in display order (else the first unjudged one). None: nothing is left
    to offer (pool judged or budget spent).

    `verdict` (`"1"` or `"0"`) is the page's judgement of `after`, which may not be saved yet;
    an article left unjudged is not offered again at once (the display order's next is). The
    suggestion the assignment's own assessor follows (`by_assessor`) is logged; an organiser
    looking on is only shown it.
    """
    articles = assignments.pool_articles(session, assignment.topic_id)
    pending = (after, verdict == "1") if after in articles and verdict in ("0", "1") else None
    choice = ordering.suggestion(session, assignment, pending)
    following = neighbours(articles, after)[1] if after in articles else None
    if choice is None or choice.article == after:
        target = following
        if target is None and after not in articles:
            listed = pool_list.pool_list(session, assignment)
            target = next((r.article for r in listed.rows if r.status == "unjudged"), None)
    else:
        target = choice.article
        if target is not None and by_assessor:
            ordering.log_suggestion(session, assignment, choice)
            session.commit()
    return target
