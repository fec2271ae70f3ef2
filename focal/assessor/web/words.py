"""The interface's one vocabulary, as pages say it: a judgement's state and a judging order's
name (docs/assessing.md, "Glossary: the words on the pages").

The database and the exports keep short codes (`relevant`, `nonrelevant`, `unjudged`); a page
says "relevant", "not relevant" and "not judged yet", the words the assessor's panel uses too
(static/assess/panel.js).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

STATE_WORDS = {
    "relevant": "relevant",
    "nonrelevant": "not relevant",
    "not_relevant": "not relevant",
    "unjudged": "not judged yet",
}
"""A judgement's state code -> the words a page shows."""


def state_words(value: object) -> object:
    """A state code in words; any other value unchanged.

    >>> state_words("nonrelevant"), state_words("unjudged"), state_words(3)
    ('not relevant', 'not judged yet', 3)
    """
    return STATE_WORDS.get(value, value) if isinstance(value, str) else value


ORDER_WORDS = {
    "fixed": "fixed: the order assessors see",
    "rank": "by the runs' ranks",
    "random": "random",
    "mtf": "move-to-front",
    "ucb": "upper confidence bound",
    "thompson": "Thompson sampling",
    "thompson-ns": "Thompson sampling, recent judgements weighing more",
    "mtc": "minimal test collection",
}
"""A judging order's code (`focal.assessor.campaign.pools.ordering.ORDERS`) -> its name on a page
(docs/pooling.md says what each does and cites it)."""


def order_words(value: str) -> str:
    """A judging order's name in words (its code when it has none).

    >>> order_words("thompson-ns"), order_words("new")
    ('Thompson sampling, recent judgements weighing more', 'new')
    """
    return ORDER_WORDS.get(value, value)


def register_filters(app: Flask) -> None:
    """Offer `state_words` and `order_words` to every template."""
    app.add_template_filter(state_words, "state_words")
    app.add_template_filter(order_words, "order_words")
