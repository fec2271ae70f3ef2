"""Run files read for pooling through columns give the pools and errors of the record path.

`read_ranked_run` reads FOL runs with `read_run_columns`; the record path is
`ranked_run(read_run(path))`. Both must give the same `RankedRun` (hence the same pools) or the
same error (file, line, message) on every file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.columns import RunColumns, columns_of_run, read_run_columns
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.records import Result, Run
from focal.pooling.io import in_article_lines, in_article_results, in_article_rows
from focal.pooling.ranked import ranked_run, read_ranked_run
from focal.pooling.records import RankedRun
from focal.pooling.strategies import build_pool

Outcome = tuple[str, dict[str, list[str]]] | tuple[str | None, int | None, str]


def by_records(path: Path) -> RankedRun:
    return ranked_run(read_run(path))


def outcome(read: object, path: Path) -> Outcome:
    """The run id and article lists read, or the error's (file, line, message)."""
    try:
        ranked = read(path)  # type: ignore[operator]
    except FormatError as error:
        return (error.file, error.line, str(error))
    return (ranked.run_id, {topic: list(articles) for topic, articles in ranked.topics.items()})


def fol_line(topic: str, article: str, rank: int, run_id: str = "r", offset: str = "0") -> str:
    return f"{topic} Q0 {article} {rank} {1.0 / rank:.4f} {run_id} {offset} 10\n"


# ---- the INEX 2010 runs ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_runs(inex2010: Path) -> list[Path]:
    paths = sorted((inex2010 / "runs").glob("*.fol.run"))
    assert len(paths) == 4, paths
    return paths


def test_the_shared_fol_runs_are_read_as_columns(shared_runs: list[Path]) -> None:
    for path in shared_runs:
        assert isinstance(read_run_columns(path), RunColumns)


@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("topn", {"size": 1}),
        ("topn", {"size": 100}),
        ("topn", {"size": 500}),
        ("depth", {"depth": 10}),
        ("borda", {"size": 100, "fused": 40}),
        ("rrf", {"size": 100, "fused": 40}),
    ],
)
def test_pools_from_columns_equal_pools_from_records(
    shared_runs: list[Path], method: str, options: dict[str, int]
) -> None:
    from_columns = [read_ranked_run(path) for path in shared_runs]
    from_records = [by_records(path) for path in shared_runs]
    assert from_columns == from_records
    expected = build_pool(from_records, method, **options)  # type: ignore[arg-type]
    pool = build_pool(from_columns, method, **options)  # type: ignore[arg-type]
    assert pool == expected
    assert (
        len(pool.topics) == 52
        and pool.size() >= 52 * options.get("size", options.get("depth", 1)) // 5
    )


def test_in_article_rows_from_columns_equal_those_from_records(shared_runs: list[Path]) -> None:
    records = [read_run(path) for path in shared_runs]
    pool = build_pool(records, "topn", size=50)
    expected = in_article_results(pool, records)
    rows = in_article_rows(pool, [read_run_columns(path) for path in shared_runs])
    assert rows == [(r.topic, r.article, r.run_id, r.rank, r.passage) for r in expected]
    assert len(rows) > 50 * 52
    assert list(in_article_lines(rows)) == list(in_article_lines(expected))


def test_an_article_run_keeps_the_record_path(inex2010: Path) -> None:
    path = inex2010 / "runs" / "indri-articles.trec.run"
    assert isinstance(read_run_columns(path), Run)
    assert read_ranked_run(path) == by_records(path)


# ---- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "line", "first"),
    [
        # canonical lines, topic 1 starts again at line 3 (the columns reader hands it to read_run)
        (fol_line("1", "11", 1) + fol_line("2", "21", 1) + fol_line("1", "12", 2), 3, 1),
        # 2 restarts at line 5, 1 at line 6: the earliest is reported
        (
            "".join(
                fol_line(t, a, 1)
                for t, a in [("1", "a"), ("2", "b"), ("3", "c"), ("3", "d"), ("2", "e"), ("1", "f")]
            ),
            5,
            2,
        ),
        # the same with an `X` offset and a tab, which read_run reads in any case
        (
            fol_line("7", "70", 1, offset="X")
            + "8\tQ0 80 1 0.5 r 0 10\n"
            + fol_line("8", "81", 2)
            + fol_line("7", "71", 2),
            4,
            1,
        ),
    ],
    ids=["canonical", "earliest", "unusual"],
)
def test_a_repeated_topic_block_is_the_same_error_on_both_paths(
    tmp_path: Path, content: str, line: int, first: int
) -> None:
    path = tmp_path / "split.run"
    path.write_text(content, encoding="utf-8")
    assert outcome(read_ranked_run, path) == outcome(by_records, path)
    with pytest.raises(FormatError) as caught:
        read_ranked_run(path)
    assert (caught.value.file, caught.value.line) == (str(path), line)
    assert f"first block began at line {first}" in str(caught.value)


@pytest.mark.parametrize(
    "content",
    [
        "",
        "\n\n",
        fol_line("1", "11", 1) + "1 Q0 12 2 1.0 r zero 10\n",
        fol_line("1", "11", 1) + "1 Q0 12 two 1.0 r 0 10\n",
        fol_line("1", "11", 1) + fol_line("1", "12", 2, run_id="other"),
        fol_line("1", "11", 1) + "1 Q0 12 2 1.0 r 0\n",
    ],
    ids=["empty", "blank", "offset", "rank", "run id", "fields"],
)
def test_bad_runs_give_the_same_error_on_both_paths(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.run"
    path.write_text(content, encoding="utf-8")
    found = outcome(read_ranked_run, path)
    assert found == outcome(by_records, path)
    assert found[0] == str(path) and len(found) == 3  # an error naming the file


def test_the_columns_check_finds_a_split_topic_in_given_columns() -> None:
    """Columns that keep a split topic's lines (as `columns_of_run` does) are refused too."""
    run = Run("r", "r.run", "fol")
    rows = [("1", "a"), ("1", "b"), ("2", "c"), ("1", "d"), ("3", "e")]
    for line, (topic, article) in enumerate(rows, start=1):
        result = Result(topic, article, line, 1.0, line, start=0, length=10)
        run.topics.setdefault(topic, []).append(result)
    with pytest.raises(FormatError) as caught:
        ranked_run(columns_of_run(run))
    assert (caught.value.file, caught.value.line) == ("r.run", 4)
    with pytest.raises(FormatError) as by_record:
        ranked_run(run)
    assert str(by_record.value) == str(caught.value)


def test_columns_without_results_are_an_empty_run() -> None:
    with pytest.raises(FormatError, match=r"^e\.run: .*no results"):
        ranked_run(RunColumns("r", "e.run"))


# ---- generated runs --------------------------------------------------------------------------

TOPICS = st.sampled_from(["1", "2", "10", "2010003"])
ARTICLES = st.sampled_from(["5", "17", "123456", "x9", "17"])
OFFSETS = st.sampled_from(["0", "15", "X", "-1", "007"])
SCORES = st.sampled_from(["1", "-0.5", "2.25e-05", "nan", "0.1"])
SEPARATORS = st.sampled_from([" ", " ", " ", "\t", "  "])  # mostly canonical files
LINE = st.tuples(ARTICLES, OFFSETS, SCORES)
BLOCKS = st.lists(st.tuples(TOPICS, st.lists(LINE, min_size=1, max_size=6)), max_size=5)


Blocks = list[tuple[str, list[tuple[str, str, str]]]]


def run_text(blocks: Blocks, separator: str, crlf: bool) -> str:
    """Topic blocks of FOL lines (a topic may come back: then it is a split run)."""
    lines = []
    for topic, rows in blocks:
        for rank, (article, offset, score) in enumerate(rows, start=1):
            fields = [topic, "Q0", article, str(rank), score, "gen", offset, "10"]
            lines.append(separator.join(fields) + ("\r\n" if crlf else "\n"))
    return "".join(lines)


@settings(max_examples=200, deadline=None)
@given(BLOCKS, SEPARATORS, st.booleans(), st.integers(min_value=1, max_value=8))
def test_generated_runs_give_the_same_ranked_run_pools_or_error(
    blocks: Blocks, separator: str, crlf: bool, size: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "gen.run"
        path.write_text(run_text(blocks, separator, crlf), encoding="utf-8")
        found = outcome(read_ranked_run, path)
        assert found == outcome(by_records, path)
        topics = [topic for topic, _ in blocks]
        starts = [t for before, t in zip([None, *topics], topics, strict=False) if t != before]
        nan = any(score == "nan" for _, rows in blocks for _, _, score in rows)
        if len(set(starts)) < len(starts) and not nan:  # a NaN score is refused on reading
            assert found[1] is not None and "second block" in str(found[2])
        if isinstance(found[1], dict):
            other = Path(folder) / "other.run"
            other.write_text(fol_line("2", "5", 1, run_id="o") + fol_line("10", "8", 1, "o"))
            runs = [read_ranked_run(path), read_ranked_run(other)]
            expected = [by_records(path), by_records(other)]
            for method in ("topn", "depth", "borda"):
                options = {"size": size, "depth": size, "fused": size // 2}
                assert build_pool(runs, method, **options) == build_pool(
                    expected, method, **options
                )  # type: ignore[arg-type]
