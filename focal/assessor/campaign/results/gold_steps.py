"""Adjudication steps: a gold judgement decided or edited by hand, previewed first (no Flask).

`decide` stores the gold that one of the decisions of `adjudication.combine` makes of the two
assessors' judgements; `edit_gold` edits the gold by hand (highlight, unhighlight, best entry
point) as the assessment screen does. Each is a step of `judging.gold_edits`: applied once (op
ids), one at a time, refused when it carries a version the gold has left (`StaleGold`), and
kept in the gold's history. `preview` shows what a decision would make before it is stored,
with a `warning` when an article an assessor judged relevant would become not relevant
(docs/analytics.md, "Adjudication").
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.results.adjudication import combine, sides
from focal.assessor.campaign.results.highlights import Highlights
from focal.assessor.judging.gold_edits import Gold, Step, apply_step
from focal.assessor.judging.operations import Busy, Conflict, JudgingError
from focal.assessor.judging.spans import add_span, remove_span
from focal.assessor.store.gold import DECISIONS, EDITED, GOLD_EDITS, GoldJudgement
from focal.assessor.store.models import Document


def _both_judged(session: Session, topic: str, article: str) -> tuple[Highlights, Highlights]:
    a, b = sides(session, topic, article)
    if "unjudged" in (a.status, b.status):
        raise CampaignError(
            f"article {article} is not judged by both {a.assessor} and {b.assessor}"
        )
    return a, b


def _step(
    session: Session,
    topic: str,
    article: str,
    step: Step,
    make: Callable[[Highlights, Highlights, Gold | None], Gold],
    user_id: int | None,
) -> GoldJudgement:
    """Apply one adjudication step (`judging.gold_edits.apply_step`: once, serialised, kept as
    a `GoldEvent`) and commit. A stale version is `StaleGold`, an op_id used for another step
    a `Conflict` and contention `Busy` (all JudgingErrors); other refusals CampaignErrors."""
    a, b = _both_judged(session, topic, article)
    try:
        return apply_step(
            session, (topic, article), step, lambda old: make(a, b, old), user_id,
            (a.assessor, b.assessor),
        )  # fmt: skip
    except (Conflict, Busy):  # a stale version (`StaleGold`), an op_id reused, contention
        raise
    except JudgingError as error:
        raise CampaignError(str(error)) from error


def new_op_id() -> str:
    """An op_id for a step whose sender gave none (a command, a form without one)."""
    return uuid.uuid4().hex


def decide(
    session: Session,
    topic: str,
    article: str,
    decision: str,
    user_id: int | None,
    *,
    version: int | None = None,
    op_id: str | None = None,
) -> GoldJudgement:
    """Store (or replace) the gold judgement of `article` made by `decision`, and commit.

    `version`: the gold's version the decider saw (0: none yet); `StaleGold` when it has
    changed since. `op_id`: the same decision sent twice is applied once.
    """
    if decision not in DECISIONS:
        raise CampaignError(
            f"unknown decision {decision!r}: expected one of {', '.join(DECISIONS)}"
        )

    def made(a: Highlights, b: Highlights, _old: Gold | None) -> Gold:
        status, passages, bep = combine(decision, a, b)
        return Gold(status, tuple(passages), bep, decision)

    step = Step(op_id or new_op_id(), decision, {}, version)
    return _step(session, topic, article, step, made, user_id)


def preview(session: Session, topic: str, article: str, decision: str) -> tuple[Gold, str | None]:
    """The gold `decision` would make of `article`, nothing stored, and the `warning` it needs."""
    a, b = _both_judged(session, topic, article)
    status, passages, bep = combine(decision, a, b)
    return Gold(status, tuple(passages), bep, decision), warning(article, (a, b), status)


def warning(article: str, sides_: tuple[Highlights, Highlights], status: str) -> str | None:
    """What to say before a gold makes an article not relevant that an assessor found relevant.

    >>> yes = Highlights("alice", "relevant", [(0, 4)], 0)
    >>> no = Highlights("bob", "nonrelevant", [], None)
    >>> warning("1002", (yes, no), "nonrelevant")
    'alice judged article 1002 relevant: this gold makes it not relevant.'
    >>> warning("1002", (yes, no), "relevant") is None
    True
    """
    found = [side.assessor for side in sides_ if side.status == "relevant"]
    if status == "relevant" or not found:
        return None
    who = " and ".join(found) + (" both" if len(found) == 2 else "")
    return f"{who} judged article {article} relevant: this gold makes it not relevant."


def edit_gold(
    session: Session,
    topic: str,
    article: str,
    edit: tuple[str, int, int],
    user_id: int | None,
    *,
    op_id: str | None = None,
    version: int | None = None,
) -> GoldJudgement:
    """Edit the gold of `article` by hand, and commit: `edit` is (what, start, end).

    `highlight`/`unhighlight` add or remove the characters [start, end) (passages merged as on
    the assessment screen, H-Rule ATOM); `bep` puts the best entry point at `start`, inside a
    gold passage. Without a gold yet, the edit starts from nothing highlighted. The edit is
    applied to the gold as it is when its turn comes, so concurrent edits of separate ranges
    are all kept. The decision becomes `edited`; CampaignError for a range outside the article
    or a BEP outside the gold.
    """
    what, start, end = edit
    if what not in GOLD_EDITS:
        raise CampaignError(f"unknown edit {what!r}: expected one of {', '.join(GOLD_EDITS)}")
    length = session.scalars(select(Document.text_length).where(Document.id == article)).one()
    if what != "bep" and not 0 <= start < end <= length:
        raise CampaignError(f"characters {start}-{end} are not a range of article {article}")

    def made(_a: Highlights, _b: Highlights, old: Gold | None) -> Gold:
        passages = list(old.passages) if old is not None else []
        bep = old.bep if old is not None else None
        if what == "highlight":
            passages = add_span(passages, start, end)
        elif what == "unhighlight":
            passages = remove_span(passages, start, end)
        elif not any(s <= start < e for s, e in passages):
            raise CampaignError(f"the best entry point must be in a gold passage, not at {start}")
        else:
            bep = start
        if not any(s <= (bep if bep is not None else -1) < e for s, e in passages):
            bep = passages[0][0] if passages else None
        status = "relevant" if passages else "nonrelevant"
        return Gold(status, tuple((s, e) for s, e in passages), bep, EDITED)

    step = Step(op_id or new_op_id(), what, {"start": start, "end": end}, version)
    return _step(session, topic, article, step, made, user_id)
