"""Support of RAG answers in characters (docs/collections.md, "Support of RAG answers")."""

from __future__ import annotations

from focal.evaluation.formats.collections.answers import Answer, Cited, Sentence
from focal.evaluation.formats.records import Judgement
from focal.evaluation.measures.support import answer_support, run_support

# Cited ranges by id: two segments of document a, the whole of document b (40 characters).
RANGES: dict[str, Cited] = {"a#0": ("a", 0, 10), "a#1": ("a", 20, 30), "b": ("b", 0, 40)}


def resolve(identifier: str, file: str, line: int) -> Cited:
    return RANGES[identifier]


# Supporting characters: a 5..25 (20), b 30..34 (4); document c 10..20 (10) nobody cites.
JUDGED = {
    "a": Judgement("1", "a", 20, 100, None, ((5, 25),), 1),
    "b": Judgement("1", "b", 4, 40, None, ((30, 34),), 2),
    "c": Judgement("1", "c", 10, 50, None, ((10, 20),), 3),
}


def answer(run: str, *sentences: tuple[str, ...]) -> Answer:
    return Answer(run, "1", tuple(Sentence("s", ids) for ids in sentences), "answers", 1)


def test_sentence_and_answer_ratios_count_characters() -> None:
    scored = answer_support(answer("r", ("a#0",), ("a#1", "a#0"), ("b",), ()), resolve, JUDGED)
    first, second, third, fourth = scored.sentences
    # a#0 is 0..10: 5..10 of it supports; a's supporting characters are 20.
    assert (first.cited, first.supported, first.supporting) == (10, 5, 20)
    assert (first.precision, first.recall) == (5 / 10, 5 / 20)
    # a#0 and a#1 are 0..10 and 20..30: 5 + 5 supporting of 20 cited.
    assert (second.cited, second.supported, second.supporting) == (20, 10, 20)
    assert (third.precision, third.recall) == (4 / 40, 4 / 4)
    assert (fourth.precision, fourth.recall) == (None, None)  # cites nothing: undefined
    # the answer cites a 0..10, 20..30 and b 0..40 (a#0 twice counts once): 60 characters,
    # 10 + 4 supporting, of the topic's 20 + 4 + 10 supporting characters.
    whole = scored.answer
    assert (whole.cited, whole.supported, whole.supporting) == (60, 14, 34)


def test_a_run_averages_its_answers() -> None:
    one = answer_support(answer("r", ("a#0",)), resolve, JUDGED)
    two = answer_support(Answer("r", "2", (Sentence("s", ("b",)),), "answers", 2), resolve, {})
    other = answer_support(answer("q", ("b",)), resolve, JUDGED)
    rows = run_support([one, two, other])
    assert [(r.run_id, r.topics) for r in rows] == [("r", 2), ("q", 1)]
    # topic 2 has no supporting characters: precision 0, recall undefined and left out
    assert rows[0].precision == (5 / 10 + 0.0) / 2
    assert rows[0].recall == 5 / 34
    assert (rows[1].precision, rows[1].recall) == (4 / 40, 4 / 34)
