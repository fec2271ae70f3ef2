"""Adjudication: one gold judgement where the two assessors of a topic disagree (no Flask).

For a double-judged topic (compared between its first two assessors by name, as the agreement
pages do) the queue holds every article both have judged and judged differently: different
verdicts, different passages, or the same passages with different best entry points. It is
ordered by how far they disagree (`disagreement`: 1 for opposite verdicts, else 1 − the share
of their highlighted characters that both highlighted; then articles in natural order), and
counts how many are decided. An adjudicator takes one side's judgement whole, or the union or
the intersection of their passages (`combine`); the decision is a `GoldJudgement`, stored with
who decided and when (`gold_steps`), and never changes the assessors' own judgements.

An adjudicator may also edit the gold by hand, as on the assessment screen; the decision is
then `edited`. Deciding, editing and previewing are in `gold_steps`; gold qrels in `gold_qrels`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results.agreement import (
    Highlights,
    article_highlights,
    double_judged,
    topic_highlights,
)
from focal.assessor.store.gold import DECISIONS, GoldJudgement
from focal.evaluation.formats.records import Span, merge_passages
from focal.evaluation.statistics.agreement.assessors import covered, overlap
from focal.pooling.records import natural_key


def disagreement(a: Highlights, b: Highlights) -> float:
    """How far two judgements of one article differ: 1 for opposite verdicts, 0 when equal.

    Both relevant: 1 − ∩/∪ of their highlighted characters (0 for the same passages, even
    when the best entry points differ). Both not relevant: 0.

    >>> yes = Highlights("a", "relevant", [(0, 10)], 0)
    >>> disagreement(yes, Highlights("b", "nonrelevant", [], None))
    1.0
    >>> disagreement(yes, Highlights("b", "relevant", [(5, 15)], 5))  # ∩ 5, ∪ 15
    0.6666666666666667
    """
    if a.status != b.status:
        return 1.0
    if a.status != "relevant":
        return 0.0
    both = overlap(a.passages, b.passages)
    union = covered([*a.passages, *b.passages])
    return 1 - both / union if union else 0.0


def differ(a: Highlights, b: Highlights) -> bool:
    """Whether two finished judgements differ in verdict, passages or best entry point."""
    if a.status != b.status:
        return True
    if a.status != "relevant":
        return False
    return merge_passages(a.passages) != merge_passages(b.passages) or a.bep != b.bep


def _intersection(a: list[Span], b: list[Span]) -> list[Span]:
    out = []
    for start_a, end_a in merge_passages(a):
        for start_b, end_b in merge_passages(b):
            start, end = max(start_a, start_b), min(end_a, end_b)
            if start < end:
                out.append((start, end))
    return merge_passages(out)


def combine(decision: str, a: Highlights, b: Highlights) -> tuple[str, list[Span], int | None]:
    """The gold (status, passages, BEP) that `decision` makes of the two judgements.

    `a`/`b`: that side whole. `union`: every character either highlighted; its BEP the
    earlier of the two. `intersection`: the characters both highlighted (not relevant when
    none); its BEP a side's BEP that lies in it, else its first character.

    >>> a = Highlights("a", "relevant", [(0, 10)], 2)
    >>> b = Highlights("b", "relevant", [(5, 15)], 6)
    >>> combine("union", a, b), combine("intersection", a, b)
    (('relevant', [(0, 15)], 2), ('relevant', [(5, 10)], 6))
    """
    if decision not in DECISIONS:
        raise CampaignError(
            f"unknown decision {decision!r}: expected one of {', '.join(DECISIONS)}"
        )
    if decision in ("a", "b"):
        side = a if decision == "a" else b
        passages = merge_passages(side.passages) if side.status == "relevant" else []
        if not passages:
            return "nonrelevant", [], None
        return "relevant", passages, side.bep if side.bep is not None else passages[0][0]
    sides = [side for side in (a, b) if side.status == "relevant"]
    if decision == "union":
        passages = merge_passages([span for side in sides for span in side.passages])
        beps = [side.bep for side in sides if side.bep is not None]
        if not passages:
            return "nonrelevant", [], None
        return "relevant", passages, min(beps) if beps else passages[0][0]
    if len(sides) < 2:
        return "nonrelevant", [], None
    passages = _intersection(a.passages, b.passages)
    if not passages:
        return "nonrelevant", [], None
    inside = [
        side.bep
        for side in sides
        if side.bep is not None and any(s <= side.bep < e for s, e in passages)
    ]
    return "relevant", passages, min(inside) if inside else passages[0][0]


@dataclass(frozen=True, slots=True)
class QueueItem:
    """An article the two assessors judged differently, and its gold judgement if decided."""

    article: str
    disagreement: float
    gold: GoldJudgement | None
    sides: tuple[Highlights, Highlights]


@dataclass(frozen=True, slots=True)
class Queue:
    """A topic's disagreements, most disagreed first, and how many are decided."""

    topic: str
    names: tuple[str, str]
    items: list[QueueItem]

    @property
    def decided(self) -> int:
        return sum(1 for item in self.items if item.gold is not None)

    def next_open(self, after: str | None = None) -> str | None:
        """The first undecided article (after `after` in queue order, when given)."""
        order = [item.article for item in self.items]
        start = order.index(after) + 1 if after in order else 0
        for item in [*self.items[start:], *self.items[:start]]:
            if item.gold is None and item.article != after:
                return item.article
        return None


def pair(session: Session, topic: str) -> tuple[str, str]:
    """The two assessors compared on `topic` (CampaignError unless it is double-judged)."""
    for item in double_judged(session):
        if item.topic.id == topic:
            return item.assessors[0], item.assessors[1]
    raise CampaignError(f"topic {topic} is not judged by two assessors")


def sides(session: Session, topic: str, article: str) -> tuple[Highlights, Highlights]:
    """The two compared assessors' judgements of `article` (by `pair`)."""
    name_a, name_b = pair(session, topic)
    by_name = {h.assessor: h for h in article_highlights(session, topic, article)}
    return by_name[name_a], by_name[name_b]


def queue(session: Session, topic: str, names: tuple[str, str] | None = None) -> Queue:
    """The disagreements of `topic`, ordered by `disagreement` (most first), then by article;
    `names` is the topic's `pair` when the caller has it already (a page listing every topic's
    queue would otherwise ask `double_judged` once a topic)."""
    names = names or pair(session, topic)
    gold = {
        row.article: row
        for row in session.scalars(select(GoldJudgement).where(GoldJudgement.topic_id == topic))
    }
    items = []
    for article, highlights in topic_highlights(session, topic).items():
        by_name = {h.assessor: h for h in highlights}
        a, b = by_name[names[0]], by_name[names[1]]
        if "unjudged" in (a.status, b.status) or not differ(a, b):
            continue
        items.append(QueueItem(article, disagreement(a, b), gold.get(article), (a, b)))
    items.sort(key=lambda item: (-item.disagreement, natural_key(item.article)))
    return Queue(topic, names, items)


def gold_of(session: Session, topic: str, article: str) -> GoldJudgement | None:
    """The gold judgement of `article` for `topic`, None until one is decided."""
    query = select(GoldJudgement).where(
        GoldJudgement.topic_id == topic, GoldJudgement.article == article
    )
    return session.scalars(query).first()
