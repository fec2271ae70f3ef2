"""`focal eval --task elements`: element qrels (file or derived), runs, layouts and errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.eval.command import eval_command
from focal.evaluation.measures.elements.quantisation import QUANTISATIONS, scales

REPOSITORY = Path(__file__).resolve().parents[3]
DEMO = REPOSITORY / "demo"

# Article a: text "0123456789" (p[1]) + "abcdefghij" (p[2]) = 20 characters.
ARTICLE_A = "<article><p>0123456789</p><p>abcdefghij</p></article>"
ARTICLE_B = "<article><sec><p>xxxxxxxxxx</p></sec></article>"
# Topic 1: a p[1] fully highlighted, b not relevant. FOL qrels: 10 of 20 characters.
FOL_QRELS = "1 Q0 a 10 20 0 0:10\n1 Q0 b 0 10\n"
RUN = """\
1 Q0 a 1 3.0 mine /article[1]/p[1]
1 Q0 a 2 2.0 mine /article/p[2]
1 Q0 a 3 1.0 mine /article[1]
1 Q0 b 4 0.5 mine /article[1]/sec[1]
"""


def invoke(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(eval_command, ["--task", "elements", *arguments])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def case(tmp_path: Path) -> dict[str, str]:
    collection = tmp_path / "collection"
    collection.mkdir()
    (collection / "a.xml").write_text(ARTICLE_A, encoding="utf-8")
    (collection / "b.xml").write_text(ARTICLE_B, encoding="utf-8")
    (tmp_path / "fol.qrels").write_text(FOL_QRELS, encoding="utf-8")
    (tmp_path / "mine.run").write_text(RUN, encoding="utf-8")
    # The same judgements written as element qrels of the 2002-2004 scale by hand:
    # p[1] fully highlighted (3, 3); the article half (3, 2): s = 0.5 -> 2.
    (tmp_path / "grades.qrels").write_text(
        "1 a /article[1]/p[1] 3 3\n1 a /article[1] 3 2\n", encoding="utf-8"
    )
    return {
        "collection": str(collection),
        "fol": str(tmp_path / "fol.qrels"),
        "run": str(tmp_path / "mine.run"),
        "grades": str(tmp_path / "grades.qrels"),
    }


def rows(tsv: str) -> dict[tuple[str, str], str]:
    lines = tsv.splitlines()
    assert lines[0] == "run_id\tmeasure\ttopic\tvalue"
    return {(m, t): v for _, m, t, v in (line.split("\t") for line in lines[1:])}


def test_derived_qrels_give_hand_worked_values(case: dict[str, str]) -> None:
    # Derived (2006 scale -> four grades): article (e 3, s 0.5 -> 2), p[1] (3, 3); p[2] and b's
    # elements not highlighted: (0, 0). Generalised gains in rank order: p[1] 1, p[2] 0,
    # article 0.75, b sec 0. P@5 = 1.75 / 5 = 0.35. Overlap: the article holds p[1] and p[2];
    # at k = 5: 3 of 5 = 0.6 (b's sec alone).
    code, out, err = invoke(
        "-q", "--format", "tsv", "--collection", case["collection"], case["fol"], case["run"]
    )
    assert code == 0, err
    values = rows(out)
    assert values[("P@5", "1")] == "0.35" and values[("P@5", "all")] == "0.35"
    assert values[("overlap@5", "1")] == "0.6" and values[("overlap@10", "1")] == "0.3"
    assert values[("num_q", "all")] == "1"
    assert "s (0,0.33]->1" in err and "quantisation generalised" in err


def test_four_grade_file_equals_the_derivation(case: dict[str, str]) -> None:
    derived = invoke(
        "--format", "tsv", "--collection", case["collection"], case["fol"], case["run"]
    )
    direct = invoke("--format", "tsv", case["grades"], case["run"])
    assert derived[0] == direct[0] == 0 and derived[1] == direct[1]


def test_measure_selection_and_all_measures(case: dict[str, str]) -> None:
    code, out, err = invoke(
        "-q", "--format", "tsv", "--collection", case["collection"], "-m", "P@10", "-m",
        "inex_eval", "-m", "inex_eval_ng", "-m", "nxCG@k", "-m", "MAep", "--quant", "strict",
        case["fol"], case["run"],
    )  # fmt: skip
    assert code == 0, err
    values = rows(out)
    names = [m for m, t in values if t == "1"]
    assert names == ["P@10", "inex_eval", "inex_eval_ng", "nxCG@5", "nxCG@10", "nxCG@25",
                     "nxCG@50", "MAep"]  # fmt: skip
    # strict: only p[1] (3, 3) scores 1; it is first. inex_eval: N = 1, reached at rank 1
    # with nothing before: precall 1 at every level.
    assert values[("inex_eval", "1")] == "1.0"
    # ideal base [1]: nxCG@5 = 1; MAep = (1/1) / 1 = 1.
    assert values[("nxCG@5", "1")] == "1.0" and values[("MAep", "1")] == "1.0"
    # inex_eval_ng strict: e-part and s-part 1 for p[1] (e 3, s 3) only; total e = 1 + 1
    # (the article is e 3 too). recall_o after rank 1 = 1 * 10/10 / 2 = 0.5, precision_o 1:
    # levels 0.01..0.50 reach precision 1 -> mean at least 0.5.
    assert float(values[("inex_eval_ng", "1")]) >= 0.5


def test_inex_layout_and_json(case: dict[str, str]) -> None:
    code, out, _ = invoke("--collection", case["collection"], case["fol"], case["run"])
    assert code == 0 and out.startswith('<eval run-id="mine"') and "P@1500\t\tall\t" in out
    code, out, _ = invoke("--format", "json", "--quant", "sog", case["grades"], case["run"])
    assert code == 0 and '"quant": "sog"' in out


@pytest.mark.parametrize(
    "text, where",
    [
        ("1 a /article[1] 0 3\n", "grades.qrels:1:"),
        ("1 a /article[1] 3 3\n1 a /article[1] 3 3\n", "grades.qrels:2:"),
        ("1 a p[1] 3 3\n", "grades.qrels:1:"),
        ("1 a /article[1] 5 3\n", "grades.qrels:1:"),
    ],
)
def test_bad_qrels_is_one_line_and_exit_2(case: dict[str, str], text: str, where: str) -> None:
    Path(case["grades"]).write_text(text, encoding="utf-8")
    code, out, err = invoke(case["grades"], case["run"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and where in err and "Traceback" not in err


def test_a_run_path_missing_from_its_article(case: dict[str, str]) -> None:
    Path(case["run"]).write_text(RUN + "1 Q0 a 5 0.1 mine /article[1]/p[3]\n", encoding="utf-8")
    code, out, err = invoke("--collection", case["collection"], case["fol"], case["run"])
    assert code == 2 and out == ""
    assert re.search(r"mine\.run:5: no element /article\[1\]/p\[3\] in article a", err)


def test_refusals(case: dict[str, str]) -> None:
    code, _, err = invoke("--quant", "nonsense", case["grades"], case["run"])
    assert code == 2 and "unknown quantisation" in err
    code, _, err = invoke("--quant", "gen5", case["grades"], case["run"])
    assert code == 2 and "gen5 is defined on the INEX 2005 scale only" in err
    assert "four-grade scale" in err and err.count("\n") == 1
    code, _, err = invoke("-m", "inex_eval_ng", case["grades"], case["run"])
    assert code == 2 and "--collection" in err
    code, _, err = invoke(case["fol"], case["run"])
    assert code == 2 and "--collection" in err


def test_demo_element_run_under_every_quantisation() -> None:
    """Done when: the demo's element run against element qrels derived from its highlights."""
    run = str(DEMO / "element-runs" / "bm25-element-paths.run")
    for quant in QUANTISATIONS:
        code, out, err = invoke(
            "--format", "tsv", "--quant", quant, "--collection", str(DEMO / "collection"),
            str(DEMO / "qrels" / "demo.qrels"), run,
        )  # fmt: skip
        assert code == 0, (quant, err)
        values = rows(out)
        for k in (5, 10, 20, 30, 100, 200, 1500):
            assert 0.0 <= float(values[(f"P@{k}", "all")]) <= 1.0
            assert 0.0 <= float(values[(f"overlap@{k}", "all")]) <= 1.0
        assert values[("num_q", "all")] == "5"
        # the demo's highlights make the top of the run relevant under the lenient functions
        if quant in ("generalised", "liberal", "anyrel", "binexh"):
            assert float(values[("P@5", "all")]) > 0.5, quant
        assert set(scales(quant)) <= {"2004", "2005"}


SUBMISSION = """\
<inex-submission participant-id="1" run-id="mine" task="CO" result-type="element">
  <topic topic-id="1">
    <result><file>a</file><path>/article[1]/p[1]</path><rank>1</rank><rsv>3.0</rsv></result>
    <result><file>a</file><path>/article/p[2]</path><rank>2</rank><rsv>2.0</rsv></result>
    <result><file>a</file><path>/article[1]</path><rank>3</rank><rsv>1.0</rsv></result>
    <result><file>b</file><path>/article[1]/sec[1]</path><rank>4</rank><rsv>0.5</rsv></result>
  </topic>
</inex-submission>
"""


def test_an_xml_submission_with_paths_scores_like_the_text_run(
    case: dict[str, str], tmp_path: Path
) -> None:
    xml = tmp_path / "mine.xml"
    xml.write_text(SUBMISSION, encoding="utf-8")
    text = invoke("-q", "--format", "tsv", case["grades"], case["run"])
    submitted = invoke("-q", "--format", "tsv", case["grades"], str(xml))
    assert text[0] == submitted[0] == 0 and text[1] == submitted[1]


def test_passage_only_options_are_refused(case: dict[str, str], tmp_path: Path) -> None:
    code, _, err = invoke("--plot", str(tmp_path / "p.svg"), case["grades"], case["run"])
    assert code == 2 and "--plot" in err


def test_unanswered_qrels_topics_score_zero_and_unknown_run_topics_are_noted(
    case: dict[str, str],
) -> None:
    # Topic 2 is in the qrels, not in the run: it scores 0 and counts in the mean. Topic 9 is
    # in the run, not in the qrels: ignored and noted. Topic 1 (generalised): p[1] (3,3) = 1,
    # p[2] 0, article (3,2) = 0.75, b 0: P@5 = 0.35; the mean over 2 topics is 0.175.
    Path(case["grades"]).write_text(
        "1 a /article[1]/p[1] 3 3\n1 a /article[1] 3 2\n2 z /article[1] 1 1\n", encoding="utf-8"
    )
    Path(case["run"]).write_text(RUN + "9 Q0 a 1 1.0 mine /article[1]\n", encoding="utf-8")
    code, out, err = invoke("-q", "--format", "tsv", case["grades"], case["run"])
    assert code == 0, err
    values = rows(out)
    assert values[("P@5", "1")] == "0.35" and values[("P@5", "2")] == "0.0"
    assert values[("P@5", "all")] == "0.175" and values[("num_q", "all")] == "2"
    assert "absent from the qrels (ignored): 9" in err
    assert "averaged over all 2 qrels topics" in err


def test_anyrel_on_the_four_grade_scale(case: dict[str, str]) -> None:
    # seed 000 Table 1: Any Rel is 1 for e > 0 and s > 0. The run's p[1] (3, 3) and /article[1]
    # (3, 2) count 1, p[2] and b's sec[1] are not assessed: P@5 = 2/5.
    code, out, err = invoke("--quant", "anyrel", "--format", "tsv", case["grades"], case["run"])
    assert code == 0, err
    assert float(rows(out)[("P@5", "all")]) == 0.4


def test_the_stderr_header_names_the_mapping_only_when_it_is_used(case: dict[str, str]) -> None:
    base = ("--collection", case["collection"], case["fol"], case["run"])
    for quant, mapped in (("generalised", True), ("gen5", False), ("anyrel", False)):
        code, _, err = invoke("--quant", quant, *base)
        assert code == 0, err
        assert ("four-grade scale" in err) is mapped, (quant, err)
        assert f"quantisation {quant}" in err
    code, _, err = invoke("--quant", "anyrel", case["grades"], case["run"])
    assert code == 0 and "four-grade scale" not in err


def test_element_options_are_refused_for_other_tasks(case: dict[str, str]) -> None:
    for option in (("--quant", "gen5"), ("--alpha", "0.5"), ("--ties", "rank"),
                   ("--nonrel", "complement"), ("--collection", case["collection"]),
                   ("--parts", "equal")):  # fmt: skip
        result = CliRunner().invoke(eval_command, ["--task", "focused", *option, case["fol"],
                                                   case["run"]])  # fmt: skip
        assert result.exit_code == 2 and "are for --task elements" in result.stderr, option


def test_parts_equal_weighs_the_children_alike(case: dict[str, str]) -> None:
    # FOL qrels carry sizes: --parts size and --parts equal may differ only in XCG's
    # seen-in-part gains; P@k is the same either way
    base = ("--format", "tsv", "-m", "MAep", "-m", "P@5", "--collection", case["collection"],
            case["fol"], case["run"])  # fmt: skip
    sized, equal = (rows(invoke("--parts", p, *base)[1]) for p in ("size", "equal"))
    assert sized[("P@5", "all")] == equal[("P@5", "all")]
    assert 0.0 <= float(sized[("MAep", "all")]) <= 1.0 and 0.0 <= float(equal[("MAep", "all")]) <= 1


def test_the_element_layout_prints_doubles_at_a_tables_precision() -> None:
    """The `<eval>` layout of task elements rounds to 4 decimals (no `0.9199999999999999`);
    tsv keeps every digit, and the two agree."""
    from focal.assessor.cli.main import main

    demo = Path(__file__).resolve().parents[3] / "demo"
    files = ["--collection", str(demo / "collection"), str(demo / "qrels" / "demo.qrels"),
             str(demo / "element-runs" / "bm25-element-paths.run")]  # fmt: skip
    shown = CliRunner().invoke(main, ["eval", "--task", "elements", *files])
    full = CliRunner().invoke(main, ["eval", "--task", "elements", "--format", "tsv", *files])
    assert shown.exit_code == 0 and full.exit_code == 0, shown.output
    rows = [line.split("\t") for line in shown.stdout.splitlines() if "\tall\t" in line]
    exact = {r[1]: r[3] for r in (line.split("\t") for line in full.stdout.splitlines()[1:])}
    assert len(rows) > 5
    for *name, value in rows:
        assert value.isdigit() or re.fullmatch(r"\d+\.\d{4}", value), (name, value)
        assert float(value) == pytest.approx(float(exact[name[0]]), abs=5e-5)
