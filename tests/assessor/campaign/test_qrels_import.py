"""`focal import qrels`: FOL qrels become one assessor's judgements, all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import func, select

from focal.assessor.campaign.results.qrels_export import collect_qrels, qrels_text
from focal.assessor.campaign.setup.qrels_import import PLACEHOLDER_COLLECTION, import_qrels
from focal.assessor.cli.imports import import_qrels_command
from focal.assessor.store import db
from focal.assessor.store.models import (
    Assignment,
    Collection,
    Document,
    Event,
    Judgement,
    Pool,
    Topic,
    User,
)
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.fol.qrels import read_qrels

from ..conftest import Seeded


def qrels_file(seeded: Seeded, tmp_path: Path, name: str = "campaign.qrels") -> Path:
    length = {article: len(seeded.text(article)) for article in ("1001", "1002")}
    path = tmp_path / name
    path.write_text(
        f"1 Q0 1001 9 {length['1001']} 3 20:4 5:5 \n"  # passages out of order, trailing space
        f"1 Q0 1002 0 {length['1002']}\n"
        "3 Q0 9999 10 500 0 0:4 4:6\n",  # new topic, article not in the database, touching
        encoding="utf-8",
    )
    return path


def cli(app: Flask, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("FOCAL_DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    result = CliRunner().invoke(import_qrels_command, list(args))
    return result.exit_code, result.stdout, result.stderr


def counts(app: Flask) -> tuple[int, ...]:
    with db.session_scope(app) as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model)) or 0
            for model in (User, Topic, Assignment, Judgement, Document, Pool, Event)
        )


def test_import_creates_assessor_topics_assignments_and_judgements(
    any_seeded: Seeded, tmp_path: Path
) -> None:
    path = qrels_file(any_seeded, tmp_path)
    with db.session_scope(any_seeded.app) as session:
        summary = import_qrels(session, path, "carol")
    assert (summary.judgements, summary.relevant, summary.topics) == (3, 2, 2)
    assert (summary.new_topics, summary.new_documents) == (1, 1)
    with db.session_scope(any_seeded.app) as session:
        carol = session.scalars(select(User).where(User.name == "carol")).one()
        assert carol.role == "assessor" and carol.password_hash is None
        assert session.get(Topic, "3") is not None and session.get(Topic, "3").title == ""  # type: ignore[union-attr]
        rows = session.execute(
            select(Assignment.topic_id, Judgement)
            .join(Assignment, Judgement.assignment_id == Assignment.id)
            .where(Assignment.user_id == carol.id)
        ).all()
        got = {
            (topic, j.article): (j.status, j.passages, j.bep, j.finished, j.version)
            for topic, j in rows
        }
        assert got == {
            ("1", "1001"): ("relevant", [[5, 10], [20, 24]], 3, True, 1),
            ("1", "1002"): ("nonrelevant", [], None, True, 1),
            ("3", "9999"): ("relevant", [[0, 10]], 0, True, 1),  # ATOM merged the touching pair
        }
        unknown = session.get(Document, "9999")
        assert unknown is not None and (unknown.file, unknown.text_length) == (None, 500)
        assert unknown.text_sha256 is None and not unknown.has_text
        placeholder = session.get(Collection, unknown.collection_id)
        assert placeholder is not None and placeholder.name == PLACEHOLDER_COLLECTION
        pools = {p.topic_id: [e.article for e in p.entries] for p in session.scalars(select(Pool))}
        assert pools["3"] == ["9999"]  # new pool for the new topic
        assert pools["1"] == ["1001", "1002", "1003"]  # an existing pool is left alone
        kinds = session.scalars(select(Event.kind).where(Event.user_id == carol.id)).all()
        assert kinds == ["import"] * 3


def test_export_after_import_gives_the_same_judgements(seeded: Seeded, tmp_path: Path) -> None:
    path = qrels_file(seeded, tmp_path)
    with db.session_scope(seeded.app) as session:
        import_qrels(session, path, "carol")
        exported = qrels_text(collect_qrels(session, assessor="carol"))
    length = {article: len(seeded.text(article)) for article in ("1001", "1002")}
    assert exported == (
        f"1 Q0 1001 9 {length['1001']} 3 5:5 20:4\n"
        f"1 Q0 1002 0 {length['1002']}\n"
        "3 Q0 9999 10 500 0 0:10\n"
    )


def test_default_assessor_is_the_file_stem(seeded: Seeded, tmp_path: Path) -> None:
    path = qrels_file(seeded, tmp_path, "inex2099.qrels")
    with db.session_scope(seeded.app) as session:
        assert import_qrels(session, path).assessor == "inex2099"


def test_a_length_that_disagrees_with_the_collection_aborts_everything(
    seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = len(seeded.text("1001"))
    path = tmp_path / "bad.qrels"
    path.write_text(f"1 Q0 1002 0 {len(seeded.text('1002'))}\n1 Q0 1001 0 {real + 1}\n")
    before = counts(seeded.app)
    code, out, err = cli(seeded.app, monkeypatch, str(path), "--assessor", "carol")
    assert code == 2 and out == ""
    assert err == (
        f"focal: {path}:2: article 1001 has {real} characters in the database, "
        f"the qrels say {real + 1}\n"
    )
    assert counts(seeded.app) == before  # no user, topic, judgement or document was kept


def test_a_malformed_line_is_reported_with_file_and_line(
    seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.qrels"
    path.write_text("1 Q0 1001 0 10\n1 Q0 1002\n")
    code, _, err = cli(seeded.app, monkeypatch, str(path))
    assert code == 2 and err.startswith(f"focal: {path}:2: ") and err.count("\n") == 1


def test_importing_twice_for_one_assessor_is_refused(
    seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = qrels_file(seeded, tmp_path)
    code, out, _ = cli(seeded.app, monkeypatch, str(path), "--assessor", "carol")
    assert code == 0 and out.startswith("imported 3 judgements (2 relevant) of 2 topics as carol")
    before = counts(seeded.app)
    code, _, err = cli(seeded.app, monkeypatch, str(path), "--assessor", "carol")
    assert code == 2 and "carol already judged article 1001 of topic 1" in err
    assert counts(seeded.app) == before
    with db.session_scope(seeded.app) as session:  # another name is a second assessor
        import_qrels(session, path, "dave")
        assert session.scalar(select(func.count()).select_from(Judgement)) == 6
        with pytest.raises(FormatError, match="already judged"):
            import_qrels(session, path, "dave")


@pytest.mark.slow
def test_round_trip_of_the_real_inex_2010_qrels(app: Flask, inex2010: Path) -> None:
    """Import then export: same records, passages sorted and merged, trailing spaces gone (how
    long both take is benchmarks/qrels_import.py's question)."""
    source = inex2010 / "inex2010.qrels"
    with db.session_scope(app) as session:
        summary = import_qrels(session, source, "inex2010")
    assert (summary.judgements, summary.relevant, summary.topics) == (39031, 5471, 52)
    with db.session_scope(app) as session:
        exported = qrels_text(collect_qrels(session, assessor="inex2010"))
    out = app.instance_path + "/roundtrip.qrels"
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(exported)
    original, again = read_qrels(source), read_qrels(out)
    assert set(original) == set(again)
    for topic, articles in original.items():
        assert set(articles) == set(again[topic]), topic
        for article, line in articles.items():
            copy = again[topic][article]
            assert (copy.rel_chars, copy.article_chars, copy.bep) == (
                line.rel_chars,
                line.article_chars,
                line.bep,
            )
            assert copy.passages == line.passages  # the reader sorts; no pair touches here
    # Textually: each exported line is the original without its trailing space and with its
    # passages in document order (492 lines listed them out of order); lines are in natural order.
    expected = set()
    for raw in source.read_text().splitlines():
        fields = raw.split()
        passages = sorted(fields[6:], key=lambda token: int(token.split(":")[0]))
        expected.add(" ".join(fields[:6] + passages))
    assert set(exported.splitlines()) == expected
