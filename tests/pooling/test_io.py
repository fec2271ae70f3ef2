"""Runs pooling refuses, pool files, group files and in-article results."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Result, Run
from focal.pooling.io import (
    in_article_lines,
    in_article_results,
    read_groups,
    read_pool,
    write_pool,
)
from focal.pooling.ranked import as_ranked, ranked_run
from focal.pooling.records import RankedRun
from focal.pooling.strategies import top_n_pool


def run_of(rows: list[tuple[str, str]], run_id: str = "r", file: str = "r.run") -> Run:
    """A FOL run from (topic, article) rows, line numbers 1, 2, ..."""
    run = Run(run_id, file, "fol")
    for line, (topic, article) in enumerate(rows, start=1):
        rank = len(run.topics.get(topic, [])) + 1
        result = Result(topic, article, rank, 1.0, line, start=0, length=10)
        run.topics.setdefault(topic, []).append(result)
    return run


def test_a_repeated_topic_block_is_an_error_at_the_line_it_restarts() -> None:
    run = run_of([("1", "a"), ("1", "b"), ("2", "c"), ("1", "d"), ("3", "e"), ("2", "f")])
    with pytest.raises(FormatError) as caught:
        ranked_run(run)
    assert (caught.value.file, caught.value.line) == ("r.run", 4)
    assert "topic 1" in str(caught.value) and "line 1" in str(caught.value)


def test_the_earliest_repeat_is_reported() -> None:
    # 2 restarts at line 5, 1 at line 6: line 5 comes first.
    run = run_of([("1", "a"), ("2", "b"), ("3", "c"), ("3", "d"), ("2", "e"), ("1", "f")])
    with pytest.raises(FormatError) as caught:
        ranked_run(run)
    assert caught.value.line == 5


def test_contiguous_blocks_in_any_topic_order_are_fine() -> None:
    ranked = ranked_run(run_of([("2", "a"), ("2", "b"), ("1", "c")]))
    assert {t: list(a) for t, a in ranked.topics.items()} == {"2": ["a", "b"], "1": ["c"]}


def test_an_empty_run_is_an_error_naming_the_file() -> None:
    with pytest.raises(FormatError, match=r"^empty\.run: .*no results"):
        ranked_run(Run("r", "empty.run", "fol"))


def test_two_runs_with_one_run_id_are_an_error() -> None:
    with pytest.raises(FormatError, match=r"also the id of a\.run"):
        as_ranked([run_of([("1", "a")], file="a.run"), run_of([("1", "b")], file="b.run")])


def test_a_pool_file_round_trips(tmp_path: Path) -> None:
    runs = [RankedRun("A", {"1": ["5", "3"], "2": ["7"]}), RankedRun("B", {"1": ["3", "4"]})]
    pool = top_n_pool(runs, 3)
    stream = StringIO()
    write_pool(pool, stream, order="rank")
    path = tmp_path / "pool.tsv"
    path.write_text(stream.getvalue(), encoding="utf-8")
    assert stream.getvalue().splitlines() == [
        "topic\tarticle\tfirst_round\tbest_rank\tcontributing_runs",
        "1\t5\t1\t1\tA",
        "1\t3\t1\t1\tA,B",
        "1\t4\t2\t2\tB",
        "2\t7\t1\t1\tA",
    ]
    again = read_pool(path)
    assert again.articles() == pool.articles()
    assert again.run_ids == ("A", "B")


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        ("1\t5\t1\t1\n", 1, "expected 5 tab-separated fields"),
        ("topic\tarticle\n1\t5\tone\t1\tA\n", 2, "integers"),
        ("1\t5\t1\t1\tA\n1\t5\t2\t2\tB\n", 2, "pooled twice"),
        ("1\t5\t1\t1\tA,,B\n", 1, "empty run id"),
        ("1\t5\t1\t1\tA,B,A\n", 1, "listed twice"),
        ("1\t5\t1\t1\tA\n\n", 2, "empty line"),
        ("1\t5\t1\t1\tA\n1\t\xe9\t1\t1\tA\n", 2, "not UTF-8"),
    ],
)
def test_bad_pool_files_name_file_and_line(
    tmp_path: Path, content: str, line: int, message: str
) -> None:
    path = tmp_path / "bad.pool"
    path.write_bytes(content.encode("utf-8").replace("\xe9".encode(), b"\xe9"))
    with pytest.raises(FormatError, match=message) as caught:
        read_pool(path)
    assert (caught.value.file, caught.value.line) == (str(path), line)


def test_groups_file(tmp_path: Path) -> None:
    path = tmp_path / "groups.tsv"
    path.write_text("# run\tgroup\nA\tuni-x\n\nB\tuni-x\nC\tlab-y\n", encoding="utf-8")
    assert read_groups(path) == {"A": "uni-x", "B": "uni-x", "C": "lab-y"}
    path.write_text("A\tuni-x\nA\tlab-y\n", encoding="utf-8")
    with pytest.raises(FormatError, match="listed twice") as caught:
        read_groups(path)
    assert caught.value.line == 2
    path.write_text("A uni-x\n", encoding="utf-8")
    with pytest.raises(FormatError, match="run-id<TAB>group"):
        read_groups(path)


def test_in_article_results_cover_whole_runs_in_pooled_articles() -> None:
    first = run_of([("1", "7"), ("1", "9"), ("1", "7"), ("1", "8")], run_id="A", file="a")
    second = Run("B", "b", "element")
    second.topics["1"] = [Result("1", "9", 1, 1.0, 1, path="/article[1]/sec[2]")]
    missing = Run("C", "c", "fol")
    missing.topics["1"] = [Result("1", "7", 1, 1.0, 1, missing=True)]
    pool = top_n_pool([first, second, missing], size=2)  # round 1: 7, 9
    lines = list(in_article_lines(in_article_results(pool, [first, second, missing])))
    assert lines == [
        "topic\tarticle\trun\trank\tpassage\n",
        "1\t7\tA\t1\t0:10\n",
        "1\t7\tA\t3\t0:10\n",  # beyond the pooled depth, still inside a pooled article
        "1\t7\tC\t1\tX\n",
        "1\t9\tA\t2\t0:10\n",
        "1\t9\tB\t1\t/article[1]/sec[2]\n",
    ]
