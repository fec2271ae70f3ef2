"""Exporting a topic judged by two assessors: a choice per topic, or an assessor column.

Alice and bob both judge topic 1 (tests/assessor/conftest.py); alice also topic 2. The lines
below were written by hand from the imported qrels.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from focal.assessor.campaign.results.qrels_assessors import (
    qrels_with_assessors_text,
    topic_assessors,
)
from focal.assessor.campaign.results.qrels_export import (
    ExportError,
    SeveralAssessors,
    collect_qrels,
    qrels_text,
)
from focal.assessor.cli.main import main
from focal.assessor.store import db

from ..conftest import Seeded

ALICE_1 = "1 Q0 1001 15 49 20 20:15\n1 Q0 1002 0 24\n"
ALICE_2 = "2 Q0 1003 14 19 5 5:14\n"
BOB_1 = "1 Q0 1001 5 49 0 0:5\n"


def focal(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def double(seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    monkeypatch.setenv("FOCAL_DATABASE_URL", seeded.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    for name, text in (("alice", ALICE_1 + ALICE_2), ("bob", BOB_1)):
        qrels = tmp_path / f"{name}.qrels"
        qrels.write_text(text, encoding="utf-8")
        result = focal("import", "qrels", str(qrels), "--assessor", name)
        assert result.exit_code == 0, result.output
    return seeded


def test_a_topic_with_two_assessors_needs_a_choice_that_names_them(double: Seeded) -> None:
    with db.session_scope(double.app) as session:
        with pytest.raises(SeveralAssessors) as raised:
            collect_qrels(session)
        assert (raised.value.topic, raised.value.names) == ("1", ["alice", "bob"])
        # bob for topic 1, nobody chosen for topic 2 (alice alone judged it)
        chosen = qrels_text(collect_qrels(session, choices={"1": "bob"}))
        assert chosen == BOB_1 + ALICE_2
        # a choice overrides `assessor` on its topic only
        assert qrels_text(collect_qrels(session, assessor="alice", choices={"1": "bob"})) == (
            BOB_1 + ALICE_2
        )
        assert qrels_text(collect_qrels(session, assessor="alice")) == ALICE_1 + ALICE_2


def test_unknown_assessors_are_errors_naming_them(double: Seeded) -> None:
    with db.session_scope(double.app) as session:
        with pytest.raises(ExportError, match=r"no assessor 'zed' \(assessors: alice, bob\)"):
            collect_qrels(session, assessor="zed")
        with pytest.raises(ExportError, match="no assessor 'olga'"):
            collect_qrels(session, assessor="olga")  # an organiser judges nothing
        with pytest.raises(ExportError, match=r"no assessor 'bob' for topic 2 .*alice\)"):
            collect_qrels(session, choices={"2": "bob"})


def test_every_assessor_with_an_assessor_column(double: Seeded) -> None:
    expected = (
        "1 alice 1001 15 49 20 20:15\n"
        "1 alice 1002 0 24\n"
        "1 bob 1001 5 49 0 0:5\n"
        "2 alice 1003 14 19 5 5:14\n"
    )
    with db.session_scope(double.app) as session:
        assert qrels_with_assessors_text(session) == expected
        assert qrels_with_assessors_text(session, topic="2") == "2 alice 1003 14 19 5 5:14\n"
        # One assessor's lines with Q0 put back are that assessor's qrels.
        alice = [line.split(" ") for line in expected.splitlines() if line.split(" ")[1] == "alice"]
        back = "".join(" ".join([f[0], "Q0", *f[2:]]) + "\n" for f in alice)
        assert back == qrels_text(collect_qrels(session, assessor="alice"))
        rows = {row.topic.id: row for row in topic_assessors(session)}
        assert rows["1"].judged == {"alice": 2, "bob": 1} and rows["1"].double
        assert rows["2"].judged == {"alice": 1} and not rows["2"].double


def test_the_cli_offers_the_same_choices(double: Seeded) -> None:
    refused = focal("export-qrels")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "topic 1 was judged by alice, bob" in refused.stderr
    assert "--choose 1=NAME" in refused.stderr and "--with-assessors" in refused.stderr
    assert focal("export-qrels", "--choose", "1=bob").stdout == BOB_1 + ALICE_2
    assert focal("export-qrels", "--with-assessors", "--topic", "1").stdout == (
        "1 alice 1001 15 49 20 20:15\n1 alice 1002 0 24\n1 bob 1001 5 49 0 0:5\n"
    )
    trec = focal("export-qrels", "--format", "trec", "--choose", "1=bob", "--topic", "1")
    assert trec.stdout == "1 0 1001 1\n"
    elements = focal("export-qrels", "--format", "elements", "--choose", "1=bob", "--topic", "1")
    assert elements.exit_code == 0 and "\t1002\t" not in elements.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--assessor", "zed"], "no assessor 'zed'"),
        (["--choose", "2=bob"], "no assessor 'bob' for topic 2"),
        (["--choose", "1"], "expected TOPIC=NAME, found '1'"),
        (["--with-assessors", "--format", "trec"], "--with-assessors writes every"),
    ],
)
def test_cli_refusals_are_one_line(double: Seeded, args: list[str], message: str) -> None:
    result = focal("export-qrels", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
