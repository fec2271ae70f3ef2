"""FOL runs at article level through pyarrow's columnar reader (`load_run`), against the careful
reader reduced the same way (`run_from_records(read_run(...))`): the same (topic, article, best
score) triples on random canonical runs; a malformed line still goes to the careful reader and
its error names the file and line."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.arrow_table import read_fol_table
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.trec import TrecRun
from focal.evaluation.measures.trec_eval.engine.run import run_from_records
from focal.evaluation.running.articles import load_run

ARTICLES = ["a1", "b22", "c3", "1234", "7", "d"]


def triples(run: TrecRun) -> set[tuple[bytes, bytes, float]]:
    scores = run.score.tolist()
    return set(zip(run.topic.to_pylist(), run.doc.to_pylist(), scores, strict=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(ARTICLES), st.integers(0, 20), st.integers(0, 900), st.integers(1, 50)
        ),
        min_size=1,
        max_size=30,
    ),
    st.booleans(),
)
def test_columnar_and_careful_readers_agree(
    results: list[tuple[str, int, int, int]], numeric_ids: bool
) -> None:
    lines = []
    for i, (article, score, offset, length) in enumerate(results):
        topic = "1" if i < len(results) // 2 else "2"  # two topic blocks, in order
        name = str(ARTICLES.index(article) + 10) if numeric_ids else article
        lines.append(f"{topic} Q0 {name} {i + 1} {score / 4} mine {offset} {length}\n")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.fol"
        path.write_text("".join(lines))
        assert read_fol_table(path.read_bytes(), passages=True) is not None  # the fast path
        fast = load_run(str(path))
        careful = run_from_records(read_run(path))
    assert fast.run_id == careful.run_id == "mine"
    assert triples(fast) == triples(careful)


def test_a_bad_line_is_named_by_the_careful_reader(tmp_path: Path) -> None:
    path = tmp_path / "r.fol"
    path.write_text("1 Q0 a 1 1.0 mine 0 10\n1 Q0 b 2 high mine 0 10\n")
    with pytest.raises(FormatError, match=r"r\.fol:2: "):
        load_run(str(path))
