"""The one grammar of measure names: every spelling of a measure reads as the same declaration,
the vocabulary decides what an ambiguous spelling means, and a bad name is refused with what
is known and the close spellings."""

from __future__ import annotations

import pytest

from focal.evaluation.measures.grammar import Term, split
from focal.evaluation.measures.registry import names
from focal.evaluation.measures.registry.declarations import ARTICLE_MEASURES, ELEMENT_MEASURES
from focal.evaluation.measures.registry.names import NotProvided, UnknownMeasure, parse, parse_trec
from focal.evaluation.measures.trec_eval.families import declarations as trec

SPELLINGS = [
    # trec_eval's name, Focal's alias and ir_measures' string of one measure and parameter
    (("map", "MAP", "AP"), "map", None),
    (("P.10", "P@10"), "P", (10.0,)),
    (("ndcg_cut.10", "nDCG@10"), "ndcg_cut", (10.0,)),
    (("ndcg", "nDCG"), "ndcg", None),
    (("recall.100", "R@100"), "recall", (100.0,)),
    (("recip_rank", "RR"), "recip_rank", None),
    (("bpref", "Bpref"), "bpref", None),
    (("map_cut.20", "AP@20"), "map_cut", (20.0,)),
    (("iprec_at_recall.0.5", "IPrec@0.5"), "iprec_at_recall", (0.5,)),
    (("success.5", "Success@5"), "success", (5.0,)),
    (("num_rel_ret", "NumRelRet"), "num_rel_ret", None),
]


@pytest.mark.parametrize(("spellings", "measure", "parameters"), SPELLINGS)
def test_every_spelling_reads_as_one_declaration(
    spellings: tuple[str, ...], measure: str, parameters: tuple[float, ...] | None
) -> None:
    for spelling in spellings:
        request = parse(spelling, "trec")
        assert (request.measure, request.parameters) == (measure, parameters), spelling


def test_the_vocabulary_decides_what_ndcg_means() -> None:
    """`nDCG@10` is trec_eval's ndcg_cut (gain: the grade); Focal's nDCG (gain: the relevant
    fraction) has its own name in `articles`; `P@10` of elements is element precision."""
    assert parse("nDCG@10", "trec").measure == "ndcg_cut"
    with pytest.raises(UnknownMeasure):
        parse("nDCG@10", "articles")
    assert parse("nDCG(gain=fraction)@10", "articles").measure == "nDCG(gain=fraction)@k"
    assert parse("nDCG(gain=fraction)@10", "articles").parameters == (10.0,)
    assert parse("P@10", "elements").measure == "P@k"
    assert parse("P@k", "elements").parameters is None  # the declared cut-offs


def test_trec_selection_rows_come_from_the_declarations() -> None:
    selection = parse_trec(["P.10,5", "MAP", "set_F.0.5", "iprec_at_recall.0.1"])
    assert [row.name for row in selection.rows()] == [
        "map", "iprec_at_recall_0.10", "P_5", "P_10", "set_F_0.5",
    ]  # fmt: skip
    official = parse_trec([])
    assert official.runid and [r.name for r in official.rows()][:2] == ["num_q", "num_ret"]
    assert parse_trec(["all_trec"]).left_out == []  # 10.0's all_trec in full


def test_ir_measures_names_no_engine_computes_are_parsed_then_refused() -> None:
    assert split("P(rel=2)@5") == Term("P(rel=2)@5", "P", (("rel", "2"),), "5")
    for name in ("P(rel=2)@5", "RR@10", "Judged@10"):
        with pytest.raises(NotProvided, match=r"is not provided by any engine for task articles"):
            parse(name, "trec")
    assert parse("ndcg_rel", "trec").measure == "ndcg_rel"  # trec_eval's, computed


@pytest.mark.parametrize(
    ("name", "vocabulary", "message", "close"),
    [
        ("MRR", "trec", "unknown measure 'MRR' (closest: ", "RR"),
        ("ndcg_cutt.10", "trec", "unknown measure 'ndcg_cutt.10'", None),
        ("nDGC@10", "trec", "unknown measure 'nDGC@10'", None),
        ("MAPP", "articles", "unknown article measure 'MAPP' (closest: ", "MAP"),
        ("P@0", "articles", "unknown article measure 'P@0'", None),
        ("MAeP", "elements", "unknown element measure 'MAeP' (closest: ", "MAep"),
        ("P@0", "elements", "unknown element measure 'P@0'", None),
    ],
)
def test_unknown_names_are_refused_with_the_closest_ones_first(
    name: str, vocabulary: names.Vocabulary, message: str, close: str | None
) -> None:
    with pytest.raises(UnknownMeasure) as caught:
        parse(name, vocabulary)
    text = str(caught.value)
    assert text.startswith(message) and "\n" not in text
    if close is not None:  # the closest names, before the list of every known one
        assert close in text.split("(closest: ")[1].split(")")[0].split(", ")
        assert text.index("closest") < text.index(":", text.index(")"))


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["P.0"], "cut-offs of P must be positive integers"),
        (["P.5,5"], "duplicate cut-offs"),
        (["map.5"], "takes no parameters"),
        (["official.5"], "takes no parameters"),
        (["utility.1,2"], "utility takes 4 coefficients"),
        (["P.x"], "cut-offs of P must be positive integers"),  # atol("x") = 0
    ],
)
def test_bad_parameters_are_refused(specs: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_trec(specs)


def test_every_declared_name_parses_in_its_vocabulary() -> None:
    for measure in ARTICLE_MEASURES:
        spelled = measure.name.replace("@k", "@10")
        assert parse(spelled, "articles").measure == measure.name
    for measure in ELEMENT_MEASURES:
        assert parse(measure.name, "elements").measure == measure.name
    for family in trec.TREC_MEASURES:
        assert parse(family.name, "trec").measure == family.name
        for alias in family.aliases:
            assert parse(alias.replace("@k", "@5"), "trec").measure == family.name


def test_element_rows_expand_the_declared_parameters() -> None:
    rows = names.element_rows(["inex_eval[x]", "overlap@k", "P@10", "P@10"])
    assert rows[0] == "inex_eval[0.01]" and rows[99] == "inex_eval[1.00]"
    assert rows[100:] == [f"overlap@{k}" for k in (5, 10, 20, 30, 100, 200, 1500)] + ["P@10"]
