"""`focal reliability ... --task elements` on the demo's element run: each study goes through
`focal eval --task elements`'s evaluation (element qrels derived from the demo's FOL qrels and
collection), without `--scores`. A study ranks at least three runs, so the demo's run comes with
two made from it: its results reversed within each topic, and every other result."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main
from focal.evaluation.measures.elements.topic import ElementOptions
from focal.evaluation.running.elements import element_values
from focal.reliability.api import study_setup

DEMO = Path(__file__).resolve().parents[2] / "demo"
QRELS = str(DEMO / "qrels" / "demo.qrels")
COLLECTION = str(DEMO / "collection")

Order = Callable[[list[list[str]]], list[list[str]]]
VARIANTS: dict[str, Order] = {
    "base": lambda rows: rows,
    "reversed": lambda rows: rows[::-1],
    "odd": lambda rows: rows[::2],
}


def element_runs(folder: Path) -> list[str]:
    """The demo's element run and two variants, each with its own run id."""
    source = DEMO / "element-runs" / "bm25-element-paths.run"
    by_topic: dict[str, list[list[str]]] = defaultdict(list)
    for line in source.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        by_topic[fields[0]].append(fields)
    paths = []
    for name, order in VARIANTS.items():
        lines = [
            " ".join([f[0], f[1], f[2], str(rank), str(1000 - rank), name, *f[6:]])
            for rows in by_topic.values()
            for rank, f in enumerate(order(rows), start=1)
        ]
        path = folder / f"{name}.run"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return element_runs(tmp_path_factory.mktemp("element-runs"))


def reliability(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["reliability", *arguments])
    return result.exit_code, result.stdout, result.stderr


ELEMENT = ("--task", "elements", "--collection", COLLECTION, "--quant", "gen5", "-j", "1")


def table(out: str, title: str) -> list[dict[str, str]]:
    """The rows of the text table headed `# title`."""
    lines = out.splitlines()
    start = lines.index(f"# {title}") + 1
    header = lines[start].split()
    rows = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.startswith("#") or ": " in line:  # ": ": the legend line
            break
        rows.append(dict(zip(header, line.split(), strict=True)))
    return rows


def test_the_full_scores_are_focal_evals(runs: list[str]) -> None:
    # the study's reference matrix holds the values `focal eval --task elements -q` prints
    setup = study_setup(QRELS, runs, "elements", None, quant="gen5", collection=COLLECTION)
    assert setup.measure == "MAep"
    matrix = setup.score(setup.qrels)
    values, topics, _ = element_values(QRELS, runs, "MAep", ElementOptions(quant="gen5"),
                                       COLLECTION)  # fmt: skip
    assert list(matrix.topics) == topics
    for row, run in enumerate(matrix.runs):
        assert matrix.values[row].tolist() == [values[run][t] for t in topics]
    assert matrix.values[0].sum() > 0  # the demo's run finds relevant elements


def test_sample(runs: list[str]) -> None:
    code, out, err = reliability("sample", "--fractions", "100,50", "--repeats", "2", *ELEMENT,
                                 QRELS, *runs)  # fmt: skip
    assert code == 0, err
    rows = table(out, "sample MAep")
    # keeping every relevant article changes nothing: the same ranking, the same scores
    assert rows[0]["percent"] == "100" and float(rows[0]["tau_mean"]) == 1.0
    assert float(rows[0]["change_mean"]) == 0.0
    assert len(rows) == 2


def test_depth(runs: list[str]) -> None:
    code, out, err = reliability("depth", "--depths", "1,1000", *ELEMENT, QRELS, *runs)
    assert code == 0, err
    rows = table(out, "depth MAep")
    # a depth-1 pool judges fewer articles than the depth-1000 one, which pools every article
    # the runs return; these hold all 24 relevant articles of the demo's five topics (4 + 4 +
    # 6 + 4 + 6, demo/README.md), so the ideal vectors and the scores stay as they were
    assert int(rows[0]["judged"]) < int(rows[1]["judged"])
    assert int(rows[1]["relevant"]) == 24 and float(rows[1]["change"]) == 0.0
    assert float(rows[0]["change"]) != 0.0


def test_topics(runs: list[str]) -> None:
    code, out, err = reliability("topics", "--trials", "5", *ELEMENT, QRELS, *runs)
    assert code == 0, err
    rows = table(out, "error rates MAep")
    assert rows[0]["size"] == "2"  # 5 topics: subsets of up to 2
    assert all(0.0 <= float(v) <= 1.0 for k, v in rows[0].items() if k.startswith("error"))


def test_leave_out(runs: list[str], tmp_path: Path) -> None:
    groups = tmp_path / "groups.tsv"
    groups.write_text("base\tA\nodd\tA\nreversed\tB\n", encoding="utf-8")
    code, out, err = reliability("leave-out", "--groups", str(groups), "--depth", "5", *ELEMENT,
                                 QRELS, *runs)  # fmt: skip
    assert code == 0, err
    rows = table(out, "runs")
    assert {row["run"] for row in rows} == set(VARIANTS)
    # a run's score on the pool without its group cannot rise: only judgements are lost
    assert all(float(r["score_left_out"]) <= float(r["score_full"]) for r in rows)


def test_element_options_need_the_element_task(runs: list[str]) -> None:
    code, out, err = reliability("topics", "--quant", "gen5", QRELS, *runs)
    assert code == 2 and out == "" and "--task elements" in err


def test_a_quantisation_the_qrels_lack_is_one_line(runs: list[str], tmp_path: Path) -> None:
    grades = tmp_path / "grades.qrels"
    grades.write_text("9001 1001 /article[1] 3 3\n", encoding="utf-8")
    code, out, err = reliability("topics", "--task", "elements", "--quant", "gen5", str(grades),
                                 *runs)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "defined on the INEX 2005 scale only" in err


def test_element_qrels_files_score_as_the_fol_qrels_they_come_from(
    runs: list[str], tmp_path: Path
) -> None:
    # the demo's FOL qrels exported as element qrels (the 2005/2006 layout) and read back: the
    # study's full scores are those of the FOL qrels with the collection
    from focal.evaluation.formats.convert import Collection
    from focal.evaluation.formats.exports import write_elements
    from focal.evaluation.formats.fol.qrels import read_qrels
    from focal.evaluation.relevance.element_qrels import derived_articles

    exported = tmp_path / "elements.qrels"
    with exported.open("w", encoding="utf-8") as stream:
        derived = derived_articles(read_qrels(QRELS), Collection(COLLECTION), QRELS)
        write_elements((elements for _, elements in derived), stream)
    by_file = study_setup(str(exported), runs, "elements", None, quant="gen5")
    by_fol = study_setup(QRELS, runs, "elements", None, quant="gen5", collection=COLLECTION)
    from_file, from_fol = by_file.score(by_file.qrels), by_fol.score(by_fol.qrels)
    assert from_file.runs == from_fol.runs
    assert from_file.values.tolist() == from_fol.values.tolist()
    # a study reduces the element qrels' articles: sampling every relevant article keeps all
    sample = ("sample", "--fractions", "100", "--repeats", "1", "--task", "elements")
    code, out, err = reliability(*sample, "--quant", "gen5", "-j", "1", str(exported), *runs)
    assert code == 0, err
    assert float(table(out, "sample MAep")[0]["change_mean"]) == 0.0
