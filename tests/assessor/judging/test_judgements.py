"""Judging use cases on a real database: merge, split, replay, refusals, event log."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from focal.assessor.judging import judgements
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, Event, Judgement

ARTICLE = "1001"


@pytest.fixture
def work(seeded: Any) -> Any:
    """(session, alice's topic-1 assignment, text of the article)."""
    session: Session = db.session_factory(seeded.app)()
    yield session, session.get(Assignment, seeded.alice), seeded.text(ARTICLE)
    session.close()


def highlight(
    session: Session, assignment: Assignment, text: str, op_id: str, start: int, end: int
) -> judgements.JudgementState:
    return judgements.highlight(session, assignment, ARTICLE, op_id, start, end, text[start:end])


def test_highlights_merge_when_they_overlap_or_touch(work: Any) -> None:
    session, assignment, text = work
    highlight(session, assignment, text, "a", 0, 5)
    state = highlight(session, assignment, text, "b", 5, 8)  # "The" touches "Alpha"
    assert state.passages == ((0, 8),)
    state = highlight(session, assignment, text, "c", 21, 25)  # "fox."
    assert state.passages == ((0, 8), (21, 25))
    assert state.status == "relevant" and state.version == 3


def test_unhighlight_splits_and_the_last_removal_unjudges(work: Any) -> None:
    session, assignment, text = work
    highlight(session, assignment, text, "a", 0, 20)
    judgements.set_bep(session, assignment, ARTICLE, "bep", 2)
    state = judgements.unhighlight(session, assignment, ARTICLE, "u", 5, 10)
    assert state.passages == ((0, 5), (10, 20)) and state.bep == 2
    state = judgements.unhighlight(session, assignment, ARTICLE, "u2", 0, 20)
    assert state.passages == () and state.status == "unjudged" and state.bep is None


def test_replaying_an_op_id_applies_it_once(work: Any) -> None:
    session, assignment, text = work
    first = highlight(session, assignment, text, "same", 0, 5)
    judgements.unhighlight(session, assignment, ARTICLE, "other", 0, 5)
    replay = highlight(session, assignment, text, "same", 0, 5)
    assert first.version == 1
    assert replay.version == 2 and replay.passages == ()  # current state, not applied again
    events = session.scalar(select(func.count()).select_from(Event))
    assert events == 2


def test_an_op_id_reused_for_another_operation_is_refused(work: Any) -> None:
    session, assignment, text = work
    highlight(session, assignment, text, "x", 0, 5)
    with pytest.raises(judgements.Conflict):
        judgements.mark_nonrelevant(session, assignment, ARTICLE, "x")


def test_mismatched_exact_is_refused_and_nothing_changes(work: Any) -> None:
    session, assignment, text = work
    with pytest.raises(judgements.Conflict, match="exact"):
        judgements.highlight(session, assignment, ARTICLE, "m", 0, 5, text[1:6])
    assert judgements.get_state(session, assignment, ARTICLE).version == 0
    assert session.scalar(select(func.count()).select_from(Event)) == 0


@pytest.mark.parametrize("start,end", [(-1, 3), (3, 3), (5, 2), (0, 10_000)])
def test_out_of_range_offsets_are_refused(work: Any, start: int, end: int) -> None:
    session, assignment, _text = work
    with pytest.raises(judgements.InvalidOperation):
        judgements.highlight(session, assignment, ARTICLE, "r", start, end, "")


def test_stale_version_is_refused(work: Any) -> None:
    session, assignment, text = work
    highlight(session, assignment, text, "a", 0, 5)
    stale = judgements.Operation(
        op_id="s", op="highlight", start=6, end=8, exact=text[6:8], version=0
    )
    with pytest.raises(judgements.Conflict, match="stale"):
        judgements.apply(session, assignment, ARTICLE, stale)
    fresh = judgements.Operation(
        op_id="f", op="highlight", start=6, end=8, exact=text[6:8], version=1
    )
    assert judgements.apply(session, assignment, ARTICLE, fresh).version == 2


def test_nonrelevant_finish_and_bep_rules(work: Any) -> None:
    session, assignment, text = work
    with pytest.raises(judgements.InvalidOperation):
        judgements.finish(session, assignment, ARTICLE, "f0")  # nothing judged yet
    with pytest.raises(judgements.InvalidOperation):
        judgements.set_bep(session, assignment, ARTICLE, "b0", 3)  # not relevant yet
    state = judgements.mark_nonrelevant(session, assignment, ARTICLE, "n")
    assert (state.status, state.passages, state.finished) == ("nonrelevant", (), True)
    state = highlight(session, assignment, text, "h", 10, 14)
    assert state.status == "relevant" and not state.finished
    state = judgements.finish(session, assignment, ARTICLE, "f")
    assert state.bep == 10 and state.finished  # the suggested BEP: start of the first passage
    state = judgements.mark_nonrelevant(session, assignment, ARTICLE, "n2")
    assert state.bep is None and state.passages == ()


def test_every_applied_op_is_logged_with_times(work: Any) -> None:
    session, assignment, text = work
    op = judgements.Operation.from_json(
        {
            "op_id": "t",
            "op": "highlight",
            "start": 0,
            "end": 3,
            "exact": text[:3],
            "client_time": "2024-05-01T10:00:00Z",
        }
    )
    judgements.apply(session, assignment, ARTICLE, op)
    event = session.scalars(select(Event)).one()
    assert event.kind == "highlight" and event.op_id == "t" and event.article == ARTICLE
    assert event.payload == {"op": "highlight", "start": 0, "end": 3, "new_version": 1}
    assert event.client_time is not None and event.client_time.isoformat() == "2024-05-01T10:00:00"
    assert event.server_time is not None and event.user_id == assignment.user_id


def test_articles_outside_the_pool_are_not_found(work: Any) -> None:
    session, assignment, _text = work
    with pytest.raises(judgements.NotFound):
        judgements.get_state(session, assignment, "9999")


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"op_id": "a"},
        {"op_id": "a", "op": "paint"},
        {"op_id": "a", "op": "highlight", "start": "1"},
        {"op_id": "", "op": "finish"},
        {"op_id": "a", "op": "finish", "client_time": "yesterday"},
    ],
)
def test_malformed_operations_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(judgements.InvalidOperation):
        judgements.Operation.from_json(data)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 40), st.integers(1, 12)), max_size=12))
def test_random_operation_sequences_match_a_character_model(
    work: Any, ops: list[tuple[bool, int, int]]
) -> None:
    session, assignment, text = work
    session.query(Event).delete()
    session.query(Judgement).delete()
    session.commit()
    model: set[int] = set()
    number = 0
    for is_add, start, length in ops:
        end = min(start + length, len(text))
        if is_add and not text[start:end].strip():
            continue  # refused: see test_a_highlight_of_whitespace_only_is_refused
        number += 1
        if is_add:
            state = highlight(session, assignment, text, f"op{number}", start, end)
            model = by_the_rule(model | set(range(start, end)), text)
        else:
            state = judgements.unhighlight(session, assignment, ARTICLE, f"op{number}", start, end)
            model = by_the_rule(model - set(range(start, end)), text)
        stored = {i for s, e in state.passages for i in range(s, e)}
        assert stored == model
        assert state.status == ("relevant" if model else "unjudged")
        assert state.version == number


def by_the_rule(highlighted: set[int], text: str) -> set[int]:
    """The characters stored for `highlighted`, worked character by character: each run of
    consecutive characters loses its whitespace ends, then a gap between two runs that holds
    only spaces and punctuation (" ", ".", none else in this text) is filled."""
    kept = set(highlighted)
    runs: list[list[int]] = []
    for i in sorted(kept):
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        for i in run:  # from the left
            if not text[i].isspace():
                break
            kept.discard(i)
        for i in reversed(run):  # from the right
            if not text[i].isspace():
                break
            kept.discard(i)
    ordered = sorted(kept)
    for a, b in pairwise(ordered):
        if b > a + 1 and all(c in " ." for c in text[a + 1 : b]):
            kept |= set(range(a + 1, b))
    return kept


def test_a_highlight_of_whitespace_only_is_refused(work: Any) -> None:
    session, assignment, text = work
    assert text[8] == " "  # "AlphaThe quick"
    with pytest.raises(judgements.InvalidOperation, match="only whitespace"):
        highlight(session, assignment, text, "w", 8, 9)
    assert judgements.get_state(session, assignment, ARTICLE).version == 0


def test_highlights_separated_by_a_full_stop_merge_and_ends_lose_their_spaces(work: Any) -> None:
    session, assignment, text = work
    # "The quick brown fox." [5, 25) then "Jumps" [25, 30): touching. "brown " [15, 21) and
    # "Jumps" leave "fox." between them: a word, so two passages, the first without its space.
    assert highlight(session, assignment, text, "a", 15, 21).passages == ((15, 20),)
    state = highlight(session, assignment, text, "b", 25, 30)
    assert state.passages == ((15, 20), (25, 30))
    # "fox" [21, 24) highlighted: only "." [24, 25) is left between "fox" and "Jumps".
    state = highlight(session, assignment, text, "c", 21, 24)
    assert state.passages == ((15, 30),)
    # Removing "fox." [21, 25) leaves "brown " [15, 21), which loses its space.
    state = judgements.unhighlight(session, assignment, ARTICLE, "d", 21, 25)
    assert state.passages == ((15, 20), (25, 30))


def test_with_the_campaign_setting_off_a_full_stop_keeps_passages_apart(work: Any) -> None:
    from focal.assessor.store.settings import CampaignSettings, read_settings, save_settings

    session, assignment, text = work
    assert read_settings(session) == CampaignSettings()  # no row: joined by default
    save_settings(session, CampaignSettings(merge_across_punctuation=False))
    session.commit()
    # "fox" [21, 24) and "Jumps" [25, 30): only "." [24, 25) between them (see above).
    highlight(session, assignment, text, "a", 21, 24)
    state = highlight(session, assignment, text, "b", 25, 30)
    assert state.passages == ((21, 24), (25, 30))
    # Trimming stays: "over " [31, 36) is stored as "over".
    assert highlight(session, assignment, text, "c", 31, 36).passages[-1] == (31, 35)
