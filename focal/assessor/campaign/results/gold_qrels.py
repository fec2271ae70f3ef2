"""Gold qrels: the adjudicated judgements exported, and compared with each assessor (no Flask).

`adjudicated_qrels` (`focal export-qrels --adjudicated`): the gold judgement where one was
decided (`adjudication`); elsewhere the documented fallback: on a double-judged topic the
judgement of its first assessor by name (the same as the second's where they agree), or the
second's where only the second has judged the article; on a topic judged once, its assessor's.
`gold_table` (`focal agreement --assessors A --gold`) compares an assessor with them.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results.agreement import assessor_qrels, double_judged
from focal.assessor.campaign.results.qrels_export import collect_qrels
from focal.assessor.store.gold import GoldJudgement
from focal.assessor.store.models import Document
from focal.evaluation.formats import records
from focal.evaluation.formats.records import Qrels
from focal.evaluation.statistics.agreement.assessors import AgreementError
from focal.evaluation.statistics.agreement.table import AgreementTable, agreement_table
from focal.pooling.records import natural_key


def gold_qrels(session: Session, topic: str | None = None) -> Qrels:
    """The decided gold judgements alone, as qrels (topics and articles in natural order)."""
    query = select(GoldJudgement, Document.text_length).join(
        Document, GoldJudgement.article == Document.id
    )
    if topic is not None:
        query = query.where(GoldJudgement.topic_id == topic)
    out: Qrels = {}
    for row, length in session.execute(query):
        passages = tuple((start, end) for start, end in row.passages)
        relevant = row.status == "relevant" and bool(passages)
        out.setdefault(row.topic_id, {})[row.article] = records.Judgement(
            topic=row.topic_id,
            article=row.article,
            rel_chars=sum(end - start for start, end in passages) if relevant else 0,
            article_chars=length,
            bep=row.bep if relevant else None,
            passages=passages if relevant else (),
            line=0,
        )
    return _sorted(out)


def adjudicated_qrels(session: Session, topic: str | None = None) -> Qrels:
    """Gold where decided, else the fallback of the module's docstring."""
    doubled = double_judged(session)
    base = collect_qrels(session, topic, None, {i.topic.id: i.assessors[0] for i in doubled})
    seconds = collect_qrels(session, topic, None, {i.topic.id: i.assessors[1] for i in doubled})
    for item in doubled:
        for article, line in seconds.get(item.topic.id, {}).items():
            base.setdefault(item.topic.id, {}).setdefault(article, line)
    for topic_id, lines in gold_qrels(session, topic).items():
        base.setdefault(topic_id, {}).update(lines)
    return _sorted(base)


def _sorted(qrels: Qrels) -> Qrels:
    return {
        topic: {article: qrels[topic][article] for article in sorted(qrels[topic], key=natural_key)}
        for topic in sorted(qrels, key=natural_key)
    }


GOLD = "gold"
"""The name the gold side goes by in an agreement table."""


def gold_table(
    session: Session, name: str, topic: str | None = None, gamma: bool = False
) -> AgreementTable:
    """The agreement of assessor `name` with the adjudicated judgements (`adjudicated_qrels`)
    of the double-judged topics that `name` assesses (CampaignError when there is none)."""
    mine = assessor_qrels(session, name, topic)
    doubled = {item.topic.id for item in double_judged(session) if name in item.assessors}
    adjudicated = adjudicated_qrels(session, topic)
    gold = {topic_id: lines for topic_id, lines in adjudicated.items() if topic_id in doubled}
    try:
        return agreement_table(mine, gold, topic=topic, names=(name, GOLD), gamma=gamma)
    except AgreementError as error:
        raise CampaignError(str(error)) from error
