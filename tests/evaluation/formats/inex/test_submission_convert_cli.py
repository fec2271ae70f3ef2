"""INEX XML submissions, element/article → FOL conversion and `focal convert run`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.cli.convert import convert
from focal.evaluation.errors import FormatError
from focal.evaluation.formats import read_run, to_fol

HEAD = '<?xml version="1.0"?>\n'


def submission(tmp_path: Path, body: str, attributes: str = 'result-type="fol"') -> Path:
    path = tmp_path / "sub.xml"
    path.write_text(
        f'{HEAD}<inex-submission participant-id="4" run-id="R1" task="Focused" query="automatic" '
        f"{attributes}>\n<description>x</description>\n{body}</inex-submission>\n"
    )
    return path


FOL_BODY = (
    '<topic topic-id="2">\n'
    "<result><file>a</file><fol offset='5' length='3'/><rsv>2.5</rsv></result>\n"
    "<result><file>b</file><fol offset='0' length='4'/><fol offset='X' length='18'/>"
    "<rank>7</rank></result>\n"
    "</topic>\n"
    '<topic topic-id="1">\n'
    "<result><file>a</file><fol offset='0' length='2'/></result>\n"
    "</topic>\n"
)


def test_fol_submission(tmp_path: Path) -> None:
    run = read_run(submission(tmp_path, FOL_BODY))
    assert (run.run_id, run.kind, list(run.topics)) == ("R1", "fol", ["2", "1"])
    first, second, missing = run.topics["2"]
    assert (first.article, first.start, first.length, first.rank, first.score) == (
        "a",
        5,
        3,
        1,
        2.5,
    )
    assert (second.article, second.start, second.length, second.rank) == ("b", 0, 4, 7)
    assert (missing.article, missing.missing, missing.start, missing.length) == (
        "b",
        True,
        None,
        18,
    )
    assert first.line == 5 and missing.line == 6
    assert run.topics["1"][0].rank == 1  # position when <rank> is absent


def test_element_submission_and_kind_from_contents(tmp_path: Path) -> None:
    body = (
        '<topic topic-id="3"><result><file>a</file>'
        "<path>/article[1]/bdy[1]/sec[1]/p[2]</path></result></topic>\n"
    )
    run = read_run(submission(tmp_path, body, attributes=""))
    assert run.kind == "element"
    assert run.topics["3"][0].path == "/article[1]/bdy[1]/sec[1]/p[2]"
    with pytest.raises(
        FormatError, match="expected a FOL run, found a submission of element results"
    ):
        read_run(submission(tmp_path, body, attributes=""), kind="fol")


@pytest.mark.parametrize(
    ("body", "attributes", "line", "expected"),
    [
        ("<topic><result/></topic>\n", "", 4, 'expected attribute topic-id="..."'),
        ('<topic topic-id="1"><result><fol offset="1" length="2"/></result></topic>\n', "", 4,
         "expected <file>"),
        ('<topic topic-id="1"><result><file>a</file><fol offset="1.5" length="2"/></result>'
         "</topic>\n", "", 4, "offset (or X or -1)"),
        ('<topic topic-id="1"><result><file>a</file><fol offset="1"/></result></topic>\n', "", 4,
         'expected attribute length="..."'),
        ('<topic topic-id="1"><result><file>a</file><path>/a[1]</path></result></topic>\n',
         'result-type="fol"', 4, "expected only fol results, found a result of kind element"),
        ('<topic topic-id="1"><result><file>a</file><rank>one</rank></result></topic>\n', "", 4,
         "an integer <rank>"),
        ("", "", 2, "expected at least one <topic> with a <result>"),
        ("", 'result-type="passage"', 2, "convert them to FOL first"),
        ("<topic>\n", "", 5, "not well-formed"),
    ],
)  # fmt: skip
def test_malformed_submissions(
    tmp_path: Path, body: str, attributes: str, line: int, expected: str
) -> None:
    path = submission(tmp_path, body, attributes)
    with pytest.raises(FormatError) as caught:
        read_run(path)
    assert (caught.value.file, caught.value.line) == (str(path), line)
    assert expected in caught.value.message


def test_submission_without_run_id(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_text("  \n<inex-submission><topic topic-id='1'/></inex-submission>")
    with pytest.raises(FormatError, match=r':2: expected attribute run-id="..."'):
        read_run(path)


# --- conversion against a tiny collection ------------------------------------------------------

# text: "Hi" + "one" + "two" = "Hionetwo"; p[1] is [2, 5), p[2] is [5, 8), the article [0, 8)
ARTICLE = b"<article><title>Hi</title><bdy><sec><p>one</p><p>two</p></sec></bdy></article>"


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    folder = tmp_path / "collection"
    folder.mkdir()
    (folder / "a.xml").write_bytes(ARTICLE)
    (folder / "b.xml").write_bytes(b"<article><bdy>four</bdy></article>")
    return folder


def test_element_run_to_fol(tmp_path: Path, collection: Path) -> None:
    run_path = tmp_path / "e.run"
    run_path.write_text(
        "1 Q0 a 1 3.0 E /article[1]/bdy[1]/sec[1]/p[2]\n"
        "1 Q0 a 2 2.0 E /article[1]/bdy[1]/sec[1]/p[1]\n"
        "1 Q0 b 3 1.0 E /article[1]\n"
        "2 Q0 a 1 1.0 E /article[1]/title[1]\n"
        "2 Q0 a 2 1.0 E /article/bdy/sec/p[2]\n"
    )
    run = to_fol(read_run(run_path), collection)
    assert run.kind == "fol" and run.run_id == "E"
    got = [(r.topic, r.article, r.rank, r.start, r.length, r.line, r.path) for t in
           run.topics.values() for r in t]  # fmt: skip
    assert got == [
        ("1", "a", 1, 5, 3, 1, None),
        ("1", "a", 2, 2, 3, 2, None),
        ("1", "b", 3, 0, 4, 3, None),
        ("2", "a", 1, 0, 2, 4, None),
        ("2", "a", 2, 5, 3, 5, None),  # `[1]` left out
    ]


def test_article_run_to_fol_is_whole_article(tmp_path: Path, collection: Path) -> None:
    run_path = tmp_path / "a.run"
    run_path.write_text("1 Q0 b 1 3.0 T\n1 Q0 a 2 2.0 T\n")
    run = to_fol(read_run(run_path), collection)
    assert [(r.start, r.length) for r in run.topics["1"]] == [(0, 4), (0, 8)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1 Q0 zz 1 1 E /article[1]", "article zz is not in the collection"),
        ("1 Q0 a 1 1 E /article[1]/bdy[2]", "no element /article[1]/bdy[2] in article a"),
        ("1 Q0 ../collection/a 1 1 E /article[1]", "expected an article id"),
    ],
)
def test_conversion_errors_name_run_file_and_line(
    tmp_path: Path, collection: Path, line: str, expected: str
) -> None:
    run_path = tmp_path / "bad.run"
    run_path.write_text(f"1 Q0 a 1 1 E /article[1]\n{line}\n")
    with pytest.raises(FormatError) as caught:
        to_fol(read_run(run_path), collection)
    assert (caught.value.file, caught.value.line) == (str(run_path), 2)
    assert expected in caught.value.message


def test_documents_are_parsed_once(
    tmp_path: Path, collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from focal.evaluation.formats import convert as convert_module

    calls: list[Path] = []
    original = convert_module.Document.from_file

    def counting(path: Path) -> object:
        calls.append(Path(path))
        return original(path)

    monkeypatch.setattr(convert_module.Document, "from_file", counting)
    run_path = tmp_path / "e.run"
    run_path.write_text("".join(f"1 Q0 a {i} 1 E /article[1]\n" for i in range(1, 6)))
    to_fol(read_run(run_path), collection)
    assert calls == [collection / "a.xml"]


# --- CLI ---------------------------------------------------------------------------------------


def test_cli_converts_element_run(tmp_path: Path, collection: Path) -> None:
    run_path = tmp_path / "e.run"
    run_path.write_text("2 Q0 a 1 3.0 E /article[1]/bdy[1]\n1 Q0 b 1 2.0 E /article[1]\n"
                        "2 Q0 b 2 1.0 E /article[1]\n")  # fmt: skip
    result = CliRunner().invoke(convert, ["run", "--collection", str(collection), str(run_path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "2 Q0 a 1 3.0 E 2 6\n2 Q0 b 2 1.0 E 0 4\n1 Q0 b 1 2.0 E 0 4\n"
    assert result.stderr == f"focal convert: warning: {run_path}:3: topic 2 resumes after " \
        "other topics; its results were grouped together in file order (the official INEX " \
        "program would miscount them)\n"  # fmt: skip


def test_cli_output_file_and_fol_submission_without_collection(tmp_path: Path) -> None:
    out = tmp_path / "out.run"
    result = CliRunner().invoke(
        convert, ["run", "-o", str(out), str(submission(tmp_path, FOL_BODY))]
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert out.read_text() == (
        "2 Q0 a 1 2.5 R1 5 3\n2 Q0 b 7 0.0 R1 0 4\n2 Q0 b 7 0.0 R1 -1 18\n1 Q0 a 1 0.0 R1 0 2\n"
    )
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("content", "collection_needed", "expected"),
    [
        ("1 Q0 a 1 1 E /article[1]\n1 Q0 a x 1 E /article[1]\n", True, ":2: expected an integer"),
        ("1 Q0 a 1 1 E /article[1]/x[1]\n", True, ":1: no element /article[1]/x[1] in article a"),
        ("1 Q0 a 1 1 E /article[1]\n", False, ": element results need --collection"),
    ],
)  # fmt: skip
def test_cli_errors_are_one_line_and_exit_2(
    tmp_path: Path, collection: Path, content: str, collection_needed: bool, expected: str
) -> None:
    run_path = tmp_path / "bad.run"
    run_path.write_text(content)
    arguments = ["run", str(run_path)]
    if collection_needed:
        arguments[1:1] = ["--collection", str(collection)]
    out = tmp_path / "out.run"
    result = CliRunner().invoke(convert, [*arguments, "-o", str(out)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"focal convert: {run_path}")
    assert expected in result.stderr
    assert not out.exists()


def test_cli_through_the_focal_command(tmp_path: Path) -> None:
    from focal.assessor.cli.main import main

    run_path = tmp_path / "f.run"
    run_path.write_text("1 Q0 a 1 1 r 0 5\n")
    result = CliRunner().invoke(main, ["convert", "run", str(run_path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "1 Q0 a 1 1.0 r 0 5\n"
