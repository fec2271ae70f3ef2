"""The BM25 baseline: scores derived by hand from the formula, ranking, ties, overlap, the CLI."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.baseline.bm25 import (
    Bm25Params,
    ScoredUnit,
    bm25_run,
    query_terms,
    remove_overlap,
    tokenize,
    unit_spans,
)
from focal.evaluation.cli.baseline import baseline
from focal.evaluation.formats.records import Topic
from focal.evaluation.text.document import Document


def topic(topic_id: str, title: str, description: str = "unused") -> Topic:
    return Topic(topic_id, None, title, "", "", description, "")


def doc(doc_id: str, xml: str) -> Document:
    return Document.from_bytes(xml.encode("utf-8"), doc_id)


# Three articles: lengths 3, 2 and 4 tokens, so N = 3 and the average length is 3.
TOY = [
    doc("d1", "<article><p>cat cat dog</p></article>"),
    doc("d2", "<article><p>cat fish</p></article>"),
    doc("d3", "<article><p>bird fish fish bird</p></article>"),
]


def scores(run_topics: dict[str, list[object]], topic_id: str) -> dict[str, float]:
    return {r.article: r.score for r in run_topics[topic_id]}  # type: ignore[attr-defined]


def test_bm25_matches_the_formula_worked_by_hand() -> None:
    # "cat" is in 2 of 3 articles: idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6).
    # d1: tf 2, length 3 = average, so K = k1 = 1.2: 2 * 2.2 / (2 + 1.2) = 4.4 / 3.2.
    # d2: tf 1, length 2: K = 1.2 * (0.25 + 0.75 * 2/3) = 0.9: 1 * 2.2 / 1.9.
    run = bm25_run(TOY, [topic("1", "cat")], "article")
    assert scores(run.topics, "1") == {
        "d1": pytest.approx(math.log(1.6) * 4.4 / 3.2, abs=1e-6),
        "d2": pytest.approx(math.log(1.6) * 2.2 / 1.9, abs=1e-6),
    }
    assert [r.article for r in run.topics["1"]] == ["d1", "d2"]


def test_two_term_query_sums_the_terms_and_ranks_by_score() -> None:
    # "fish" is also in 2 of 3 articles (idf ln 1.6). d3: tf 2, length 4:
    # K = 1.2 * (0.25 + 0.75 * 4/3) = 1.5, so 2 * 2.2 / 3.5.
    run = bm25_run(TOY, [topic("1", "the cat and a fish")], "article")
    expected = {
        "d1": math.log(1.6) * 4.4 / 3.2,  # 0.646
        "d2": 2 * math.log(1.6) * 2.2 / 1.9,  # 1.088, cat and fish once each
        "d3": math.log(1.6) * 4.4 / 3.5,  # 0.591
    }
    assert scores(run.topics, "1") == pytest.approx(expected, abs=1e-6)
    assert [r.article for r in run.topics["1"]] == ["d2", "d1", "d3"]
    assert [r.rank for r in run.topics["1"]] == [1, 2, 3]


def test_parameters_change_the_score_as_the_formula_says() -> None:
    # b = 0 switches length normalisation off: d2 gets tf 1 -> 1 * (k1 + 1) / (1 + k1).
    run = bm25_run(TOY, [topic("1", "cat")], "article", Bm25Params(k1=2.0, b=0.0))
    assert scores(run.topics, "1")["d2"] == pytest.approx(math.log(1.6), abs=1e-6)
    assert scores(run.topics, "1")["d1"] == pytest.approx(math.log(1.6) * 2 * 3 / 4, abs=1e-6)
    with pytest.raises(ValueError, match="b <= 1"):
        Bm25Params(b=1.5)


def test_article_fol_results_cover_the_whole_text() -> None:
    run = bm25_run(TOY, [topic("1", "dog")], "article")
    (result,) = run.topics["1"]
    assert (result.article, result.start, result.length) == ("d1", 0, len(TOY[0].text))


def test_ties_are_broken_by_article_then_offset() -> None:
    twins = [doc("b", "<article><p>moon</p></article>"), doc("a", "<article><p>moon</p></article>")]
    run = bm25_run(twins, [topic("1", "moon")], "article")
    assert [r.article for r in run.topics["1"]] == ["a", "b"]
    same = doc("x", "<article><p>tide</p> <p>tide</p></article>")
    run = bm25_run([same], [topic("1", "tide")], "element", element_tags={"p"})
    assert [r.start for r in run.topics["1"]] == [0, 5]


def test_focused_element_runs_keep_the_better_of_nested_elements() -> None:
    # The short p is all "lava"; its sec is diluted by other words, so the p outranks the sec.
    article = doc(
        "v",
        "<article><sec><p>lava lava</p> <p>ash rock stone dust</p></sec> <p>lava sea</p></article>",
    )
    focused = bm25_run([article], [topic("1", "lava")], "element", element_tags={"sec", "p"})
    spans = [(r.start, r.start + r.length) for r in focused.topics["1"]]
    assert spans[0] == article.span("/article[1]/sec[1]/p[1]")
    assert article.span("/article[1]/sec[1]") not in spans
    assert article.span("/article[1]/p[1]") in spans
    for i, (start, end) in enumerate(spans):
        assert all(end <= s or e <= start for s, e in spans[i + 1 :])
    thorough = bm25_run(
        [article], [topic("1", "lava")], "element", element_tags={"sec", "p"}, focused=False
    )
    assert article.span("/article[1]/sec[1]") in [
        (r.start, r.start + r.length) for r in thorough.topics["1"]
    ]


def test_remove_overlap_only_compares_units_of_one_article() -> None:
    units = [
        ScoredUnit("a", 0, 10, 5.0, 0),
        ScoredUnit("b", 0, 10, 4.0, 1),
        ScoredUnit("a", 9, 12, 3.0, 2),  # shares character 9 with the first: dropped
        ScoredUnit("a", 10, 12, 2.0, 3),  # touches it only: kept
    ]
    assert [u.order for u in remove_overlap(units)] == [0, 1, 3]


def test_max_results_and_article_output() -> None:
    run = bm25_run(TOY, [topic("1", "cat fish")], "element", max_results=2, output="article")
    assert run.kind == "article"
    assert [r.article for r in run.topics["1"]] == ["d2", "d1"]
    assert all(r.start is None for r in run.topics["1"])


def test_query_field_can_be_the_description() -> None:
    run = bm25_run(TOY, [topic("1", "zebra", description="bird")], "article", field="description")
    assert [r.article for r in run.topics["1"]] == ["d3"]
    assert bm25_run(TOY, [topic("1", "zebra")], "article").topics["1"] == []


def test_tokenizer_lowercases_splits_and_drops_stop_words() -> None:
    assert tokenize("The ʻAʻā flow_2 of 1958") == [
        ("ʻaʻā", 4, 8),
        ("flow", 9, 13),
        ("2", 14, 15),
        ("1958", 19, 23),
    ]
    assert query_terms("Lens lens LENS optics") == ["lens", "optics"]


def test_passage_windows_overlap_by_half_and_reach_the_last_token() -> None:
    text = "t0 t1 t2 t3 t4 t5 t6"  # token i starts at 3 * i
    spans = unit_spans(doc("p", f"<a>{text}</a>"), "passage", window=4)
    # windows of 4 tokens every 2 tokens: 0-3, 2-5, then one ending at the last token: 3-6
    assert spans == [(0, 11), (6, 17), (9, 20)]
    assert unit_spans(doc("q", "<a>one two</a>"), "passage", window=4) == [(0, 7)]
    assert unit_spans(doc("e", "<a> , </a>"), "passage") == []


def write_toy_collection(directory: Path) -> tuple[Path, Path]:
    collection = directory / "collection"
    collection.mkdir()
    for document, body in [("11", "cat cat dog"), ("12", "cat fish"), ("13", "bird fish")]:
        (collection / f"{document}.xml").write_text(
            f"<article><sec><p>{body}</p></sec></article>", encoding="utf-8"
        )
    topics = directory / "topics.xml"
    topics.write_text(
        '<inex-topic-file><topic id="7" ct_no="1"><title>cat</title>'
        "<description>d</description><narrative>n</narrative></topic></inex-topic-file>",
        encoding="utf-8",
    )
    return collection, topics


def test_cli_writes_fol_and_article_runs(tmp_path: Path) -> None:
    collection, topics = write_toy_collection(tmp_path)
    args = ["--collection", str(collection), "--topics", str(topics)]
    fol = CliRunner().invoke(baseline, [*args, "--unit", "element", "--run-id", "toy"])
    assert fol.exit_code == 0, fol.output
    lines = [line.split() for line in fol.stdout.splitlines()]
    assert [line[0:4] for line in lines] == [["7", "Q0", "11", "1"], ["7", "Q0", "12", "2"]]
    assert all(len(line) == 8 and line[5] == "toy" for line in lines)
    articles = CliRunner().invoke(baseline, [*args, "--format", "article", "--max", "1"])
    assert articles.exit_code == 0
    fields = articles.stdout.split()
    assert len(fields) == 6
    assert fields[:4] == ["7", "Q0", "11", "1"]
    assert fields[5] == "bm25-article"


def test_cli_reports_a_broken_document_in_one_line(tmp_path: Path) -> None:
    collection, topics = write_toy_collection(tmp_path)
    (collection / "14.xml").write_text("<article><p>unclosed</article>", encoding="utf-8")
    outcome = CliRunner().invoke(
        baseline, ["--collection", str(collection), "--topics", str(topics)]
    )
    assert outcome.exit_code == 2
    assert outcome.stdout == ""
    assert len(outcome.stderr.strip().splitlines()) == 1
    assert "14.xml" in outcome.stderr


def test_cli_is_reachable_through_focal() -> None:
    from focal.assessor.cli.main import main

    outcome = CliRunner().invoke(main, ["baseline", "--help"])
    assert outcome.exit_code == 0
    assert "--unit" in outcome.stdout
