"""The pyarrow element reader takes a file only when the careful reader would read the same results.

`read_element_table` returns None for anything it is not sure of; `focal eval --task elements`
then reads the file with `read_element_run`, whose errors name file and line. So, on random
valid and invalid files: when the fast reader answers, the careful reader accepts the file without
a warning, and gives the same run id, topics, and article, canonical path and score per result.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.elements.run_table import ElementTable, read_element_table
from focal.evaluation.formats.elements.runs import read_element_run

IDS = ["1", "2", "10", "a", "007", "x0", "t" * 50]
PATHS = ["/article[1]", "/article[1]/sec[2]", "/article/sec", "/article[1]/bdy[1]/p[3]",
         "/article[1]/sec[1]/x[1]", "/a:b[2]"]  # fmt: skip
ODD_PATHS = ["article[1]", "/", "//article[1]", "/article[0]", "/article[1]/sec[x]", "/é[1]",
             "/article[1]/", "/article[1]\x01", "x"]  # fmt: skip
ODD_FIELDS = ["", "é", "t" * 51, "nan", "inf", "1e999", "0x5", "-1", "2147483648"]


@st.composite
def element_files(draw: st.DrawFn) -> bytes:
    """A canonical element run, then up to two irregularities (valid or not for the careful
    reader)."""
    topics = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=3, unique=True))
    rows = []
    for topic in topics:
        for rank in range(1, draw(st.integers(1, 5)) + 1):
            article = draw(st.sampled_from(IDS))
            score = repr(draw(st.floats(-1e6, 1e6, allow_nan=False)))
            rows.append([topic, "Q0", article, str(rank), score, "r", draw(st.sampled_from(PATHS))])
    for _ in range(draw(st.integers(0, 2))):
        line = draw(st.integers(0, len(rows) - 1))
        change = draw(st.integers(0, 5))
        if len(rows[line]) != 7:
            continue  # a field was taken off or added to this line: one change is enough
        if change == 0:
            rows[line][6] = draw(st.sampled_from(ODD_PATHS))
        elif change == 1:
            rows[line][draw(st.sampled_from([0, 2, 3, 4, 5]))] = draw(st.sampled_from(ODD_FIELDS))
        elif change == 2:
            del rows[line][6]
        elif change == 3:
            rows[line].append("extra")
        elif change == 4:
            rows.append(list(rows[0]))  # the first topic again, after the others
        else:
            rows[line][6] = rows[line][6] + "\t"
    return "".join(" ".join(row) + "\n" for row in rows).encode()


def results_of(table: ElementTable) -> list[tuple[str, str, float]]:
    return [
        (table.article_names[a], table.path_names[p], s)
        for a, p, s in zip(table.articles.tolist(), table.paths.tolist(), table.scores.tolist(),
                           strict=True)
    ]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(element_files())
def test_the_fast_reader_answers_only_what_the_careful_reader_reads(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.txt"
        path.write_bytes(data)
        table = read_element_table(path)
        try:
            run, _ = read_element_run(path)
        except FormatError:
            assert table is None
            return
        if table is None:
            return
        assert run.warnings == []
        assert (table.run_id, table.file, table.topics) == (run.run_id, str(path), list(run.topics))
        careful = [(r.article, r.path, r.score) for rs in run.topics.values() for r in rs]
        assert results_of(table) == careful
        sizes = [len(rs) for rs in run.topics.values()]
        assert table.firsts.tolist() == [sum(sizes[:i]) for i in range(len(sizes))]


def test_a_canonical_run_is_read_with_canonical_paths() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.txt"
        path.write_bytes(
            b"1 Q0 a 1 0.5 r /article/sec[2]\n1 Q0 b 2 0.25 r /article[1]/sec[2]\n"
            b"2 Q0 a 1 1e-3 r /article[1]\n"
        )
        table = read_element_table(path)
    assert table is not None and table.topics == ["1", "2"] and table.firsts.tolist() == [0, 2]
    assert results_of(table) == [
        ("a", "/article[1]/sec[2]", 0.5), ("b", "/article[1]/sec[2]", 0.25),
        ("a", "/article[1]", 1e-3),
    ]  # fmt: skip


def test_irregular_files_are_left_to_the_careful_reader() -> None:
    for variant in (
        b"1 Q0 a 1 0.5 r article[1]\n",  # not a path: the careful reader names the line
        b"1 Q0 a 1 0.5 r /article[1]/sec[0]\n",
        b"1 Q0 a 1 0.5 r /\xc3\xa9[1]\n",
        b"1 Q0 a 1 0.5 r /article[1] \n",
        b"1 Q0 a 1 0.5 r /article[1]\n2 Q0 a 1 0.5 r /x[1]\n1 Q0 b 2 0.5 r /x[1]\n",
        b"1 Q0 a 1 0.5 r 0 10\n",  # a FOL run
        b"1 Q0 a 1 0.5 r\n",  # an article run
        b"<inex-submission/>\n",
    ):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "run.txt"
            path.write_bytes(variant)
            assert read_element_table(path) is None, variant
