"""Every line of an input file is split in `focal.evaluation.formats`, nowhere else.

The readers of every file format live in `formats/`, and they return typed records
(docs/architecture.md, "The tree"). A module elsewhere may read a file's bytes through
`formats.source` to hand them to a reader, but once it also splits them into lines or fields it
has become a second reader of the format, one that drifts from the first: that is how trec_eval's
judgement groups and preferences came to re-read TREC lines inside the article engine.

The check is deliberately simple, so that it is plain what it proves. A module of `focal/`
outside `formats/` fails when both hold:
- it imports one of `formats.source`'s readers of a file's content (`read_bytes`,
  `decode_lines`), or the module `formats.source` itself;
- it splits something into lines or fields: `.splitlines()`, `.split()` without arguments
  (fields at whitespace), or `.split` at a newline, space or tab.
A module that opens files by other means is out of its sight (the C readers of
`measures/trec_eval/kernel`, which take only what `formats.trec` takes and are compared with it
by tests/evaluation/measures/trec_eval/test_plain_files.py, and `focal.pooling.io`, which reads
Focal's own pool files, not TREC lines). The last two tests show that the check fails on the
old shape of the judgement-group reader and on the readers where they now live.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[3]
FOCAL = REPOSITORY / "focal"
FORMATS = FOCAL / "evaluation" / "formats"
SOURCE = "focal.evaluation.formats.source"
CONTENT_READERS = frozenset({"read_bytes", "decode_lines"})
SEPARATORS = frozenset({"\n", b"\n", " ", b" ", "\t", b"\t"})


def _reads_content(tree: ast.Module) -> bool:
    """Whether the module imports a reader of a file's content from `formats.source`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == SOURCE:
            if any(alias.name in CONTENT_READERS for alias in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.module == "focal.evaluation.formats":
            if any(alias.name == "source" for alias in node.names):
                return True
        elif isinstance(node, ast.Import) and any(a.name == SOURCE for a in node.names):
            return True
    return False


def _is_line_split(node: ast.AST) -> bool:
    """`x.splitlines()`, `x.split()`, or `x.split` at a newline, space or tab."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr == "splitlines":
        return True
    if node.func.attr != "split":
        return False
    if not node.args and not node.keywords:
        return True
    first = node.args[0] if node.args else None
    return isinstance(first, ast.Constant) and first.value in SEPARATORS


def line_splits(source: str) -> list[int]:
    """The lines where a module that reads file content through `formats.source` splits
    something into lines or fields (none when it reads no content through it)."""
    tree = ast.parse(source)
    if not _reads_content(tree):
        return []
    return sorted(node.lineno for node in ast.walk(tree) if _is_line_split(node))


def _outside_formats() -> list[Path]:
    return sorted(p for p in FOCAL.rglob("*.py") if FORMATS not in p.parents)


def test_no_module_outside_formats_splits_the_lines_it_reads() -> None:
    modules = _outside_formats()
    assert len(modules) > 100  # the walk found the package
    found = {
        path.relative_to(REPOSITORY).as_posix(): lines
        for path in modules
        if (lines := line_splits(path.read_text("utf-8")))
    }
    assert not found, f"lines split outside focal/evaluation/formats (module: lines): {found}"


def test_the_check_would_have_caught_a_reader_inside_the_engine() -> None:
    """The shape the judgement-group reader had in `trec_eval/engine/groups.py`."""
    engine_reader = (
        "from focal.evaluation.formats.source import read_bytes\n"
        "def read_qrels_jg(path):\n"
        "    for number, line in enumerate(read_bytes(path).split(b'\\n'), 1):\n"
        "        words = line.split()\n"
    )
    assert line_splits(engine_reader) == [3, 4]
    handing_over = (
        "from focal.evaluation.formats.source import read_bytes\n"
        "from focal.evaluation.formats.trec import parse_trec_run\n"
        "def run(path):\n"
        "    return parse_trec_run(read_bytes(path), path)\n"
    )
    assert line_splits(handing_over) == []


@pytest.mark.parametrize("module", ["trec_eval_inputs.py", "trec.py", "fol/qrels.py"])
def test_the_check_finds_the_readers_where_they_live(module: str) -> None:
    """Outside `formats/` these modules would fail: the check sees the real readers."""
    assert line_splits((FORMATS / module).read_text("utf-8"))
