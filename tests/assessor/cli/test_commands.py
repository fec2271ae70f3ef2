"""The assessor's `focal` commands in-process with click's CliRunner, exit codes included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from focal.assessor.web.app import create_app

from ..conftest import write_collection

# The text of tests/assessor/conftest.py's article 1001, written out by hand.
TEXT_1001 = "Alpha" + "The quick brown fox." + "Jumps over the lazy dog."
TEXT_1002 = "Beta" + "Second article text."

TOPICS = """<?xml version="1.0" encoding="UTF-8"?>
<inex-topic-file>
<topic id="9" ct_no="1"><title>quick fox</title><castitle>//article[about(., fox)]</castitle>
<phrasetitle>"quick fox"</phrasetitle><description>Foxes.</description>
<narrative>Anything about foxes.</narrative></topic>
</inex-topic-file>
"""
RUN = "9 Q0 1002 1 3.0 r1 0 5\n9 Q0 1001 2 2.0 r1 0 5\n9 Q0 4242 3 1.0 r1 0 5\n"


def prepared(cli: Any, tmp_path: Path) -> Path:
    collection = write_collection(tmp_path / "docs")
    (tmp_path / "topics.xml").write_text(TOPICS, encoding="utf-8")
    (tmp_path / "r1.run").write_text(RUN, encoding="utf-8")
    (tmp_path / "pw").write_text("a good password\n", encoding="utf-8")
    cli("init-db")
    cli("import", "collection", str(collection))
    cli("import", "topics", str(tmp_path / "topics.xml"))
    cli("import", "runs", str(tmp_path / "r1.run"))
    built = cli("pool", "build", "--size", "3")
    assert "topic 9: 2 articles (1 pooled articles not in the collection)" in built.output
    for name in ("alice", "bob"):
        cli("users", "add", name, "--role", "assessor", "--password-file", str(tmp_path / "pw"))
        cli("assign", "9", name)
    return collection


def test_commands_need_an_initialised_database(cli: Any) -> None:
    result = cli("import", "topics", "nothing.xml", code=2)
    assert "focal init-db" in result.stderr


def test_a_bad_file_stores_nothing_and_names_the_file(cli: Any, tmp_path: Path) -> None:
    collection = write_collection(tmp_path / "docs")
    (collection / "2000.xml").write_text("<article><p>unclosed</article>", encoding="utf-8")
    cli("init-db")
    result = cli("import", "collection", str(collection), code=2)
    assert "2000.xml" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    (collection / "2000.xml").unlink()
    assert "imported 3 documents" in cli("import", "collection", str(collection)).output


def test_export_prints_exactly_the_judged_passages(cli: Any, tmp_path: Path) -> None:
    prepared(cli, tmp_path)
    token = cli("users", "token", "alice").stdout.strip()
    app = create_app()
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    listing = client.get("/api/assignments", headers=headers).json["assignments"]
    assert [(a["topic"], a["progress"]["pool_size"]) for a in listing] == [("9", 2)]
    url = f"/api/assignments/{listing[0]['id']}/documents"

    def op(article: str, **body: Any) -> None:
        response = client.post(f"{url}/{article}/ops", json=body, headers=headers)
        assert response.status_code == 200, response.json

    assert TEXT_1001[4:9] == "aThe " and TEXT_1001[14:20] == " brown"
    op("1001", op_id="1", op="highlight", start=4, end=9, exact="aThe ")
    op("1001", op_id="2", op="highlight", start=14, end=20, exact=" brown")
    op("1001", op_id="3", op="highlight", start=8, end=10, exact=" q")  # merges with the first
    op("1001", op_id="4", op="set_bep", offset=15)
    op("1002", op_id="5", op="mark_nonrelevant")
    # Stored without the spaces at their ends: "aThe" 4..8 and "brown" 15..20; " q" is "q"
    # 9..10, which only a space separates from "aThe": merged into 4..10.
    expected = f"9 Q0 1001 11 {len(TEXT_1001)} 15 4:6 15:5\n9 Q0 1002 0 {len(TEXT_1002)}\n"
    assert cli("export-qrels", "--format", "fol").output == expected
    nothing = cli("export-qrels", "--assessor", "bob")  # judged nothing: empty, and a warning
    assert nothing.stdout == "" and "nothing judged yet --assessor bob" in nothing.stderr
    out = tmp_path / "out.qrels"
    cli("export-qrels", "--topic", "9", "-o", str(out))
    assert out.read_text(encoding="utf-8") == expected
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.qrels")]


def test_export_refuses_a_topic_with_two_assessors_unless_one_is_chosen(
    cli: Any, tmp_path: Path
) -> None:
    prepared(cli, tmp_path)
    client = create_app().test_client()
    for name in ("alice", "bob"):
        token = cli("users", "token", name).stdout.strip()
        headers = {"Authorization": f"Bearer {token}"}
        assignment = client.get("/api/assignments", headers=headers).json["assignments"][0]["id"]
        client.post(
            f"/api/assignments/{assignment}/documents/1002/ops",
            json={"op_id": "n", "op": "mark_nonrelevant"},
            headers=headers,
        )
    assert "--assessor" in cli("export-qrels", code=2).stderr
    assert cli("export-qrels", "--assessor", "bob").output == f"9 Q0 1002 0 {len(TEXT_1002)}\n"


def test_users_and_assignments_are_checked(cli: Any, tmp_path: Path) -> None:
    prepared(cli, tmp_path)
    (tmp_path / "short").write_text("short\n", encoding="utf-8")
    cli(
        "users",
        "add",
        "x",
        "--role",
        "assessor",
        "--password-file",
        str(tmp_path / "short"),
        code=2,
    )
    assert "no user 'nobody'" in cli("assign", "9", "nobody", code=2).stderr
    assert "no topic '77'" in cli("assign", "77", "alice", code=2).stderr
    assert cli("users", "list").output == "alice\tassessor\nbob\tassessor\n"
    cli("assign", "9", "bob", "--remove")
    assert "not assigned" in cli("assign", "9", "bob", "--remove", code=2).stderr


def test_demo_prepares_a_database_twice(cli: Any) -> None:
    first = cli("demo", "--no-serve")
    assert "log in as 'assessor' with password 'assessor'" in first.output
    second = cli("demo", "--no-serve")
    assert first.output == second.output
    token = cli("users", "token", "assessor2").stdout.strip()
    client = create_app().test_client()
    listing = client.get("/api/assignments", headers={"Authorization": f"Bearer {token}"}).json
    assert (
        len(listing["assignments"]) == 1 and listing["assignments"][0]["progress"]["pool_size"] > 0
    )
