"""`focal export-qrels --format fol|elements|trec`, exact on hand-computed cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lxml import etree

from focal.assessor.campaign.results.qrels_export import collect_qrels, qrels_text
from focal.assessor.cli.main import main
from focal.assessor.judging.elements import save_values, set_topic_mode
from focal.assessor.store import db
from focal.evaluation.relevance.twophase import start_two_phase
from focal.evaluation.text.document import Document as ParsedDocument

from ..conftest import Seeded

# Article 1001 (conftest): "Alpha" [0,5) | p1 "The quick brown fox." [5,25) |
# p2 "Jumps " [25,31) + b "over" [31,35) + " the lazy dog." [35,49).
# The passage 20:15 = [20,35) = " fox.Jumps over".
# Article 1003: "G𝔸mma" [0,5) | p "Astral 😀 here." [5,19); 𝔸 and 😀 are astral.
A = "/article[1]"


@pytest.fixture
def judged(seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    monkeypatch.setenv("FOCAL_DATABASE_URL", seeded.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    qrels = tmp_path / "alice.qrels"
    qrels.write_text(
        "1 Q0 1001 15 49 20 20:15\n1 Q0 1002 0 24\n1 Q0 1003 14 19 5 5:14\n", encoding="utf-8"
    )
    assert len(seeded.text("1001")) == 49 and len(seeded.text("1003")) == 19
    result = focal("import", "qrels", str(qrels), "--assessor", "alice")
    assert result.exit_code == 0, result.output
    return seeded


def focal(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_default_fol_export_is_the_backend_one(judged: Seeded) -> None:
    with db.session_scope(judged.app) as session:
        expected = qrels_text(collect_qrels(session, assessor="alice"))
    result = focal("export-qrels", "--assessor", "alice")
    assert result.exit_code == 0 and result.stdout == expected
    assert expected.splitlines()[2] == "1 Q0 1003 14 19 5 5:14"


def test_fol_in_utf16_and_utf8(judged: Seeded) -> None:
    # 1003: 𝔸 and 😀 take 2 UTF-16 units / 4 UTF-8 bytes: [5,19) -> [6,21) units, [8,25) bytes
    utf16 = focal("export-qrels", "--topic", "1", "--offset-unit", "utf16").stdout.splitlines()
    utf8 = focal("export-qrels", "--topic", "1", "--offset-unit", "utf8").stdout.splitlines()
    assert utf16[2] == "1 Q0 1003 15 21 6 6:15"
    assert utf8[2] == "1 Q0 1003 17 25 8 8:17"
    assert utf16[0] == utf8[0] == "1 Q0 1001 15 49 20 20:15"  # ASCII: nothing changes


def test_elements_export_on_the_2006_scale(judged: Seeded) -> None:
    result = focal("export-qrels", "--format", "elements", "--topic", "1")
    assert result.exit_code == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if "\t1001\t" in line]
    assert lines == [
        f"1\t1001\t{A}\t2\t{15 / 49!r}\t15\t49",
        f"1\t1001\t{A}/bdy[1]\t2\t{15 / 44!r}\t15\t44",
        f"1\t1001\t{A}/bdy[1]/p[1]\t2\t0.25\t5\t20",
        f"1\t1001\t{A}/bdy[1]/p[2]\t2\t{10 / 24!r}\t10\t24",
        f"1\t1001\t{A}/bdy[1]/p[2]/b[1]\t2\t1\t4\t4",
    ]
    assert not any("\t1002\t" in line for line in result.stdout.splitlines())


def test_elements_export_as_assessment_xml(judged: Seeded) -> None:
    result = focal("export-qrels", "--format", "elements", "--xml", "--topic", "1")
    root = etree.fromstring(result.stdout.encode())
    assert (root.tag, root.get("topic"), root.get("scale")) == ("assessments", "1", "2006")
    files = {f.get("file"): f for f in root.findall("file")}
    assert (files["1001"].get("size"), files["1001"].get("rsize")) == ("49", "15")
    assert (files["1002"].get("rsize"), len(files["1002"])) == ("0", 0)
    b = files["1001"].find(f"path[@path='{A}/bdy[1]/p[2]/b[1]']")
    assert b is not None and (b.get("exhaustivity"), b.get("specificity")) == ("2", "1")


def test_elements_export_on_the_2005_scale_uses_the_stored_values(judged: Seeded) -> None:
    document = ParsedDocument.from_file(judged.collection / "1001.xml")
    state = start_two_phase(document.elements, [(20, 35)]).state
    for path, value in [(f"{A}/bdy[1]/p[2]", "2"), (f"{A}/bdy[1]/p[1]", "1")]:
        state = state.assess(path, value).state
    state = state.assess(f"{A}/bdy[1]/p[2]/b[1]", "?").state
    with db.session_scope(judged.app) as session:
        set_topic_mode(session, "1", "2005")
        save_values(session, judged.alice, "1001", state.records())
    result = focal("export-qrels", "--format", "elements", "--topic", "1")
    rows = [line.split("\t") for line in result.stdout.splitlines() if "\t1001\t" in line]
    assert [(row[2], row[3]) for row in rows] == [
        (A, "2"),  # 2 propagated up from p2
        (f"{A}/bdy[1]", "2"),
        (f"{A}/bdy[1]/p[1]", "1"),
        (f"{A}/bdy[1]/p[2]", "2"),
        (f"{A}/bdy[1]/p[2]/b[1]", "?"),
    ]
    xml = focal("export-qrels", "--format", "elements", "--xml", "--topic", "1").stdout
    assert etree.fromstring(xml.encode()).get("scale") == "2005"


def test_trec_binary_and_graded(judged: Seeded) -> None:
    # 1001: 15/49 <= 1/3 -> grade 1; 1003: 14/19 > 2/3 -> grade 3; 1002 not relevant
    assert focal("export-qrels", "--format", "trec", "--topic", "1").stdout == (
        "1 0 1001 1\n1 0 1002 0\n1 0 1003 1\n"
    )
    assert focal("export-qrels", "--format", "trec", "--graded", "--topic", "1").stdout == (
        "1 0 1001 1\n1 0 1002 0\n1 0 1003 3\n"
    )


def test_articles_known_only_by_id_and_length(judged: Seeded, tmp_path: Path) -> None:
    extra = tmp_path / "erin.qrels"
    extra.write_text("3 Q0 9999 4 100 0 0:4\n")
    assert focal("import", "qrels", str(extra), "--assessor", "erin").exit_code == 0
    ok = focal("export-qrels", "--assessor", "erin")
    assert ok.exit_code == 0 and ok.stdout == "3 Q0 9999 4 100 0 0:4\n"
    assert focal("export-qrels", "--assessor", "erin", "--format", "trec").stdout == "3 0 9999 1\n"
    for args in (["--offset-unit", "utf16"], ["--format", "elements"]):
        refused = focal("export-qrels", "--assessor", "erin", *args)
        assert refused.exit_code == 2 and refused.stdout == ""
        assert "article 9999" in refused.stderr and "known only by id and length" in refused.stderr
        assert refused.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--xml"], "--xml applies to --format elements only"),
        (["--format", "trec", "--offset-unit", "utf8"], "--offset-unit applies to --format fol"),
        (["--format", "elements", "--graded"], "--graded applies to --format trec only"),
    ],
)
def test_options_that_do_not_fit_the_format(judged: Seeded, args: list[str], message: str) -> None:
    result = focal("export-qrels", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_output_file_is_written(judged: Seeded, tmp_path: Path) -> None:
    target = tmp_path / "out.tsv"
    result = focal("export-qrels", "--format", "elements", "-o", str(target))
    assert result.exit_code == 0 and target.read_text().count("\n") == 5 + 3
