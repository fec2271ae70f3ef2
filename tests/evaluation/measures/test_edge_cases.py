"""Hand-made cases, each worked out on paper in its comments."""

from __future__ import annotations

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Judgement, Result, Run
from focal.evaluation.measures.evaluate import aggregate, evaluate

QRELS = {
    "1": {
        # 200 characters, relevant 50..100 and 150..170 (70), best entry point inside
        "rel": Judgement("1", "rel", 70, 200, 160, ((50, 100), (150, 170)), 1),
        "non": Judgement("1", "non", 0, 300, None, (), 2),
        # best entry point 90 lies outside its only passage 0..10
        "outside": Judgement("1", "outside", 10, 100, 90, ((0, 10),), 3),
    },
    "2": {"z": Judgement("2", "z", 0, 50, None, (), 4)},  # a topic without relevant text
    "3": {"q": Judgement("3", "q", 10, 20, 0, ((0, 10),), 5)},
}


def run(*lines: tuple[str, str, int | None, int | None]) -> Run:
    """A FOL run from (topic, article, offset, length); offset None is an `X` result."""
    result = Run("hand", "hand.run", "fol")
    for number, (topic, article, start, length) in enumerate(lines, 1):
        missing = start is None
        result.topics.setdefault(topic, []).append(
            Result(topic, article, number, 0.0, number, start=start, length=length, missing=missing)
        )
    return result


def test_unjudged_and_non_relevant_articles_retrieve_nothing_relevant() -> None:
    # ret 100, 200, 250; relret 0, 0, 50; T = 80: P = 0.2 and R = 0.625 (bin 62) at rank 3
    evaluation = evaluate(
        QRELS, run(("1", "u", 0, 100), ("1", "non", 0, 100), ("1", "rel", 50, 50))
    )
    values = evaluation.topics[0].values
    assert (values["num_ret"], values["num_rel"], values["num_rel_ret"]) == (3, 2, 1)
    assert (values["ret_size"], values["rel_size"], values["rel_ret_size"]) == (250, 80, 50)
    assert values["char_prec"] == 0.2
    assert values["char_rec"] == 0.625
    assert values["iP[0.10]"] == 0.2
    assert evaluation.topics[0].curve[62] == 0.2 and evaluation.topics[0].curve[63] == 0.0
    assert values["AiP"] == pytest.approx(63 * 0.2 / 101, abs=1e-15)


def test_an_x_result_is_18_irrelevant_characters() -> None:
    evaluation = evaluate(QRELS, run(("1", "rel", None, None), ("1", "rel", 50, 50)))
    values = evaluation.topics[0].values
    assert values["ret_size"] == 68
    assert values["rel_ret_size"] == 50
    assert values["iP[0.00]"] == 50 / 68


def test_x_results_never_overlap_in_focused_runs() -> None:
    evaluation = evaluate(QRELS, run(("1", "rel", None, None), ("1", "rel", None, None)))
    assert evaluation.topics[0].values["ret_size"] == 36


def test_topics_missing_from_the_run_with_and_without_complete() -> None:
    answered = run(("1", "rel", 50, 50))  # P = 1, R = 50/80 = 0.625: iP = 1 up to bin 62
    alone = aggregate(evaluate(QRELS, answered))
    assert alone["num_q"] == 1
    assert alone["MAiP"] == pytest.approx(63 / 101, abs=1e-15)
    complete = evaluate(QRELS, answered, complete=True)
    assert [(t.topic, t.answered) for t in complete.topics] == [
        ("1", True),
        ("2", False),
        ("3", False),
    ]
    totals = aggregate(complete)
    assert totals["num_q"] == 3
    assert totals["MAiP"] == pytest.approx(63 / 101 / 3, abs=1e-15)
    assert totals["num_rel"] == 2 + 0 + 1  # the missing topics' relevant articles still count
    assert "all 3 qrels topics" in complete.averaging and "1 answered" in complete.averaging


def test_overlap_in_thorough_runs_counts_only_unseen_text_of_relevant_articles() -> None:
    lines = run(("3", "q", 0, 10), ("3", "q", 5, 10), ("1", "non", 0, 10), ("1", "non", 0, 10))
    evaluation = evaluate(QRELS, lines, task="thorough")
    by_topic = {t.topic: t.values for t in evaluation.topics}
    relevant, other = by_topic["3"], by_topic["1"]
    assert (relevant["ret_size"], relevant["rel_ret_size"]) == (15, 10)  # 10..15 is new
    assert relevant["iP[0.00]"] == 1.0
    assert other["ret_size"] == 20  # a non-relevant article's text is counted in full


def test_overlap_in_a_focused_run_is_an_error_naming_the_line() -> None:
    with pytest.raises(FormatError) as error:
        evaluate(QRELS, run(("1", "rel", 0, 60), ("1", "u", 0, 5), ("1", "rel", 50, 10)), "focused")
    assert error.value.line == 3
    assert "line 1" in error.value.message


@pytest.mark.parametrize("task", ["ric", "t2i"])
def test_coming_back_to_an_article_in_context_is_an_error(task: str) -> None:
    with pytest.raises(FormatError) as error:
        evaluate(QRELS, run(("1", "rel", 0, 10), ("1", "u", 0, 5), ("1", "rel", 50, 10)), task)
    assert error.value.line == 3


def test_best_in_context_allows_one_line_per_article() -> None:
    with pytest.raises(FormatError) as error:
        evaluate(QRELS, run(("1", "rel", 0, 10), ("1", "rel", 50, 10)), "bic")
    assert error.value.line == 2


def test_runs_shorter_than_the_cut_offs() -> None:
    # one article, all its relevant text and nothing else: F = 1
    lines = run(("3", "q", 0, 10))
    official = evaluate(QRELS, lines, "ric").topics[0].values
    strict = evaluate(QRELS, lines, "ric", strict=True).topics[0].values
    assert official["gP[1]"] == official["gP[5]"] == official["gP[50]"] == 1.0  # gP[n] for gP[k]
    assert strict["gP[5]"] == 0.2 and strict["gP[50]"] == 0.02
    assert official["gR[50]"] == 1.0 and official["AgP"] == 1.0


def test_a_best_entry_point_outside_every_passage() -> None:
    # bep 90, retrieved offset 0: distance 90, score (500 - 90)/500
    values = evaluate(QRELS, run(("1", "outside", 0, 5)), "bic").topics[0].values
    assert values["gP[1]"] == pytest.approx(0.82, abs=1e-15)
    assert (values["ret_size"], values["rel_ret_size"]) == (0, 0)  # not counted for BiC
    narrow = evaluate(QRELS, run(("1", "outside", 0, 5)), "bic", n=50).topics[0].values
    assert narrow["gP[1]"] == 0.0


def test_a_topic_without_relevant_text_scores_zero() -> None:
    for task in ("focused", "thorough", "ric", "bic", "t2i"):
        evaluation = evaluate(QRELS, run(("2", "z", 0, 10)), task)
        values = evaluation.topics[0].values
        assert all(v == 0 for k, v in values.items() if k not in ("num_ret", "ret_size")), task
        assert any("no relevant text" in w for w in evaluation.warnings)


def test_t2i_reads_the_rest_of_the_article_until_the_tolerance() -> None:
    # reads 50..100 (50 relevant), then 0..50 (50 irrelevant), 100..150 (50 irrelevant),
    # 150..170 (20 relevant), 170..200 (30 irrelevant): 70 relevant of 200 read
    lines = run(("1", "rel", 50, 50))
    assert evaluate(QRELS, lines, "t2i").topics[0].values["gP[1]"] == 70 / 200
    # with 100 tolerated: 50 relevant, 0..50, then 100..150 reaches the 100th: 50 of 150
    assert evaluate(QRELS, lines, "t2i", irr=100).topics[0].values["gP[1]"] == 50 / 150


def test_relevant_in_context_f_measure() -> None:
    # rel 50..100 retrieved as 40..100: Pd = 50/60, Rd = 50/70, beta 0.25
    p, r = 50 / 60, 50 / 70
    values = evaluate(QRELS, run(("1", "rel", 40, 60)), "ric").topics[0].values
    assert values["gP[1]"] == pytest.approx(1.0625 * p * r / (0.0625 * p + r), abs=1e-15)
    assert values["AgP"] == pytest.approx(values["gP[1]"] / 2, abs=1e-15)  # N = 2


def test_results_past_the_end_of_their_article_are_reported() -> None:
    evaluation = evaluate(QRELS, run(("3", "q", 15, 10)))
    assert any("hand.run:1" in w and "past the end of article q" in w for w in evaluation.warnings)


def test_run_topics_absent_from_the_qrels_are_listed() -> None:
    evaluation = evaluate(QRELS, run(("99", "a", 0, 5), ("1", "rel", 50, 5)))
    assert evaluation.unknown_topics == ["99"]
    assert [t.topic for t in evaluation.topics] == ["1"]


def test_recall_bins_are_computed_in_double_unless_strict() -> None:
    # T = 100 relevant characters, 29 retrieved: recall 0.29, 100 * 0.29 = 28.999999999999996
    qrels = {"1": {"a": Judgement("1", "a", 100, 100, 0, ((0, 100),), 1)}}
    lines = run(("1", "a", 0, 29))
    official = evaluate(qrels, lines).topics[0].curve
    strict = evaluate(qrels, lines, strict=True).topics[0].curve
    assert (official[28], official[29]) == (1.0, 0.0)
    assert (strict[29], strict[30]) == (1.0, 0.0)


def test_article_runs_are_refused_for_passage_tasks() -> None:
    lines = Run("a", "a.run", "article", {"1": [Result("1", "rel", 1, 1.0, 1)]})
    with pytest.raises(FormatError, match="needs a FOL run"):
        evaluate(QRELS, lines, "focused")
