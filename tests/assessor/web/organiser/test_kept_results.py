"""What the agreement and adjudication pages keep per topic (`campaign.results.topic_cache`, in
the process and in the database) is never shown stale: after a judgement changes, every page
shows what a process computes on a database that kept nothing, and only the changed topic is
computed again.

The campaign and the pages compared: this folder's conftest.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from focal.assessor.campaign.results import adjudication, agreement_overview
from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment

from ...conftest import Seeded
from .conftest import SHOWN, forget, shown


def test_a_changed_judgement_changes_every_page_and_only_its_topic_is_computed(
    doubled: Seeded, fresh: Callable[[], dict[str, str]], computed: dict[str, list[set[str]]]
) -> None:
    token = doubled.tokens["olga"]
    before = shown(doubled.app, token)
    assert before == fresh()
    assert "<td>0 / 2</td>" in before["/organiser/adjudicate"]
    assert computed["agreement"][0] == {"1", "2"} and computed["queue"][0] == {"1", "2"}
    for calls in computed.values():
        calls.clear()
    assert shown(doubled.app, token) == before
    assert computed == {"agreement": [], "queue": []}, "nothing changed, nothing computed"

    with db.session_scope(doubled.app) as session:  # bob now agrees with alice on 1002
        judgements.mark_nonrelevant(session, session.get_one(Assignment, doubled.bob), "1002", "b9")
    after = shown(doubled.app, token)
    assert computed == {"agreement": [{"1"}], "queue": [{"1"}]}
    assert after == fresh()
    assert all(after[path] != before[path] for path in SHOWN), "every page shows the change"
    assert "<td>0 / 1</td>" in after["/organiser/adjudicate"]
    assert "/organiser/adjudicate/1/1002" not in after["/organiser/adjudicate/1"]


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_write_racing_the_computation_is_never_kept_stale(
    doubled: Seeded,
    fresh: Callable[[], dict[str, str]],
    other_process: Callable[[], dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    when: str,
) -> None:
    """Another assessor's write commits while a page computes, `before` or `after` it reads the
    judgements (after it read the stamps, before it keeps what it computed): the race a
    concurrent writer makes. The next page shows the write, in this process and in another
    one that finds what this one stored."""
    token = doubled.tokens["olga"]
    before = fresh()  # the app under test has kept nothing yet
    forget(doubled.app)  # nor has the database: the page below computes every topic
    writes = {  # what bob does while each computation runs, once: both change the pages
        "agreement": lambda session, bob: judgements.highlight(
            session, bob, "1002", "b8", 10, 24, " article text."
        ),
        "queue": lambda session, bob: judgements.mark_nonrelevant(session, bob, "1002", "b9"),
    }

    def racing(kind: str, read: Any) -> Any:
        def write() -> None:
            if kind in writes:
                with db.session_scope(doubled.app) as other:
                    writes.pop(kind)(other, other.get_one(Assignment, doubled.bob))

        def wrapped(session: Any, *args: Any, **kwargs: Any) -> Any:
            if when == "before":
                write()
            found = read(session, *args, **kwargs)
            if when == "after":
                write()
            return found

        return wrapped

    monkeypatch.setattr(
        agreement_overview,
        "judged_articles",
        racing("agreement", agreement_overview.judged_articles),
    )
    monkeypatch.setattr(
        adjudication, "pair_highlights", racing("queue", adjudication.pair_highlights)
    )
    shown(doubled.app, token)  # computes every topic, a write racing each computation
    assert not writes, "both computations raced a write"
    monkeypatch.undo()
    assert other_process() == fresh(), "another process never shows what was stored stale"
    after = shown(doubled.app, token)
    assert after == fresh()
    assert after["/organiser/agreement.csv"] != before["/organiser/agreement.csv"]
    assert after["/organiser/adjudicate/1"] != before["/organiser/adjudicate/1"]
