"""The interface's one vocabulary (focal.assessor.web.words): every state code and every judging
order has its words, so that pages show words instead of the codes."""

from __future__ import annotations

import doctest
import re

from sqlalchemy import CheckConstraint

from focal.assessor.campaign.pools.ordering import ORDERS
from focal.assessor.store.models import Judgement
from focal.assessor.web import words


def test_docstrings() -> None:
    result = doctest.testmod(words)
    assert result.attempted > 0 and result.failed == 0


def test_every_judging_order_is_named_in_words() -> None:
    assert set(words.ORDER_WORDS) == set(ORDERS)
    for code, said in words.ORDER_WORDS.items():
        assert said == code or code not in said.split(), (code, said)  # "random" is a word


def test_every_stored_state_has_its_words() -> None:
    (check,) = [
        c
        for c in Judgement.__table__.constraints
        if isinstance(c, CheckConstraint) and "status" in str(c.sqltext)
    ]
    stored = set(re.findall(r"'(\w+)'", str(check.sqltext)))
    assert stored <= set(words.STATE_WORDS)
    assert {words.state_words(code) for code in stored} == {
        "relevant",
        "not relevant",
        "not judged yet",
    }
