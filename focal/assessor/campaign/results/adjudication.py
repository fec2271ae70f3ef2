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

A topic's disagreements are kept until its judgements change (`topic_cache`, in the process and
in the database: `CODEC`); the gold, which changes with every decision, is read by every page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results.highlights import (
    Highlights,
    article_highlights,
    pair_highlights,
)
from focal.assessor.campaign.results.topic_cache import Codec, Pair, compared_pairs, per_topic
from focal.assessor.store.gold import DECISIONS, GoldJudgement
from focal.evaluation.formats.records import Span, merge_passages
from focal.evaluation.statistics.agreement.characters import covered, overlap
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


def _pair(session: Session, topic: str) -> Pair:
    found = compared_pairs(session, topic).get(topic)
    if found is None:
        raise CampaignError(f"topic {topic} is not judged by two assessors")
    return found


def pair(session: Session, topic: str) -> tuple[str, str]:
    """The two assessors compared on `topic` (CampaignError unless it is double-judged)."""
    return _pair(session, topic).names


def sides(session: Session, topic: str, article: str) -> tuple[Highlights, Highlights]:
    """The two compared assessors' judgements of `article` (by `pair`)."""
    name_a, name_b = pair(session, topic)
    by_name = {h.assessor: h for h in article_highlights(session, topic, article)}
    return by_name[name_a], by_name[name_b]


def queue(session: Session, topic: str) -> Queue:
    """The disagreements of `topic`, ordered by `disagreement` (most first), then by article,
    with the gold decided so far (CampaignError unless the topic is double-judged)."""
    found = _pair(session, topic)
    items = _kept_disagreements(session, {topic: found})[topic]
    gold = {
        row.article: row
        for row in session.scalars(select(GoldJudgement).where(GoldJudgement.topic_id == topic))
    }
    return Queue(
        topic,
        found.names,
        [
            replace(item, gold=gold[item.article]) if item.article in gold else item
            for item in items
        ],
    )


@dataclass(frozen=True, slots=True)
class QueueProgress:
    """How far a topic's adjudication has gone: its pair, its disagreements, those decided."""

    topic: str
    names: tuple[str, str]
    size: int
    decided: int


def progress(session: Session, topics: Collection[str] | None = None) -> list[QueueProgress]:
    """Every double-judged topic's `QueueProgress` (of `topics` only, when given), in natural
    order: the disagreements kept (`topic_cache`), the gold counted in one statement."""
    pairs = {
        topic: found
        for topic, found in compared_pairs(session).items()
        if topics is None or topic in topics
    }
    kept = _kept_disagreements(session, pairs)
    decided: Counter[str] = Counter()
    if pairs:
        gold = session.execute(
            select(GoldJudgement.topic_id, GoldJudgement.article).where(
                GoldJudgement.topic_id.in_(sorted(pairs))
            )
        )
        open_articles = {topic: {item.article for item in kept[topic]} for topic in pairs}
        decided.update(topic for topic, article in gold if article in open_articles[topic])
    return [
        QueueProgress(topic, pairs[topic].names, len(kept[topic]), decided[topic])
        for topic in sorted(pairs, key=natural_key)
    ]


def _kept_disagreements(
    session: Session, pairs: Mapping[str, Pair]
) -> dict[str, tuple[QueueItem, ...]]:
    return per_topic(session, CODEC, pairs, lambda stale: _disagreements(session, stale))


def _disagreements(session: Session, pairs: Mapping[str, Pair]) -> dict[str, tuple[QueueItem, ...]]:
    """Each topic's disagreements in queue order, without gold: what `topic_cache` keeps."""
    out = {}
    for topic, judged in pair_highlights(session, pairs, identical=False).items():
        items = [
            QueueItem(article, disagreement(a, b), None, (a, b))
            for article, (a, b) in judged.items()
            if "unjudged" not in (a.status, b.status) and differ(a, b)
        ]
        items.sort(key=lambda item: (-item.disagreement, natural_key(item.article)))
        out[topic] = tuple(items)
    return out


def _encoded(items: tuple[QueueItem, ...]) -> list[list[Any]]:
    return [
        [
            item.article,
            item.disagreement,
            *([side.assessor, side.status, side.passages, side.bep] for side in item.sides),
        ]
        for item in items
    ]


def _decoded(data: Any) -> tuple[QueueItem, ...]:
    """What `_encoded` wrote, as it was: JSON keeps floats' every bit; spans back to tuples."""

    def side(found: list[Any]) -> Highlights:
        name, status, passages, bep = found
        return Highlights(name, status, [(start, end) for start, end in passages], bep)

    return tuple(
        QueueItem(article, disagreement, None, (side(a), side(b)))
        for article, disagreement, a, b in data
    )


CODEC = Codec("queue", 1, _encoded, _decoded)
"""A topic's disagreements (without gold) as the database keeps them (`store.topic_results`)."""


def gold_of(session: Session, topic: str, article: str) -> GoldJudgement | None:
    """The gold judgement of `article` for `topic`, None until one is decided."""
    query = select(GoldJudgement).where(
        GoldJudgement.topic_id == topic, GoldJudgement.article == article
    )
    return session.scalars(query).first()
