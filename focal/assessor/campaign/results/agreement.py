"""Double judging: two assessors of one topic compared (spec section 7; no Flask).

The judgements are read as each assessor's FOL qrels (`qrels_export.collect_qrels`, what
`focal export-qrels --assessor` writes) and handed to `focal.evaluation.statistics`, so that
`focal agreement --assessors A,B`, the organiser's agreement page and `focal agreement` on the
two exported files give the same numbers. The element level uses the element records of the
export (the 2005 exhaustivity values where a topic is assessed in two phases). The overview of
every topic is `agreement_overview`'s; each assessor's judgement of one article, `highlights`'.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, contains_eager

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.people.users import find_user
from focal.assessor.campaign.results.qrels_export import element_exports
from focal.assessor.campaign.results.report.data import judged_articles, qrels_by_assessor
from focal.assessor.store.models import Assignment, Document, Topic, User
from focal.assessor.store.texts import MissingTextError
from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.formats.records import Qrels
from focal.evaluation.statistics.agreement.assessors import AgreementError, common_topics
from focal.evaluation.statistics.agreement.characters import covered, overlap
from focal.evaluation.statistics.agreement.table import AgreementTable, agreement_table
from focal.pooling.records import natural_key


@dataclass(frozen=True, slots=True)
class Assessment:
    """One assessor's assignment of a double-judged topic and how far they got."""

    assignment: Assignment
    progress: assignments.Progress


@dataclass(frozen=True, slots=True)
class DoubleJudged:
    """A topic assigned to two assessors or more."""

    topic: Topic
    assessments: list[Assessment]

    @property
    def assessors(self) -> list[str]:
        return [a.assignment.user.name for a in self.assessments]


def double_judged(session: Session) -> list[DoubleJudged]:
    """The topics with two assessors or more, in natural order, assessors by name."""
    # A handful of statements whatever the number of topics (one per topic took 1.3 s at INEX
    # 2010 size, 52 topics: docs/performance.md, "Assessors at once").
    doubled = (
        select(Assignment.topic_id).group_by(Assignment.topic_id).having(func.count() > 1)
    ).scalar_subquery()
    rows = list(
        session.scalars(
            select(Assignment)
            .join(User)
            .where(Assignment.topic_id.in_(doubled))
            .options(contains_eager(Assignment.user))
            .order_by(User.name)
        )
    )
    topics = {
        topic.id: topic
        for topic in session.scalars(select(Topic).where(Topic.id.in_({r.topic_id for r in rows})))
    }
    done = assignments.progresses(session, rows)
    by_topic: dict[str, list[Assessment]] = defaultdict(list)
    for row in rows:
        by_topic[row.topic_id].append(Assessment(row, done[row.id]))
    return [
        DoubleJudged(topics[topic_id], by_topic[topic_id])
        for topic_id in sorted(by_topic, key=natural_key)
    ]


def assessor_qrels(session: Session, name: str, topic: str | None = None) -> Qrels:
    """One assessor's judged articles as qrels (LookupError naming an unknown focal/assessor/topic).

    The lines `focal export-qrels --assessor` writes (`qrels_export.collect_qrels`), read
    without the ORM (`report.data.judged_articles`): ten times faster at INEX 2010 size.
    """
    find_user(session, name)
    if topic is not None and session.get(Topic, topic) is None:
        raise LookupError(f"no topic {topic!r}")
    return qrels_by_assessor(judged_articles(session, topic, name)).get(name, {})


def _relevant_only(qrels: Qrels, topics: list[str]) -> Qrels:
    return {
        topic: {article: line for article, line in qrels[topic].items() if line.relevant}
        for topic in topics
    }


def _elements(
    session: Session, qrels: Qrels, topics: list[str], name: str
) -> dict[str, list[ArticleElements]]:
    records, _scales = element_exports(
        session, _relevant_only(qrels, topics), None, name, all_elements=False
    )
    by_topic: dict[str, list[ArticleElements]] = defaultdict(list)
    for record in records:
        by_topic[record.topic].append(record)
    return dict(by_topic)


def assessors_table(
    session: Session,
    name_a: str,
    name_b: str,
    topic: str | None = None,
    elements: bool = False,
    gamma: bool = False,
) -> AgreementTable:
    """The agreement table of two assessors (CampaignError when they share no topic); γ when
    `gamma` (the optional extra: `gamma.GammaUnavailableError` without it)."""
    qrels_a, qrels_b = _pair_qrels(session, name_a, name_b, topic)
    return _table(session, (name_a, name_b), (qrels_a, qrels_b), topic, elements, gamma)


def _pair_qrels(
    session: Session, name_a: str, name_b: str, topic: str | None
) -> tuple[Qrels, Qrels]:
    if name_a == name_b:
        raise CampaignError(f"compare two different assessors, not {name_a} with itself")
    return assessor_qrels(session, name_a, topic), assessor_qrels(session, name_b, topic)


def _table(
    session: Session,
    names: tuple[str, str],
    qrels: tuple[Qrels, Qrels],
    topic: str | None,
    elements: bool,
    gamma: bool,
) -> AgreementTable:
    qrels_a, qrels_b = qrels
    try:
        found = None
        if elements:
            topics = common_topics(qrels_a, qrels_b, topic, names)
            found = (
                _elements(session, qrels_a, topics, names[0]),
                _elements(session, qrels_b, topics, names[1]),
            )
        return agreement_table(
            qrels_a, qrels_b, topic=topic, names=names, elements=found, gamma=gamma
        )
    except AgreementError as error:
        raise CampaignError(str(error)) from error


@dataclass(frozen=True, slots=True)
class TopicComparison:
    """What the agreement page of one topic shows: its table and its articles."""

    table: AgreementTable
    articles: list[ArticleComparison]


def compare_topic(
    session: Session, name_a: str, name_b: str, topic: str, gamma: bool = False
) -> TopicComparison:
    """Two assessors on one topic: the table, with the element level when every relevant
    article's text is there, and every article either judged; their judgements read once.

    CampaignError or LookupError as `assessors_table` raises them.
    """
    qrels = _pair_qrels(session, name_a, name_b, topic)
    names = (name_a, name_b)
    table = None
    if not _any_without_text(session, qrels):
        with contextlib.suppress(CampaignError, MissingTextError):  # no element level, then
            table = _table(session, names, qrels, topic, elements=True, gamma=gamma)
    if table is None:
        table = _table(session, names, qrels, topic, elements=False, gamma=gamma)
    return TopicComparison(table, _compared(topic, *qrels))


def _any_without_text(session: Session, qrels: tuple[Qrels, Qrels]) -> bool:
    """Whether an article either side found relevant is known only by id and length: its
    element level cannot be had (`element_exports` refuses it), so it is not tried."""
    wanted = sorted(
        {
            article
            for side in qrels
            for lines in side.values()
            for article, line in lines.items()
            if line.relevant
        }
    )
    for start in range(0, len(wanted), 1000):  # within every database's bound parameters
        query = select(Document.id).where(
            Document.id.in_(wanted[start : start + 1000]),
            or_(Document.file.is_(None), Document.text_sha256.is_(None)),
        )
        if session.scalars(query.limit(1)).first() is not None:
            return True
    return False


@dataclass(frozen=True, slots=True)
class ArticleComparison:
    """One article of a double-judged topic: each assessor's verdict and highlighted text."""

    article: str
    status_a: str  # relevant | nonrelevant | unjudged
    status_b: str
    chars_a: int
    chars_b: int
    chars_both: int


def _status(qrels: Qrels, topic: str, article: str) -> str:
    line = qrels.get(topic, {}).get(article)
    if line is None:
        return "unjudged"
    return "relevant" if line.relevant else "nonrelevant"


def compared_articles(
    session: Session, topic: str, name_a: str, name_b: str
) -> list[ArticleComparison]:
    """Every article of `topic` judged by either assessor, in natural order."""
    qrels_a = assessor_qrels(session, name_a, topic)
    qrels_b = assessor_qrels(session, name_b, topic)
    return _compared(topic, qrels_a, qrels_b)


def _compared(topic: str, qrels_a: Qrels, qrels_b: Qrels) -> list[ArticleComparison]:
    lines_a, lines_b = qrels_a.get(topic, {}), qrels_b.get(topic, {})
    out = []
    for article in sorted(lines_a.keys() | lines_b.keys(), key=natural_key):
        passages_a = lines_a[article].passages if article in lines_a else ()
        passages_b = lines_b[article].passages if article in lines_b else ()
        out.append(
            ArticleComparison(
                article,
                _status(qrels_a, topic, article),
                _status(qrels_b, topic, article),
                covered(passages_a),
                covered(passages_b),
                overlap(passages_a, passages_b),
            )
        )
    return out


def disagrees(item: ArticleComparison) -> bool:
    """Whether both judged the article and differ in verdict or highlighted characters."""
    if "unjudged" in (item.status_a, item.status_b):
        return False
    if item.status_a != item.status_b:
        return True
    return not item.chars_a == item.chars_b == item.chars_both


def next_disagreement(articles: list[ArticleComparison], current: str) -> str | None:
    """The next article after `current` (in the list's order, wrapping round) where the two
    assessors disagree; None when there is no other."""
    order = [item.article for item in articles]
    start = order.index(current) + 1 if current in order else 0
    for item in [*articles[start:], *articles[:start]]:
        if item.article != current and disagrees(item):
            return item.article
    return None
