"""`focal agreement`: two qrels files, or two assessors in the database, give the same table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from focal.assessor.cli import support
from focal.assessor.cli.main import main

from ..conftest import Seeded, double_judge

HEADER = (
    "topic\tdocs_a\tdocs_b\tdocs_both\tdocs_agreement\tkappa\tchars_a\tchars_b\tchars_both\t"
    "both_over_a\tboth_over_b\tboth_over_union\tchar_f1\talpha_u"
)


def focal(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def doubled(any_seeded: Seeded, monkeypatch: pytest.MonkeyPatch) -> Seeded:
    # the commands use the seeded app, whose engine the fixture disposes
    monkeypatch.setattr(support, "make_app", lambda migrated=True: any_seeded.app)
    double_judge(any_seeded)
    return any_seeded


def test_database_numbers_worked_by_hand(doubled: Seeded) -> None:
    result = focal("agreement", "--assessors", "alice,bob", "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["assessors"] == ["alice", "bob"]
    topic, total = document["rows"]
    # relevant: alice {1001, 1003}, bob {1001, 1002}: ∩ 1, ∪ 3
    assert (topic["topic"], topic["docs_a"], topic["docs_b"], topic["docs_both"]) == ("1", 2, 2, 1)
    assert topic["docs_agreement"] == pytest.approx(1 / 3)
    # judged by both: 1001 (yes, yes), 1002 (no, yes): p_o = 1/2, p_e = (1·2 + 1·0)/4 = 1/2
    assert topic["kappa"] == 0.0
    # alice 20 + 6, bob 26 + 6 characters; both [9, 25) of 1001 = 16; ∪ = 26 + 32 − 16 = 42
    assert (topic["chars_a"], topic["chars_b"], topic["chars_both"]) == (26, 32, 16)
    assert topic["both_over_a"] == pytest.approx(16 / 26)
    assert topic["both_over_b"] == pytest.approx(16 / 32)
    assert topic["both_over_union"] == pytest.approx(16 / 42)
    assert total["topic"] == "all" and total["chars_both"] == 16


def test_files_and_database_give_identical_tables(doubled: Seeded, tmp_path: Path) -> None:
    for name in ("alice", "bob"):
        out = tmp_path / f"{name}.qrels"
        exported = focal("export-qrels", "--topic", "1", "--assessor", name, "-o", str(out))
        assert exported.exit_code == 0, exported.output
    files = (str(tmp_path / "alice.qrels"), str(tmp_path / "bob.qrels"))
    for options in ([], ["--elements"]):
        database = focal("agreement", "--assessors", "alice,bob", "--format", "tsv", *options)
        collection = ["--collection", str(doubled.collection)] if options else []
        from_files = focal("agreement", "--format", "tsv", *options, *collection, *files)
        assert database.exit_code == from_files.exit_code == 0, (database.output, from_files.output)
        assert database.stdout == from_files.stdout
        assert database.stdout.splitlines()[0].startswith(HEADER)
    assert focal("agreement", "--format", "tsv", *files).stdout.splitlines()[0] == HEADER
    elements = database.stdout.splitlines()
    assert elements[0].endswith("\tspec_within_0.9\talpha") and len(elements) == 3


def test_text_output_names_the_assessors(doubled: Seeded) -> None:
    result = focal("agreement", "--assessors", "alice,bob", "--topic", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "agreement of alice (a) and bob (b)"
    assert lines[1].split() == HEADER.split("\t")
    assert lines[2].split()[:6] == ["1", "2", "2", "1", "0.3333", "0.0000"]
    # One line under the table says what the columns count.
    assert lines[-1].startswith("docs_a: articles a judged relevant; docs_b: ")
    assert "both_over_union: chars_both / characters either highlighted" in lines[-1]


def one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr


def test_unknown_assessor_and_topic_are_named(doubled: Seeded) -> None:
    one_line_error(focal("agreement", "--assessors", "alice,zoe"), "zoe")
    one_line_error(focal("agreement", "--assessors", "alice,bob", "--topic", "77"), "77")
    # topic 2 exists, but only alice assesses it
    one_line_error(
        focal("agreement", "--assessors", "alice,bob", "--topic", "2"),
        "topic 2 is not judged by",
    )


def test_files_without_a_topic_in_common(tmp_path: Path) -> None:
    a, b = tmp_path / "a.qrels", tmp_path / "b.qrels"
    a.write_text("1 Q0 10 5 20 0 0:5\n", encoding="utf-8")
    b.write_text("2 Q0 10 0 20\n", encoding="utf-8")
    one_line_error(focal("agreement", str(a), str(b)), "no topic in common")
    b.write_text("1 Q0 10 5 20 0 0:5\n1 Q0 11 x 20\n", encoding="utf-8")
    one_line_error(focal("agreement", str(a), str(b)), f"{b}:2")
    usage = focal("agreement", "--elements", str(a), str(a))  # click's usage error
    assert usage.exit_code == 2 and "--elements on files needs --collection DIR" in usage.stderr
    usage = focal("agreement", str(a))
    assert usage.exit_code == 2 and "expected two qrels files" in usage.stderr
