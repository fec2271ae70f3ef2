"""`focal pool forecast QRELS_SO_FAR RUN...`: its tsv, text and json, and bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main as focal


def write_run(path: Path, run_id: str, topics: dict[str, list[str]]) -> Path:
    lines = [
        f"{topic} Q0 {article} {rank} {1 / rank:.4f} {run_id} 0 100\n"
        for topic, articles in topics.items()
        for rank, article in enumerate(articles, 1)
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def campaign(tmp_path: Path) -> tuple[Path, list[Path], Path]:
    articles = [f"d{i}" for i in range(12)]
    runs = [
        write_run(tmp_path / f"r{r}.fol", f"r{r}", {t: articles[r:] + articles[:r] for t in "12"})
        for r in range(3)
    ]
    # Topic 1: six judged (d0, d1 relevant); topic 2: three judged TREC-style below.
    qrels = tmp_path / "so_far.qrels"
    qrels.write_text(
        "1 Q0 d0 50 100 0 0:50\n1 Q0 d1 50 100 0 0:50\n"
        + "".join(f"1 Q0 d{i} 0 100\n" for i in range(2, 6))
        + "2 Q0 d0 0 100\n2 Q0 d1 0 100\n2 Q0 d2 50 100 0 0:50\n",
        encoding="utf-8",
    )
    pool = tmp_path / "pool"
    rows = [f"{t}\t{a}\t1\t{i}\tr0\n" for t in "12" for i, a in enumerate(articles, 1)]
    pool.write_text("".join(rows), encoding="utf-8")
    return qrels, runs, pool


def test_tsv_has_a_row_per_topic_all_a_blank_line_and_the_ranking(campaign) -> None:
    qrels, runs, pool = campaign
    result = CliRunner().invoke(
        focal,
        ["pool", "forecast", "--pool", str(pool), "--format", "tsv", str(qrels), *map(str, runs)],
    )
    assert result.exit_code == 0, result.output
    topics, ranking = result.output.split("\n\n")
    lines = [line.split("\t") for line in topics.splitlines()]
    assert lines[0] == [
        "topic", "judged", "relevant_found", "relevant_left_low", "relevant_left",
        "relevant_left_high",
    ]  # fmt: skip
    rows = {line[0]: line for line in lines[1:]}
    assert list(rows) == ["1", "2", "all"]
    assert rows["1"][1:3] == ["6", "2"] and rows["2"][1:3] == ["3", "1"]
    assert rows["all"][1:3] == ["9", "3"]
    for row in rows.values():
        low, mean, high = int(row[3]), float(row[4]), int(row[5])
        assert 0 <= low <= mean <= high
    assert int(rows["1"][5]) <= 6 and int(rows["2"][5]) <= 9  # at most the unjudged articles
    header, values = (line.split("\t") for line in ranking.splitlines())
    assert header == ["pairs_settled", "pairs", "tau_expected", "tau_low", "tau_high"]
    assert values[1] == "3" and 0 <= int(values[0]) <= 3
    assert float(values[3]) <= float(values[2]) <= float(values[4])


def test_json_and_text_agree_and_the_seed_fixes_the_draws(campaign) -> None:
    qrels, runs, pool = campaign
    arguments = ["pool", "forecast", "--pool", str(pool), str(qrels), *map(str, runs)]
    first = CliRunner().invoke(focal, [*arguments[:2], "--format", "json", *arguments[2:]])
    again = CliRunner().invoke(focal, [*arguments[:2], "--format", "json", *arguments[2:]])
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    document = json.loads(first.output)
    assert document["total"]["judged"] == 9 and document["ranking"]["pairs"] == 3
    text = CliRunner().invoke(focal, arguments)
    assert "The ranking is settled for" in text.output
    assert f"{document['ranking']['pairs_settled']} of 3 pairs" in text.output


def test_bad_input_is_one_line_and_exit_code_2(campaign, tmp_path: Path) -> None:
    _, runs, pool = campaign
    broken = tmp_path / "broken.qrels"
    broken.write_text("1 Q0 d0 fifty 100\n", encoding="utf-8")
    result = CliRunner().invoke(focal, ["pool", "forecast", str(broken), *map(str, runs)])
    assert result.exit_code == 2
    assert "broken.qrels" in result.output and "Traceback" not in result.output
    wide = CliRunner().invoke(
        focal, ["pool", "forecast", "--confidence", "1.5", str(pool), *map(str, runs)]
    )
    assert wide.exit_code == 2 and "--confidence" in wide.output
