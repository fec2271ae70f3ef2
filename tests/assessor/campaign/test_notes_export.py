"""The flags-and-notes file (docs/formats.md): the function, the command and the page.

Alice and bob assess topic 1, alice also topic 2 (tests/assessor/conftest.py). The expected
lines were written by hand from the notes saved below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from focal.assessor.campaign.people.notes import save_note
from focal.assessor.campaign.results.notes_export import escape_field, notes_text, unescape_field
from focal.assessor.campaign.results.qrels_export import ExportError
from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.models import Assignment

from ..conftest import Seeded, double_judge

EXPECTED = (
    "topic\tarticle\tassessor\tflag\tnote\n"
    "1\t1001\talice\t1\tfirst line\\nsecond\\tcolumn C:\\\\path\n"
    "1\t1001\tbob\t0\tfine\n"
    "1\t1003\talice\t1\t\n"
    "2\t1002\talice\t0\tother topic\n"
)


@pytest.fixture
def noted(seeded: Seeded) -> Seeded:
    with db.session_scope(seeded.app) as session:
        alice = session.get_one(Assignment, seeded.alice)
        bob = session.get_one(Assignment, seeded.bob)
        alice_2 = session.get_one(Assignment, seeded.alice_topic2)
        # Saved out of order: the file is ordered by topic, article, then assessor.
        save_note(session, alice_2, "1002", False, "other topic")
        save_note(session, alice, "1003", True, "")
        save_note(session, bob, "1001", False, "fine")
        save_note(session, alice, "1001", True, "first line\r\nsecond\tcolumn C:\\path")
        save_note(session, alice, "1002", False, "")  # neither flag nor note: no line
    return seeded


def test_the_file_has_a_header_and_one_escaped_line_per_note(noted: Seeded) -> None:
    with db.session_scope(noted.app) as session:
        assert notes_text(session) == EXPECTED
        topic_1_bob = "topic\tarticle\tassessor\tflag\tnote\n1\t1001\tbob\t0\tfine\n"
        assert notes_text(session, topic="1", assessor="bob") == topic_1_bob
        with pytest.raises(ExportError, match="no assessor 'zed'"):
            notes_text(session, assessor="zed")
    note = EXPECTED.splitlines()[1].split("\t")[4]
    assert unescape_field(note) == "first line\nsecond\tcolumn C:\\path"


def test_escaping_round_trips_and_keeps_one_record_per_line() -> None:
    for text in ["a\tb", "a\nb\r\n", "back\\slash\\n", "\\", "plain 𝄞 text", ""]:
        escaped = escape_field(text)
        assert "\t" not in escaped and "\n" not in escaped and "\r" not in escaped
        assert unescape_field(escaped) == text


def test_export_qrels_writes_the_notes_beside_the_qrels(
    noted: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    double_judge(noted)
    monkeypatch.setenv("FOCAL_DATABASE_URL", noted.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    notes_file = tmp_path / "notes.tsv"
    result = CliRunner().invoke(
        main, ["export-qrels", "--assessor", "alice", "--topic", "1", "--notes", str(notes_file)]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "1 Q0 1001 20 49 5 5:20"  # the qrels, as before
    assert notes_file.read_text(encoding="utf-8") == "".join(
        line + "\n"
        for line in EXPECTED.splitlines()
        if line.startswith(("topic", "1\t1001\talice", "1\t1003\talice"))
    )
    every = tmp_path / "every.tsv"
    result = CliRunner().invoke(
        main, ["export-qrels", "--with-assessors", "--notes", str(every), "-o", str(tmp_path / "q")]
    )
    assert result.exit_code == 0, result.output
    assert every.read_text(encoding="utf-8") == EXPECTED


def test_the_export_page_downloads_the_notes(noted: Seeded, log_in: Any) -> None:
    olga = noted.app.test_client()
    log_in(olga, "olga")
    assert 'id="export-notes"' in olga.get("/organiser/export").get_data(as_text=True)
    response = olga.get("/organiser/export.notes")
    assert response.status_code == 200
    assert response.mimetype == "text/tab-separated-values"
    assert 'filename="focal-notes.tsv"' in response.headers["Content-Disposition"]
    assert response.get_data(as_text=True) == EXPECTED
    topic_2 = olga.get("/organiser/export.notes?topic=2").get_data(as_text=True)
    assert topic_2 == "topic\tarticle\tassessor\tflag\tnote\n2\t1002\talice\t0\tother topic\n"
    assert olga.get("/organiser/export.notes?assessor=zed").status_code == 400
