"""Agreement of two assessors (spec section 7) on hand-made pairs of judgements.

Every expected number is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import doctest
import importlib
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.cli.agreement import write_json, write_text
from focal.evaluation.formats.records import Judgement, Qrels
from focal.evaluation.statistics.agreement.assessors import (
    COLUMNS,
    AgreementError,
    common_topics,
    topic_agreement,
)
from focal.evaluation.statistics.agreement.characters import overlap
from focal.evaluation.statistics.agreement.labels import cohen_kappa, nominal_alpha
from focal.evaluation.statistics.agreement.table import agreement_table


def line(topic: str, article: str, *passages: tuple[int, int], length: int = 1000) -> Judgement:
    """A qrels line: relevant with these passages (BEP at the first), or not relevant."""
    rel = sum(end - start for start, end in passages)
    bep = passages[0][0] if passages else None
    return Judgement(topic, article, rel, length, bep, tuple(sorted(passages)), 0)


def qrels(*lines: Judgement) -> Qrels:
    out: Qrels = {}
    for item in lines:
        out.setdefault(item.topic, {})[item.article] = item
    return out


def test_identical_judgements_agree_fully() -> None:
    judged = qrels(
        line("1", "a", (0, 100), (200, 250)),
        line("1", "b", (10, 20)),
        line("1", "c"),
        line("2", "d", (5, 50)),
        line("2", "e"),
    )
    rows, total = agreement_table(judged, judged).rows, agreement_table(judged, judged).total
    for row in [*rows, total]:
        assert row.docs_agreement == row.kappa == row.alpha == 1.0
        assert row.both_over_a == row.both_over_b == row.both_over_union == 1.0
        assert row.docs_a == row.docs_b == row.docs_both
        assert row.chars_a == row.chars_b == row.chars_both
    # topic 1: a has 100 + 50, b has 10 highlighted characters; topic 2: d has 45
    assert [(r.topic, r.chars_both, r.docs_both) for r in rows] == [("1", 160, 2), ("2", 45, 1)]
    assert (total.chars_both, total.docs_both, total.judged_both) == (205, 3, 5)


def test_disjoint_judgements_agree_nowhere() -> None:
    a = qrels(line("1", "x", (0, 10)), line("1", "y"))
    b = qrels(line("1", "x"), line("1", "y", (0, 10)))
    row = topic_agreement("1", a["1"], b["1"])
    # relevant: A {x}, B {y}: nothing in common, union 2
    assert (row.docs_a, row.docs_b, row.docs_both, row.docs_agreement) == (1, 1, 0, 0.0)
    # labels A (x, y) = (1, 0), B = (0, 1): p_o = 0, p_e = (1·1 + 1·1)/4 = 1/2, kappa = -1
    assert row.kappa == -1.0
    # alpha: 4 values, two 0 and two 1; D_o = (1/4)(2 + 2) = 1, D_e = 2·2·2/(4·3) = 2/3,
    # alpha = 1 − 1/(2/3) = −1/2
    assert row.alpha == pytest.approx(-0.5, abs=1e-12)
    assert (row.chars_a, row.chars_b, row.chars_both) == (10, 10, 0)
    assert row.both_over_a == row.both_over_b == row.both_over_union == 0.0


def test_one_highlight_inside_the_other() -> None:
    a = qrels(line("1", "x", (0, 100)), line("1", "y", (0, 40)), line("1", "z"))
    b = qrels(line("1", "x", (20, 50)), line("1", "y"), line("1", "z"))
    row = topic_agreement("1", a["1"], b["1"])
    # B's relevant articles {x} are a subset of A's {x, y}: 1/2
    assert (row.docs_a, row.docs_b, row.docs_both, row.docs_agreement) == (2, 1, 1, 0.5)
    # labels A = (1, 1, 0), B = (1, 0, 0): p_o = 2/3; p_e = (2·1 + 1·2)/9 = 4/9;
    # kappa = (2/3 − 4/9)/(1 − 4/9) = (2/9)/(5/9) = 0.4
    assert row.kappa == pytest.approx(0.4, abs=1e-12)
    # A highlights 100 + 40, B 30 characters, all inside A's: ∩ = 30
    assert (row.chars_a, row.chars_b, row.chars_both) == (140, 30, 30)
    assert row.both_over_a == pytest.approx(30 / 140)
    assert row.both_over_b == 1.0
    assert row.both_over_union == pytest.approx(30 / 140)  # 30 / (140 + 30 − 30)


def test_touching_passages_share_no_character() -> None:
    a = qrels(line("1", "x", (0, 10), (30, 40)))
    b = qrels(line("1", "x", (10, 30), (40, 45)))
    row = topic_agreement("1", a["1"], b["1"])
    # both call x relevant, yet no character is highlighted by both
    assert (row.docs_both, row.docs_agreement) == (1, 1.0)
    assert (row.chars_a, row.chars_b, row.chars_both) == (20, 25, 0)
    assert row.both_over_union == 0.0
    # one article, both relevant: p_e = 1, kappa undefined; one value only: alpha undefined
    assert row.kappa is None and row.alpha is None


def test_articles_judged_by_one_assessor_only() -> None:
    a = qrels(line("1", "x", (0, 10)), line("1", "y", (0, 20)), line("1", "w"), line("1", "v"))
    b = qrels(line("1", "x", (5, 10)), line("1", "w"), line("1", "u", (0, 8)))
    row = topic_agreement("1", a["1"], b["1"])
    # relevant A {x, y}, B {x, u}: ∩ {x}, ∪ {x, y, u}
    assert (row.docs_a, row.docs_b, row.docs_both) == (2, 2, 1)
    assert row.docs_agreement == pytest.approx(1 / 3)
    # kappa and alpha only over x and w, judged by both: labels A (1, 0), B (1, 0) agree
    assert row.judged_both == 2
    assert row.kappa == 1.0 and row.alpha == 1.0
    # characters count every relevant article of each: A 10 + 20, B 5 + 8; ∩ 5 (in x)
    assert (row.chars_a, row.chars_b, row.chars_both) == (30, 13, 5)
    assert row.both_over_union == pytest.approx(5 / 38)


def test_the_all_row_sums_counts_and_averages_defined_ratios() -> None:
    a = qrels(line("1", "x", (0, 10)), line("2", "y", (0, 10)), line("3", "z"))
    b = qrels(line("1", "x", (0, 5)), line("2", "y"), line("3", "z"))
    rows, total = agreement_table(a, b).rows, agreement_table(a, b).total
    assert [row.topic for row in rows] == ["1", "2", "3"]
    # docs_agreement per topic: 1 (x both), 0 (y by A only), undefined (nothing relevant)
    assert [row.docs_agreement for row in rows] == [1.0, 0.0, None]
    assert total.docs_agreement == 0.5  # mean of 1 and 0; topic 3 left out
    # ∩/∪: topic 1 5/10, topic 2 0/10, topic 3 undefined -> mean 0.25
    assert total.both_over_union == 0.25
    # ∩/J2: topic 1 5/5 = 1, topic 2 and 3 undefined (B highlighted nothing) -> 1
    assert total.both_over_b == 1.0
    assert (total.docs_a, total.docs_b, total.docs_both) == (2, 1, 1)
    assert (total.chars_a, total.chars_b, total.chars_both) == (20, 5, 5)
    # kappa, one article a topic: topics 1 and 3 agree on a single label (p_e = 1, undefined);
    # topic 2 disagrees: p_o = 0, p_e = (1·0 + 0·1)/1 = 0, kappa 0. The mean of the defined: 0
    assert [row.kappa for row in rows] == [None, 0.0, None]
    assert total.kappa == 0.0


def test_kappa_and_alpha_on_a_worked_example() -> None:
    labels_a, labels_b = [True, True, False, False], [True, False, False, False]
    # p_o = 3/4, p_e = (2·1 + 2·3)/16 = 1/2: kappa = (1/4)/(1/2) = 1/2
    assert cohen_kappa(labels_a, labels_b) == 0.5
    # values: three 1, five 0 (n = 8); one unit disagrees: D_o = 2/8, D_e = 2·3·5/(8·7) = 15/28;
    # alpha = 1 − (1/4)/(15/28) = 1 − 7/15 = 8/15
    assert nominal_alpha(labels_a, labels_b) == pytest.approx(8 / 15, abs=1e-12)
    assert cohen_kappa([], []) is None and nominal_alpha([], []) is None


def test_topics_in_common() -> None:
    a, b = qrels(line("10", "x"), line("9", "x")), qrels(line("9", "x"), line("10", "y"))
    assert common_topics(a, b) == ["9", "10"]  # natural order
    with pytest.raises(AgreementError, match="no topic in common"):
        common_topics(qrels(line("1", "x")), qrels(line("2", "x")))
    with pytest.raises(AgreementError, match="topic 7 is not judged by alice and bob"):
        common_topics(a, b, "7", ("alice", "bob"))
    with pytest.raises(AgreementError, match=r"topic 1 is not judged by bob$"):
        common_topics(qrels(line("1", "x")), b, "1", ("alice", "bob"))


def test_columns_are_the_spec_header() -> None:
    header = (
        "topic docs_a docs_b docs_both docs_agreement kappa chars_a chars_b chars_both "
        "both_over_a both_over_b both_over_union char_f1 alpha_u"
    )
    assert " ".join(COLUMNS) == header
    table = agreement_table(qrels(line("1", "x", (0, 3))), qrels(line("1", "x", (1, 2))))
    assert tuple(table.records()[0]) == COLUMNS
    assert [record["topic"] for record in table.records()] == ["1", "all"]


spans = st.lists(
    st.tuples(st.integers(0, 60), st.integers(1, 15)).map(lambda p: (p[0], p[0] + p[1])),
    max_size=6,
)


@given(spans, spans)
def test_overlap_counts_the_characters_both_cover(
    a: list[tuple[int, int]], b: list[tuple[int, int]]
) -> None:
    covered_a = {i for start, end in a for i in range(start, end)}
    covered_b = {i for start, end in b for i in range(start, end)}
    assert overlap(a, b) == len(covered_a & covered_b) == overlap(b, a)


labels = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=30)


@given(labels)
def test_swapping_the_assessors_swaps_the_columns(pairs: list[tuple[bool, bool]]) -> None:
    a = qrels(
        *(line("1", str(i), (0, 10)) if x else line("1", str(i)) for i, (x, _) in enumerate(pairs))
    )
    b = qrels(
        *(line("1", str(i), (5, 12)) if y else line("1", str(i)) for i, (_, y) in enumerate(pairs))
    )
    ab, ba = topic_agreement("1", a["1"], b["1"]), topic_agreement("1", b["1"], a["1"])
    assert (ab.docs_a, ab.docs_b, ab.chars_a, ab.chars_b) == (
        ba.docs_b,
        ba.docs_a,
        ba.chars_b,
        ba.chars_a,
    )
    assert (ab.kappa, ab.alpha, ab.docs_agreement, ab.both_over_union) == (
        ba.kappa, ba.alpha, ba.docs_agreement, ba.both_over_union,
    )  # fmt: skip
    assert ab.chars_both <= min(ab.chars_a, ab.chars_b)
    if ab.kappa is not None:
        assert -1 <= ab.kappa <= 1


@pytest.mark.parametrize(
    "name",
    [
        "focal.evaluation.statistics.agreement.assessors",
        "focal.evaluation.statistics.agreement.elements",
        "focal.evaluation.relevance.analytics",
        "focal.evaluation.output.tables",
    ],
)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_text_and_json_writers() -> None:
    a = qrels(line("1", "x", (0, 10)), line("1", "y"))
    b = qrels(line("1", "x", (0, 5)), line("1", "y", (0, 4)))
    table = agreement_table(a, b, names=("a.qrels", "b.qrels"))
    text = io.StringIO()
    write_text(table, text)
    lines = text.getvalue().splitlines()
    assert lines[0] == "agreement of a.qrels (a) and b.qrels (b)"
    # x relevant for both, y for b only: 1/2; kappa over (1, 0) and (1, 1): p_o = 1/2,
    # p_e = (1·2 + 1·0)/4 = 1/2 -> 0; chars 10, 9, 5; char_f1 = 2·5/19.
    # alpha_u: x then y, 2000 characters; ordered pairs: x's units (0,10)/(0,5) → 0² + 5² = 25,
    # B's (0,4) of y inside A's gap → 16: 2·41/(2·2000²) = D_o; units 10, 5, 4 against gaps
    # 990, 1000, 995, 996: 1140 + 100·3945, 120 + 25·3965, 56 + 16·3969 = 558445;
    # D_e = (2/2000)·558445/(4000·3999 − 122); 1 − D_o/D_e = 0.7064
    expected = "1 1 2 1 0.5000 0.0000 10 9 5 0.5000 0.5556 0.3571 0.5263 0.7064"
    assert lines[2].split() == expected.split()
    document = io.StringIO()
    write_json(table, document)
    parsed = json.loads(document.getvalue())
    assert parsed["columns"] == list(COLUMNS)
    assert parsed["rows"][1]["topic"] == "all" and parsed["rows"][1]["both_over_union"] == 5 / 14
