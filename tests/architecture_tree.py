"""The `focal/` part of docs/architecture.md's tree, generated from the source: every package
folder and module with the first line of its docstring, so that the page is regenerated, never
edited by hand.

`python tests/architecture_tree.py` rewrites the page's `focal/` block in place;
tests/test_architecture.py checks that the page holds what this prints.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
PAGE = REPOSITORY / "docs" / "architecture.md"
COLUMN = 28  # where the descriptions start
WIDTH = 100  # the page's lines, like the code's
# The stages in the order a reader meets them (the pipeline), not in alphabetical order.
STAGES = ("evaluation", "pooling", "reliability", "assessor")
# Files that are not Python but are the point of their folder, with what they are.
EXTRA = {
    "focal/evaluation/measures/trec_eval/kernel": {
        "_article_kernel.c": "The C part: plain TREC runs and qrels read, pairs looked up (built by"
        " the install when a compiler is there)",
    },
}
SKIPPED = {"versions", "__pycache__"}


def first_line(path: Path) -> str:
    """The first line of a module's docstring, without its closing period, cut at the last
    clause (`, `) that fits beside the names, or at a word when that clause would leave less
    than half of the room."""
    docstring = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
    line = docstring.strip().splitlines()[0] if docstring.strip() else ""
    line = line.rstrip(".").rstrip()
    room = WIDTH - COLUMN
    if len(line) <= room:
        return line
    cut = line.rfind(", ", 0, room + 1)
    if cut < room // 2:
        cut = line.rfind(" ", 0, room + 1)
    return line[:cut].rstrip(" ,:;(")


def _entry(depth: int, name: str, text: str) -> list[str]:
    head = "  " * depth + name
    if not text:
        return [head]
    if len(head) >= COLUMN:
        return [head + " ", " " * (COLUMN + 2) + text]
    return [head.ljust(COLUMN) + text]


def _folders(folder: Path) -> list[Path]:
    found = [p for p in folder.iterdir() if p.is_dir() and p.name not in SKIPPED]
    found = [p for p in found if (p / "__init__.py").exists() or any(p.glob("*.toml"))]
    if folder == REPOSITORY / "focal":
        return [folder / stage for stage in STAGES]
    return sorted(found)


def _lines(folder: Path, depth: int) -> list[str]:
    relative = folder.relative_to(REPOSITORY).as_posix()
    init = folder / "__init__.py"
    lines = _entry(depth, folder.name + "/", first_line(init) if init.exists() else "")
    for module in sorted(folder.glob("*.py")):
        if module.name != "__init__.py":
            lines += _entry(depth + 1, module.name, first_line(module))
    for name, text in EXTRA.get(relative, {}).items():
        lines += _entry(depth + 1, name, text)
    if not init.exists():  # a data folder (the display profiles): its README says what it holds
        return lines
    for child in _folders(folder):
        lines += _lines(child, depth + 1)
    return lines


def tree() -> str:
    """The `focal/` block of the tree as the page shows it."""
    return "\n".join(_lines(REPOSITORY / "focal", 0)) + "\n"


def shown(page: str) -> str:
    """The `focal/` block the page holds now: from `focal/` to the first line outside it."""
    start = page.index("\nfocal/") + 1
    end = page.index("\ntemplates/", start) + 1
    return page[start:end]


def main() -> int:
    page = PAGE.read_text("utf-8")
    PAGE.write_text(page.replace(shown(page), tree()), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
