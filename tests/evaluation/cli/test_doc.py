"""`focal doc` in-process with CliRunner, checked against the independent SAX oracle."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main as focal
from focal.evaluation.cli.doc import doc


def _oracle_module() -> ModuleType:
    # Test directories are not packages (pytest runs with --import-mode=importlib): load the
    # oracle of the text-model tests by its path.
    name = "sax_oracle"
    if name not in sys.modules:
        oracle = Path(__file__).parents[1] / "text" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, oracle)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


ORACLE = _oracle_module()
EDGE_CASES: dict[str, bytes] = ORACLE.EDGE_CASES


def run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(doc, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr


def parse_elements(output: bytes) -> list[tuple[str, int, int]]:
    rows = []
    for line in output.decode("utf-8").splitlines():
        path, start, end = line.split("\t")
        rows.append((path, int(start), int(end)))
    return rows


def assert_cli_agrees_with_oracle(path: Path) -> None:
    expected = ORACLE.oracle(path.read_bytes())
    code, text, _ = run("text", str(path))
    assert code == 0
    assert text == expected.text.encode("utf-8"), path  # exact bytes: nothing added
    code, elements, _ = run("elements", str(path))
    assert code == 0
    assert elements.endswith(b"\n")
    assert parse_elements(elements) == expected.rows, path


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_cli_agrees_with_the_oracle_on_edge_cases(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.xml"
    path.write_bytes(EDGE_CASES[name])
    assert_cli_agrees_with_oracle(path)


def test_cli_agrees_with_the_oracle_on_every_shared_article(shared_collections: Path) -> None:
    paths = sorted(shared_collections.glob("*/*.xml"))
    assert len(paths) >= 24
    for path in paths:
        assert_cli_agrees_with_oracle(path)


def test_text_has_no_trailing_newline(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_bytes("<a>caf\u00e9 \U0001f600</a>".encode())
    assert run("text", str(path)) == (0, "caf\u00e9 \U0001f600".encode(), "")


def test_locate_prints_offset_and_length(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_bytes(b"<a>ab<!--c-->cd<b>ef</b>gh</a>")
    assert run("locate", str(path), "/a[1]/b[1]")[:2] == (0, b"4 2\n")
    assert run("locate", str(path), "/a/b")[:2] == (0, b"4 2\n")
    assert run("locate", str(path), "/a[1]/text()[2]")[:2] == (0, b"2 2\n")
    assert run("locate", str(path), "/a[1]/text()[1].1", "/a[1]/b[1].1")[:2] == (0, b"1 4\n")


def test_focal_maps_doc_to_this_group(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_bytes(b"<a>x<b>y</b></a>")
    result = CliRunner().invoke(focal, ["doc", "elements", str(path)])
    assert result.exit_code == 0
    assert result.stdout_bytes == b"/a[1]\t0\t2\n/a[1]/b[1]\t1\t2\n"


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (b"<a>\n<b>\n</a>", 3),
        (b"<a>\n\n&nbsp;</a>", 3),
        (b'<!DOCTYPE a [\n<!ENTITY e "x">\n]><a>&e;</a>', 2),
    ],
    ids=["malformed", "undefined-entity", "declared-entity"],
)
@pytest.mark.parametrize("command", ["text", "elements", "locate"])
def test_bad_xml_is_one_line_on_stderr_and_exit_2(
    tmp_path: Path, content: bytes, line: int, command: str
) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(content)
    args = [command, str(path)] + (["/a[1]"] if command == "locate" else [])
    code, stdout, stderr = run(*args)
    assert code == 2
    assert stdout == b""
    assert stderr.startswith(f"{path}:{line}: ")
    assert stderr.count("\n") == 1 and stderr.endswith("\n")


def test_missing_file_and_unknown_path_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "absent.xml"
    code, _, stderr = run("text", str(missing))
    assert code == 2 and stderr.startswith(str(missing)) and stderr.count("\n") == 1
    path = tmp_path / "t.xml"
    path.write_bytes(b"<a><b/></a>")
    code, stdout, stderr = run("locate", str(path), "/a[1]/c[1]")
    assert (code, stdout) == (2, b"")
    assert stderr.startswith(f"{path}: ") and "/a[1]/c[1]" in stderr and stderr.count("\n") == 1
    code, _, stderr = run("locate", str(path), "not-a-path")
    assert code == 2 and stderr.count("\n") == 1
