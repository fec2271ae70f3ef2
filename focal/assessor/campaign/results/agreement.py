"""Double judging: two assessors of one topic compared (spec section 7; no Flask).

The judgements are read as each assessor's FOL qrels (`qrels_export.collect_qrels`, what
`focal export-qrels --assessor` writes) and handed to `focal.evaluation.statistics`, so that
`focal agreement --assessors A,B`, the organiser's agreement page and `focal agreement` on the
two exported files give the same numbers. The element level uses the element records of the
export (the 2005 exhaustivity values where a topic is assessed in two phases).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, contains_eager

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import assignments
from focal.assessor.campaign.people.users import find_user
from focal.assessor.campaign.results.qrels_export import element_exports
from focal.assessor.campaign.results.report.data import judged_articles, qrels_by_assessor
from focal.assessor.store.models import Assignment, Judgement, Topic, User
from focal.evaluation.formats.exports import ArticleElements
from focal.evaluation.formats.records import Qrels
from focal.evaluation.statistics.agreement.assessors import (
    AgreementError,
    TopicAgreement,
    covered,
    overlap,
    summary,
    topic_agreement,
    unitized,
)
from focal.evaluation.statistics.agreement.table import AgreementTable, agreement_table
from focal.evaluation.statistics.agreement.unitizing import unitizing_alpha
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
    if name_a == name_b:
        raise CampaignError(f"compare two different assessors, not {name_a} with itself")
    qrels_a = assessor_qrels(session, name_a, topic)
    qrels_b = assessor_qrels(session, name_b, topic)
    names = (name_a, name_b)
    try:
        table = agreement_table(qrels_a, qrels_b, topic=topic, names=names, gamma=gamma)
        if not elements:
            return table
        topics = [row.topic for row in table.rows]
        records = (
            _elements(session, qrels_a, topics, name_a),
            _elements(session, qrels_b, topics, name_b),
        )
        return agreement_table(
            qrels_a, qrels_b, topic=topic, names=names, elements=records, gamma=gamma
        )
    except AgreementError as error:
        raise CampaignError(str(error)) from error


@dataclass(frozen=True, slots=True)
class Highlights:
    """One assessor's judgement of one article, for the side-by-side view."""

    assessor: str
    status: str  # unjudged | relevant | nonrelevant
    passages: list[tuple[int, int]]
    bep: int | None


def article_highlights(session: Session, topic: str, article: str) -> list[Highlights]:
    """Every assessor of `topic` with their judgement of `article` (by assessor name)."""
    rows = session.execute(
        select(User.name, Judgement)
        .select_from(Assignment)
        .join(User, Assignment.user_id == User.id)
        .outerjoin(
            Judgement,
            (Judgement.assignment_id == Assignment.id) & (Judgement.article == article),
        )
        .where(Assignment.topic_id == topic)
        .order_by(User.name)
    )
    out = []
    for name, judgement in rows:
        if judgement is None:
            out.append(Highlights(name, "unjudged", [], None))
        else:
            out.append(_highlights(name, judgement.status, judgement.passages, judgement.bep))
    return out


def _highlights(name: str, status: str, passages: list[list[int]], bep: int | None) -> Highlights:
    return Highlights(name, status, [(start, end) for start, end in passages], bep)


def topic_highlights(session: Session, topic: str) -> dict[str, list[Highlights]]:
    """`article_highlights` of every article of `topic` that an assessor judged, by article, in
    two statements (one per article took seconds for a topic of 757 articles at INEX 2010
    size: docs/performance.md, "Assessors at once")."""
    names = list(
        session.scalars(
            select(User.name)
            .select_from(Assignment)
            .join(User, Assignment.user_id == User.id)
            .where(Assignment.topic_id == topic)
            .order_by(User.name)
        )
    )
    rows = session.execute(
        select(User.name, Judgement.article, Judgement.status, Judgement.passages, Judgement.bep)
        .select_from(Judgement)
        .join(Assignment, Judgement.assignment_id == Assignment.id)
        .join(User, Assignment.user_id == User.id)
        .where(Assignment.topic_id == topic)
    )
    judged: dict[str, dict[str, Highlights]] = defaultdict(dict)
    for name, article, status, passages, bep in rows:
        judged[article][name] = _highlights(name, status, passages, bep)
    return {
        article: [by_name.get(name, Highlights(name, "unjudged", [], None)) for name in names]
        for article, by_name in judged.items()
    }


@dataclass(frozen=True, slots=True)
class Overview:
    """Every double-judged topic's row, compared between its first two assessors (by name)."""

    rows: list[TopicAgreement]
    total: TopicAgreement
    pairs: dict[str, tuple[str, str]]  # topic -> the two assessors compared
    waiting: list[str]  # double-assigned topics that the two have not both judged yet


def overview(session: Session) -> Overview:
    """The agreement of every double-judged topic and the `all` row over them."""
    pairs = {
        item.topic.id: (item.assessors[0], item.assessors[1]) for item in double_judged(session)
    }
    by_pair: dict[tuple[str, str], list[str]] = defaultdict(list)
    for topic, pair in pairs.items():
        by_pair[pair].append(topic)
    rows: list[TopicAgreement] = []
    continuum = []  # every compared topic's articles: the `all` row's α_U
    judged = qrels_by_assessor(judged_articles(session)) if pairs else {}
    for (name_a, name_b), topics in by_pair.items():
        qrels_a, qrels_b = judged.get(name_a, {}), judged.get(name_b, {})
        for topic in topics:
            if topic in qrels_a and topic in qrels_b:
                rows.append(topic_agreement(topic, qrels_a[topic], qrels_b[topic]))
                continuum.extend(unitized(qrels_a[topic], qrels_b[topic]))
    rows.sort(key=lambda row: natural_key(row.topic))
    shown = {row.topic for row in rows}
    waiting = [topic for topic in pairs if topic not in shown]
    pooled = unitizing_alpha(continuum)
    total = summary(rows, None if pooled is None else pooled.alpha)
    return Overview(rows, total, pairs, waiting)


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
