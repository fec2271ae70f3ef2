"""Hostile files given to the import commands and `focal eval`: exit code 2, one line on stderr
naming the file, nothing on stdout, no traceback, and not one row written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.models import Base
from focal.assessor.web.app import create_app

from ..conftest import write_collection

TOPICS = (
    '<inex-topic-file><topic id="9"><title>fox</title><description>d</description>'
    "<narrative>n</narrative></topic></inex-topic-file>"
)
RUN = "9 Q0 1001 1 3.0 r1 0 5\n9 Q0 1002 2 2.0 r1 0 5\n"
QRELS = "9 Q0 1001 5 44 0 0:5\n9 Q0 1002 0 24\n"


@pytest.fixture
def focal(cli: Any, tmp_path: Path) -> Any:
    """`focal(*args, code=...)` on a database with a collection, a topic and a run."""
    invoke = cli
    invoke("init-db")
    invoke("import", "collection", str(write_collection(tmp_path / "docs")))
    (tmp_path / "topics.xml").write_text(TOPICS, encoding="utf-8")
    invoke("import", "topics", str(tmp_path / "topics.xml"))
    return invoke


def rows() -> int:
    """Every row of every table of the configured database."""
    app = create_app()
    with db.session_scope(app) as session:
        total = sum(
            session.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables
        )
    db.engine_of(app).dispose()
    return total


def refused(focal: Any, *args: str, names: str) -> str:
    """Run a command that must be refused; return its one line of stderr."""
    before = rows()
    result = focal(*args, code=2)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("focal") and result.stderr.count("\n") == 1, result.stderr
    assert names in result.stderr
    assert rows() == before  # nothing half-written
    return str(result.stderr)


RUNS = {
    "nan score": "9 Q0 1001 1 nan r1 0 5\n",
    "offset of 10^30": "9 Q0 1001 1 1 r1 " + "1" + "0" * 30 + " 5\n",
    "length of 10^30": "9 Q0 1001 1 1 r1 0 1" + "0" * 30 + "\n",
    "article id of 201 characters": f"9 Q0 {'a' * 201} 1 1 r1 0 5\n",
    "topic id of 51 characters": f"{'9' * 51} Q0 1001 1 1 r1 0 5\n",
    "run id of 201 characters": f"9 Q0 1001 1 1 {'r' * 201} 0 5\n",
    "control character in an id": "9 Q0 10\x0101 1 1 r1 0 5\n",
    "submission offset of 10^30": '<inex-submission run-id="r2" result-type="fol">'
    '<topic topic-id="9"><result><file>1001</file><fol offset="1'
    + "0" * 30
    + '" length="5"/></result></topic></inex-submission>',
    "submission topic id with a space": '<inex-submission run-id="r2" result-type="fol">'
    '<topic topic-id="9 1"><result><file>1001</file><fol offset="0" length="5"/>'
    "</result></topic></inex-submission>",
    "empty run": "",
}


@pytest.mark.parametrize("case", sorted(RUNS))
def test_bad_runs_are_refused_by_import_and_eval(focal: Any, tmp_path: Path, case: str) -> None:
    run = tmp_path / "bad.run"
    run.write_text(RUNS[case], encoding="utf-8")
    refused(focal, "import", "runs", str(run), names=str(run))
    qrels = tmp_path / "good.qrels"
    qrels.write_text(QRELS, encoding="utf-8")
    refused(focal, "eval", str(qrels), str(run), names=str(run))


QRELS_CASES = {
    "empty": "",
    "blank lines only": "\n\n",
    "article length of 10^30": "9 Q0 1001 0 1" + "0" * 30 + "\n",
    "best entry point of 10^30": "9 Q0 1001 5 44 1" + "0" * 30 + " 0:5\n",
    "topic id with a control character": "9\x7f Q0 1001 0 44\n",
}


@pytest.mark.parametrize("case", sorted(QRELS_CASES))
def test_bad_qrels_are_refused_by_import_and_eval(focal: Any, tmp_path: Path, case: str) -> None:
    qrels = tmp_path / "bad.qrels"
    qrels.write_text(QRELS_CASES[case], encoding="utf-8")
    refused(focal, "import", "qrels", str(qrels), names=str(qrels))
    run = tmp_path / "good.run"
    run.write_text(RUN, encoding="utf-8")
    refused(focal, "eval", str(qrels), str(run), names=str(qrels))


def test_a_fifo_in_a_collection_is_refused_not_waited_on(focal: Any, tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "more")
    os.mkfifo(folder / "2000.xml")
    message = refused(focal, "import", "collection", str(folder), names="2000.xml")
    assert "not a regular file" in message


def test_a_file_name_that_is_not_utf8_is_refused(focal: Any, tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "more")
    (folder / os.fsdecode(b"\xff\xfe.xml")).write_text("<article/>", encoding="utf-8")
    assert "UTF-8 file name" in refused(focal, "import", "collection", str(folder), names="more")


def test_a_file_name_with_a_space_is_refused(focal: Any, tmp_path: Path) -> None:
    folder = write_collection(tmp_path / "more")
    (folder / "a b.xml").write_text("<article/>", encoding="utf-8")
    assert "without spaces" in refused(focal, "import", "collection", str(folder), names="a b.xml")


def test_a_topic_id_with_a_space_is_refused(focal: Any, tmp_path: Path) -> None:
    topics = tmp_path / "spaced.xml"
    topics.write_text(TOPICS.replace('id="9"', 'id="9 10"'), encoding="utf-8")
    refused(focal, "import", "topics", str(topics), names=str(topics))


def test_read_only_commands_create_no_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "never.sqlite"
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{database}")
    result = CliRunner().invoke(main, ["users", "list"])
    assert result.exit_code == 2 and "focal init-db" in result.stderr
    assert not database.exists()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql://someone:hunter22@127.0.0.1:1/x", "cannot open the database"),
        ("nosuch://someone:hunter22@host/x", "cannot use the database URL"),
    ],
)
def test_bad_database_urls_are_one_line_without_the_password(
    monkeypatch: pytest.MonkeyPatch, url: str, expected: str
) -> None:
    monkeypatch.setenv("FOCAL_DATABASE_URL", url)
    result = CliRunner().invoke(main, ["users", "list"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert expected in result.stderr and "hunter22" not in result.stderr
    assert "someone" in result.stderr  # the URL is named


MUTATIONS = st.sampled_from(
    ["nan", "1" + "0" * 30, "x" * 250, "\x00", "\x01", "-5", "", " ", "\t", "9:9", "é"]
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["runs", "qrels"]),
    field=st.integers(0, 7),
    line=st.integers(0, 1),
    value=MUTATIONS,
)
def test_imports_of_mutated_files_succeed_or_refuse_cleanly(
    focal: Any, tmp_path: Path, kind: str, field: int, line: int, value: str
) -> None:
    lines = [row.split(" ") for row in (RUN if kind == "runs" else QRELS).splitlines()]
    target = lines[line]
    target[min(field, len(target) - 1)] = value
    path = tmp_path / f"mutated.{kind}"
    path.write_text("\n".join(" ".join(row) for row in lines) + "\n", encoding="utf-8")
    before = rows()
    result = CliRunner().invoke(main, ["import", kind, str(path)])
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        return
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and str(path) in result.stderr
    assert rows() == before


XML_MUTATIONS = st.sampled_from(
    ["\x00", "<", "&nbsp;", "&#0;", "]]>", 'id="x y"', "<topic/>", "\udcff", "", "<a>" * 50]
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(kind=st.sampled_from(["topics", "collection"]), at=st.integers(0, 200), value=XML_MUTATIONS)
def test_imports_of_mutated_xml_succeed_or_refuse_cleanly(
    focal: Any, tmp_path: Path, kind: str, at: int, value: str
) -> None:
    from ..conftest import ARTICLES

    source = TOPICS if kind == "topics" else ARTICLES["1001"]
    at = min(at, len(source))
    mutated = (source[:at] + value + source[at:]).encode("utf-8", "surrogateescape")
    if kind == "topics":
        target = tmp_path / "mutated-topics.xml"
        target.write_bytes(mutated)
    else:
        target = tmp_path / "mutated-collection"
        target.mkdir(exist_ok=True)
        (target / "3000.xml").write_bytes(mutated)
    before = rows()
    result = CliRunner().invoke(main, ["import", kind, str(target)])
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        return
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and str(target) in result.stderr
    assert rows() == before
