"""The tree keeps its shape: families in folders of at most 12 modules, each folder saying what
lives there, and docs/architecture.md showing every one of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
PACKAGES = ("focal",)
MOST_MODULES = 12


def _package_folders() -> list[Path]:
    folders = []
    for top in PACKAGES:
        for init in sorted((REPOSITORY / top).rglob("__init__.py")):
            if "versions" not in init.parts:
                folders.append(init.parent)
    return folders


FOLDERS = _package_folders()


def _name(folder: Path) -> str:
    return folder.relative_to(REPOSITORY).as_posix()


@pytest.mark.parametrize("folder", FOLDERS, ids=_name)
def test_a_package_folder_holds_at_most_twelve_modules(folder: Path) -> None:
    modules = [p.name for p in folder.glob("*.py") if p.name != "__init__.py"]
    assert len(modules) <= MOST_MODULES, f"{_name(folder)}: {len(modules)} modules"


@pytest.mark.parametrize("folder", FOLDERS, ids=_name)
def test_a_package_says_what_lives_there(folder: Path) -> None:
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8")))
    assert docstring and "TODO" not in docstring, _name(folder)


def test_the_architecture_page_shows_every_package_folder() -> None:
    page = (REPOSITORY / "docs" / "architecture.md").read_text("utf-8")
    tree = page[page.index("## The tree") : page.index("## Import rules")]
    # Each folder is a line `<indent><name>/` whose indentation gives its depth.
    shown: set[str] = set()
    path: list[str] = []
    for line in tree.splitlines():
        stripped = line.lstrip(" ")
        name = stripped.split(" ", 1)[0]
        if not name.endswith("/") or line.startswith(" " * 28):
            continue
        depth = (len(line) - len(stripped)) // 2
        path = [*path[:depth], name.rstrip("/")]
        shown.add("/".join(path))
    missing = [_name(f) for f in FOLDERS if _name(f) not in shown]
    assert not missing, f"docs/architecture.md does not show {missing}"


def test_the_architecture_page_shows_the_tree_as_generated() -> None:
    """The page's `focal/` block is what tests/architecture_tree.py prints from the source
    (`python tests/architecture_tree.py` rewrites it)."""
    from .architecture_tree import PAGE, shown, tree

    assert shown(PAGE.read_text("utf-8")) == tree(), "run: python tests/architecture_tree.py"


MOST_COMPLEXITY = 25  # radon's cyclomatic complexity of one function or method


def test_no_function_is_more_complex_than_twenty_five() -> None:
    """Every function of `focal/` stays one readable piece: radon's cyclomatic complexity (one
    plus its decisions) at most 25; one above it is split where that makes it clearer."""
    from radon.complexity import cc_visit
    from radon.visitors import Function

    offenders = [
        f"{path.relative_to(REPOSITORY).as_posix()}:{block.lineno} {block.fullname} "
        f"({block.complexity})"
        for path in sorted((REPOSITORY / "focal").rglob("*.py"))
        for block in cc_visit(path.read_text("utf-8"))
        if isinstance(block, Function) and block.complexity > MOST_COMPLEXITY
    ]
    assert not offenders, "more complex than 25:\n" + "\n".join(offenders)


def test_worker_processes_start_in_one_place() -> None:
    """Every pool of worker processes is `focal.evaluation.processes.map_on_processes`'s (start
    method, initializer, the worker's state): no other module of `focal/` makes one."""
    makers = ("ProcessPoolExecutor", "multiprocessing.Pool", "get_context(")
    home = REPOSITORY / "focal" / "evaluation" / "processes.py"
    elsewhere = [
        path.relative_to(REPOSITORY).as_posix()
        for path in sorted((REPOSITORY / "focal").rglob("*.py"))
        if path != home and any(maker in path.read_text("utf-8") for maker in makers)
    ]
    assert not elsewhere, elsewhere
