"""`focal compare` in-process: the three layouts, runs or --scores, pairing by topic, the plot,
Sakai's curve, the agreement form, and bad input (one line on stderr, exit 2, stdout empty)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats
from statsmodels.stats.multitest import multipletests

from focal.assessor.cli.main import main
from focal.evaluation.cli.compare_report import EFFECT_COLUMNS, TSV_HEADER

from ...conftest import shared_path

# Five topics, one relevant article each (characters 0-99 of 1000).
QRELS = "".join(f"{t} Q0 a{t} 100 1000 0 0:100\n" for t in range(1, 6))


def run_file(folder: Path, name: str, lengths: dict[int, int]) -> str:
    """A FOL run returning the first `length` characters of each topic's relevant article:
    precision 100/length (or 1), recall 1 (or length/100)."""
    lines = [f"{t} Q0 a{t} 1 1.0 {name} 0 {n}\n" for t, n in lengths.items()]
    path = folder / f"{name}.run"
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    qrels = tmp_path / "q.qrels"
    qrels.write_text(QRELS, encoding="utf-8")
    return [
        str(qrels),
        run_file(tmp_path, "best", {1: 100, 2: 100, 3: 110, 4: 100, 5: 120}),
        run_file(tmp_path, "good", {1: 150, 2: 200, 3: 130, 4: 180, 5: 160}),
        run_file(tmp_path, "poor", {1: 400, 2: 900, 3: 300, 4: 800, 5: 500}),
    ]


def invoke(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["compare", *arguments])
    return result.exit_code, result.stdout, result.stderr


def scores_file(tmp_path: Path, files: list[str], *options: str) -> str:
    result = CliRunner().invoke(main, ["eval", "-q", "--format", "tsv", *options, *files])
    assert result.exit_code == 0
    path = tmp_path / "scores.tsv"
    path.write_text(result.stdout, encoding="utf-8")
    return str(path)


def test_text_is_the_significance_matrix_by_mean(files: list[str]) -> None:
    code, out, err = invoke("--test", "t", *files)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("# AiP: t test (two-sided), correction none, alpha 0.05")
    rows = [line.split() for line in lines[2:5]]
    assert [row[1] for row in rows] == ["best", "good", "poor"]  # by decreasing mean
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert [rows[n][3 + n] for n in range(3)] == [".", ".", "."]  # the diagonal
    assert all(mark in "*-." for row in rows for mark in row[3:])
    assert "AiP: paired on the 5 topics every run answers" in err
    assert "best: answered 5 of 5 topics" in err


def test_tsv_rows_are_the_pairs_in_the_given_order(files: list[str]) -> None:
    code, out, _ = invoke("--format", "tsv", "--correction", "holm", files[0], *files[3:0:-1])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "\t".join((TSV_HEADER, *EFFECT_COLUMNS))
    spec = "run_a\trun_b\tmean_a\tmean_b\tdiff\tstatistic\tp\tp_adjusted\tsignificant"
    assert lines[0].startswith(spec + "\t")  # spec section 8's columns first, as they were
    pairs = [tuple(line.split("\t")[:2]) for line in lines[1:]]
    assert pairs == [("poor", "good"), ("poor", "best"), ("good", "best")]
    for line in lines[1:]:
        fields = line.split("\t")
        mean_a, mean_b, diff, _, p, adjusted = map(float, fields[2:8])
        assert diff == pytest.approx(mean_a - mean_b, abs=1e-15)
        assert adjusted >= p and fields[8] == str(adjusted < 0.05).lower()


def test_scores_give_what_the_runs_give(tmp_path: Path, files: list[str]) -> None:
    scores = scores_file(tmp_path, files)
    from_runs = invoke("--format", "tsv", "--test", "wilcoxon", *files)
    from_scores = invoke("--format", "tsv", "--test", "wilcoxon", "--scores", scores)
    assert from_runs[0] == from_scores[0] == 0
    assert from_runs[1] == from_scores[1]


def test_json_and_resampling_with_a_seed_are_reproducible(files: list[str]) -> None:
    first = invoke(
        "--format", "json", "--test", "bootstrap", "--seed", "3", "--samples", "500", *files
    )
    second = invoke(
        "--format", "json", "--test", "bootstrap", "--seed", "3", "--samples", "500", *files
    )
    assert first[0] == 0 and first[1] == second[1]
    document = json.loads(first[1])
    assert document["test"] == "bootstrap" and document["measure"] == "AiP"
    assert [r["run_id"] for r in document["runs"]] == ["best", "good", "poor"]
    assert len(document["pairs"]) == 3 and "resampling seed 3, 500 samples" in first[2]


def test_common_topics_by_default_every_qrels_topic_with_c(
    tmp_path: Path, files: list[str]
) -> None:
    partial = run_file(tmp_path, "partial", {1: 100, 2: 100, 3: 100})
    for switches in ([], ["--common-topics"]):  # the topics every run answered: the default
        code, out, err = invoke(*switches, "--format", "json", *files[:3], partial)
        assert code == 0 and "paired on the 3 topics every run answers; 2 dropped" in err
        assert json.loads(out)["dropped_topics"] == ["4", "5"]
    for switches in (["-c"], ["--complete"]):
        code, out, err = invoke(*switches, "--format", "json", *files[:3], partial)
        document = json.loads(out)
        assert code == 0 and len(document["topics"]) == 5 and document["dropped_topics"] == []
        assert "partial: answered 3 of 5 topics" in err
    # partial scores AiP 1 on its 3 topics and 0 on the two it misses
    assert document["runs"][2]["mean"] == pytest.approx(3 / 5)


def test_task_default_measure_and_another_measure(files: list[str]) -> None:
    code, out, _ = invoke("--task", "ric", *files)
    assert code == 0 and out.startswith("# AgP:")
    code, out, _ = invoke("-m", "char_prec", *files)
    assert code == 0 and out.startswith("# char_prec:")
    code, out, _ = invoke("--task", "articles", *files)
    assert code == 0 and out.startswith("# MAP:")
    code, out, _ = invoke("--task", "articles", "-m", "P@5", "--format", "json", *files)
    # every run returns the one relevant article of each topic at rank 1: P@5 = 1/5
    assert code == 0 and [r["mean"] for r in json.loads(out)["runs"]] == [0.2, 0.2, 0.2]


def test_plot_and_sakai_curve(tmp_path: Path, files: list[str]) -> None:
    plot, curve = tmp_path / "p.svg", tmp_path / "asl.tsv"
    code, out, _ = invoke(
        "--test", "sakai", "--seed", "1", "--samples", "300", "--plot", str(plot),
        "--curve", str(curve), *files,
    )  # fmt: skip
    assert code == 0 and plot.read_text().startswith("<?xml")
    rows = curve.read_text().splitlines()
    assert rows[0] == "rank\trun_a\trun_b\tasl" and len(rows) == 4
    asl = [float(row.split("\t")[3]) for row in rows[1:]]
    assert asl == sorted(asl)
    assert "# discriminative power:" in out and "of 3 pairs" in out


def test_agreement_of_two_measures_and_of_two_files(tmp_path: Path, files: list[str]) -> None:
    scores = scores_file(tmp_path, files)
    code, out, _ = invoke("agreement", "--scores", scores, "--scores", scores, "--format", "tsv")
    assert code == 0
    header, row = out.splitlines()
    values = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert values["precision"] == values["recall"] == values["f1"] == "1.0"
    code, out, _ = invoke(
        "agreement", "--scores", scores, "-m", "AiP,char_prec", "--format", "json"
    )
    document = json.loads(out)
    assert code == 0 and document["y"].endswith("char_prec")
    both = document["both"]
    if document["significant_x"]:
        assert document["precision"] == both / document["significant_x"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-m", "AgP"], "task focused has no per-topic measure AgP"),
        (["--task", "articles", "-m", "MAPX"], "MAPX"),
    ],
)
def test_a_measure_the_task_does_not_produce(
    files: list[str], arguments: list[str], message: str
) -> None:
    code, out, err = invoke(*arguments, *files)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_bad_scores_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("run_id\tmeasure\ttopic\tvalue\nr1\tAiP\t1\t0.5\nr2\tAiP\t1\n", encoding="utf-8")
    code, out, err = invoke("--scores", str(bad))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"focal compare: {bad}:3: expected 4 fields (run_id measure topic value), found 3"
    ]


def test_runs_with_no_topic_in_common(tmp_path: Path, files: list[str]) -> None:
    one = run_file(tmp_path, "one", {1: 100})
    two = run_file(tmp_path, "two", {2: 100})
    code, out, err = invoke("--common-topics", files[0], one, two)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "the runs have no topic in common" in err and one in err


def test_agreement_with_a_bad_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("r1\tAiP\t1\t0.5\nr1\tAiP\t1\t0.5\n", encoding="utf-8")
    code, out, err = invoke("agreement", "--scores", str(bad), "--scores", str(bad))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{bad}:2: duplicate row" in err


@pytest.fixture(scope="module")
def shared_scores(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = shared_path("inex2010")
    names = ("indri-passages", "indri-passages-b", "bert-passages", "bert-passages-half")
    runs = [str(folder / "runs" / f"{n}.fol.run") for n in names]
    result = CliRunner().invoke(
        main, ["eval", "-q", "-c", "--format", "tsv", str(folder / "inex2010.qrels"), *runs]
    )
    assert result.exit_code == 0
    path = tmp_path_factory.mktemp("shared") / "scores.tsv"
    path.write_text(result.stdout, encoding="utf-8")
    return str(path)


def scipy_p(test: str, matrix: np.ndarray) -> np.ndarray:
    if test == "tukey":  # scipy's studentized range on the two-way ANOVA residual mean square
        t, k = matrix.shape
        residuals = matrix - matrix.mean(1, keepdims=True) - matrix.mean(0) + matrix.mean()
        mse = (residuals**2).sum() / ((t - 1) * (k - 1))
        q = [
            abs(matrix[:, i].mean() - matrix[:, j].mean()) / np.sqrt(mse / t)
            for i, j in combinations(range(k), 2)
        ]
        return stats.studentized_range.sf(q, k, (t - 1) * (k - 1))
    values = []
    for i, j in combinations(range(matrix.shape[1]), 2):
        a, b = matrix[:, i], matrix[:, j]
        if test == "t":
            values.append(stats.ttest_rel(a, b).pvalue)
        elif test == "wilcoxon":
            values.append(stats.wilcoxon(a, b, zero_method="wilcox", correction=False).pvalue)
        else:
            plus, minus = int((a > b).sum()), int((a < b).sum())
            values.append(stats.binomtest(plus, plus + minus).pvalue)
    return np.array(values)


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "tukey"])
@pytest.mark.parametrize("correction", ["none", "bonferroni", "holm", "bh", "by"])
def test_shared_runs_tsv_p_values_equal_scipy(
    shared_scores: str, test: str, correction: str
) -> None:
    code, out, _ = invoke(
        "--format",
        "tsv",
        "-c",
        "--test",
        test,
        "--correction",
        correction,
        "--scores",
        shared_scores,
    )
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    from focal.evaluation.formats.scores import read_scores

    values = read_scores([shared_scores]).of_measure("AiP")
    runs = list(values)
    topics = list(values[runs[0]])
    matrix = np.array([[values[r][t] for r in runs] for t in topics])
    expected = scipy_p(test, matrix)
    assert [(r[0], r[1]) for r in rows] == list(combinations(runs, 2))
    assert [float(r[6]) for r in rows] == pytest.approx(expected.tolist(), abs=1e-12)
    method = {"bh": "fdr_bh", "by": "fdr_by"}.get(correction, correction)
    adjusted = expected if correction == "none" else multipletests(expected, method=method)[1]
    assert [float(r[7]) for r in rows] == pytest.approx(adjusted.tolist(), abs=1e-12)


def test_agreement_form_works_on_the_command_itself_and_has_its_own_usage(
    tmp_path: Path, files: list[str]
) -> None:
    from focal.evaluation.cli.compare import compare_command

    scores = scores_file(tmp_path, files)
    direct = CliRunner().invoke(
        compare_command, ["agreement", "--scores", scores, "-m", "AiP,char_prec"]
    )
    through_focal = invoke("agreement", "--scores", scores, "-m", "AiP,char_prec")
    assert direct.exit_code == 0 and direct.stdout == through_focal[1]
    assert "precision:" in direct.stdout
    code, out, _ = invoke("agreement", "--help")
    # CliRunner names the program "main"; the installed script says "focal"
    assert code == 0 and out.splitlines()[0].endswith(" compare agreement [OPTIONS]")


def test_agreement_needs_the_same_runs(tmp_path: Path, files: list[str]) -> None:
    whole = scores_file(tmp_path, files)
    fewer = tmp_path / "fewer.tsv"
    lines = Path(whole).read_text().splitlines(keepends=True)
    fewer.write_text("".join(line for line in lines if not line.startswith("poor")))
    code, out, err = invoke("agreement", "--scores", whole, "--scores", str(fewer))
    assert code == 2 and out == "" and "must compare the same runs (not: poor)" in err


def test_a_plot_file_must_be_png_or_svg(tmp_path: Path, files: list[str]) -> None:
    code, out, err = invoke("--plot", str(tmp_path / "p.pdf"), *files)
    assert code == 2 and out == "" and "--plot FILE must end in .png or .svg" in err
    assert not (tmp_path / "p.pdf").exists()


def test_trec_qrels_and_every_measure_name_as_focal_eval(tmp_path: Path) -> None:
    """`-m AP` (ir_measures' name) on TREC qrels, every qrels topic counted: worked by hand,
    run a ranks the relevant document first on topics 1 and 2 (AP 1, 1) and misses topic 3
    (0); run b ranks it second on topic 1 (AP 1/2) and first on 2 and 3."""
    (tmp_path / "q").write_text("1 0 r 1\n1 0 n 0\n2 0 r 1\n3 0 r 1\n", encoding="utf-8")
    (tmp_path / "a").write_text("1 Q0 r 1 2 a\n1 Q0 n 2 1 a\n2 Q0 r 1 1 a\n", encoding="utf-8")
    lines = "1 Q0 n 1 2 b\n1 Q0 r 2 1 b\n2 Q0 r 1 1 b\n3 Q0 r 1 1 b\n"
    (tmp_path / "b").write_text(lines, encoding="utf-8")
    paths = [str(tmp_path / name) for name in ("q", "a", "b")]
    code, out, err = invoke("--task", "articles", "-c", "-m", "AP", "--format", "json", *paths)
    assert code == 0, err
    means = [run["mean"] for run in json.loads(out)["runs"]]
    assert means == [pytest.approx(2 / 3), pytest.approx(2.5 / 3)]
    assert "a: answered 2 of 3 topics" in err and "b: answered 3 of 3 topics" in err


def test_scores_answer_to_every_spelling_of_their_rows(tmp_path: Path) -> None:
    """Scores printed as `map` rows are compared under `-m AP` (ir_measures' name) too."""
    scores = tmp_path / "scores.tsv"
    rows = ["run_id\tmeasure\ttopic\tvalue"]
    rows += [f"{run}\tmap\t{topic}\t{value}" for run, topic, value in
             [("a", 1, 1.0), ("a", 2, 0.5), ("b", 1, 0.5), ("b", 2, 0.25)]]  # fmt: skip
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = invoke("--format", "json", "--scores", str(scores), "-m", "AP")
    assert code == 0, err
    assert [run["mean"] for run in json.loads(out)["runs"]] == [0.75, 0.375]
