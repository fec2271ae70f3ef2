"""`wait_until`, the suite's one way of waiting for a condition: it returns the first true value
and fails the test, naming what it waited for, when the condition stays false."""

from __future__ import annotations

import pytest

from .conftest import wait_until


def test_it_returns_the_first_true_value() -> None:
    answers = iter([None, 0, "", "ready", "later"])
    assert wait_until(lambda: next(answers), timeout=5, every=0) == "ready"


def test_it_fails_naming_what_it_waited_for() -> None:
    with pytest.raises(pytest.fail.Exception, match="waiting for the moon"):
        wait_until(lambda: None, timeout=0.05, what="the moon", every=0.01)
