"""One vocabulary: every spelling of a measure (Focal's, trec_eval's, ir_measures') reads to one
definition and gives one value, and no output format changes a value."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.api import evaluate
from focal.evaluation.cli.eval.command import eval_command
from focal.evaluation.measures.registry.names import NotProvided, UnknownMeasure
from focal.evaluation.measures.registry.vocabulary import listing, same_measure
from focal.evaluation.measures.trec_eval.names import resolve

REPOSITORY = Path(__file__).resolve().parents[4]
QRELS = str(REPOSITORY / "demo" / "qrels" / "demo.qrels")
RUN = str(REPOSITORY / "demo" / "runs" / "bm25-passages.run")

# Each line: the spellings of one measure (Focal's, trec_eval's, ir_measures').
SPELLINGS = [
    ("MAP", "map", "AP"),
    ("P@10", "P.10", "P@10"),
    ("nDCG@10", "ndcg_cut.10"),
    ("R@100", "recall.100"),
    ("RR", "recip_rank"),
    ("Bpref", "bpref"),
    ("nDCG", "ndcg"),
    ("AP@5", "map_cut.5"),
    ("Success@5", "success.5"),
]
GRADES = {"q": {"a": 2, "b": 0, "c": 1, "d": 1}, "p": {"e": 1, "f": 0}}
SCORES = {"q": {"b": 4.0, "a": 3.0, "x": 2.0, "c": 1.0}, "p": {"f": 2.0, "e": 1.0}}


@pytest.mark.parametrize("spellings", SPELLINGS, ids=lambda s: s[0])
def test_every_spelling_is_one_definition_and_one_value(spellings: tuple[str, ...]) -> None:
    first = spellings[0]
    assert all(same_measure(first, other) for other in spellings)
    values = {evaluate(GRADES, SCORES, "articles", [name]).aggregate["run1"].popitem()[1]
              for name in spellings}  # fmt: skip
    assert len(values) == 1, values


def test_names_with_their_own_options_are_distinct_definitions() -> None:
    assert not same_measure("P@5", "P(rel=2)@5")
    assert not same_measure("RR", "RR@10")
    assert not same_measure("nDCG@10", "nDCG(gain=fraction)@10")
    assert resolve("P(rel=2)@5").level == 2 and resolve("RR(rel=2)@3").max_docs == 3


def test_rel_levels_and_cutoffs_give_their_hand_worked_values() -> None:
    """Ranking of q: b(0) a(2) x(unjudged) c(1); of p: f(0) e(1). P(rel=2)@2: q 1/2, p 0 ->
    0.25; RR@1: both tops non-relevant -> 0; RR: q 1/2, p 1/2 -> 0.5; Judged@3: q 2/3, p 2/2."""
    names = ["P(rel=2)@2", "RR@1", "RR", "Judged@3"]
    values = evaluate(GRADES, SCORES, "articles", names).aggregate["run1"]
    assert values["P(rel=2)@2"] == 0.25 and values["RR@1"] == 0.0
    assert values["recip_rank"] == 0.5
    assert values["Judged@3"] == pytest.approx((2 / 3 + 1) / 2)


@pytest.mark.parametrize("name", ["P(rel=x)@5", "Judged@0", "nDCG(gain=grade)@10", "Nope@3"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises((UnknownMeasure, NotProvided)):
        resolve(name)


def _value(output: str, row: str) -> float:
    """The `all` value of `row` in any of the layouts (trec, tsv, json)."""
    if output.lstrip().startswith("["):
        return float(json.loads(output)[0]["all"][row])
    match = re.search(rf"^(?:\S+\t)?{re.escape(row)}\s*\tall\t(\S+)$", output, re.MULTILINE)
    assert match, output
    return float(match[1])


def test_no_output_format_changes_a_value() -> None:
    """`nDCG@10` is trec_eval's ndcg_cut.10 in inex, tsv, json and trec alike (named as typed
    but in trec_eval's layout, which `inex` means here); Focal's fraction-gain nDCG is asked
    for by its own name."""
    values = {}
    for layout in ("inex", "tsv", "json", "trec"):
        arguments = ["--task", "articles", "-m", "nDCG@10", "--format", layout, QRELS, RUN]
        result = CliRunner().invoke(eval_command, arguments)
        assert result.exit_code == 0, result.stderr
        row = "ndcg_cut_10" if layout in ("inex", "trec") else "nDCG@10"
        values[layout] = round(_value(result.stdout, row), 4)
    assert len(set(values.values())) == 1, values
    fraction = CliRunner().invoke(
        eval_command, ["--task", "articles", "-m", "nDCG(gain=fraction)@10", QRELS, RUN]
    )
    assert fraction.exit_code == 0 and "nDCG(gain=fraction)@10" in fraction.stdout
    refused = CliRunner().invoke(
        eval_command,
        ["--task", "articles", "-m", "nDCG(gain=fraction)@10", "--format", "trec", QRELS, RUN],
    )
    assert refused.exit_code == 2 and "relevant fraction" in refused.stderr


def test_the_listing_names_every_family_with_its_aliases() -> None:
    entries = {entry.name: entry for entry in listing()}
    assert entries["map"].aliases == "MAP AP"
    assert "Judged@k" in entries and "nDCG(gain=fraction)@k" in entries
    assert all(entry.definition and entry.reference for entry in entries.values())


def test_focal_measures_prints_the_registry() -> None:
    from focal.assessor.cli.main import main

    result = CliRunner().invoke(main, ["measures", "--format", "tsv"])
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    header = ["name", "aliases", "definition", "reference", "tasks"]
    assert result.exit_code == 0 and rows[0] == header
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["ndcg_cut"][1] == "nDCG@k" and "grade" in by_name["ndcg_cut"][2]
    assert "rel_chars / article_chars" in by_name["nDCG(gain=fraction)@k"][2]
    assert by_name["AiP"][3] == "Kamps et al. 2007" and "P@k (elements)" in by_name
