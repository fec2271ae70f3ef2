"""The package page (docs/package.md, pyproject.toml's `readme`) reads right where it is shown,
away from the repository: every link is absolute and points to the project's home, it shows no
developer's step, and its example runs."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PAGE_PATH = REPOSITORY / PROJECT["readme"]
PAGE = PAGE_PATH.read_text(encoding="utf-8")
# Markdown links and images `[text](target)`, reference definitions `[name]: target`, HTML
# `href=`/`src=` attributes and autolinks `<target>`.
TARGETS = re.compile(
    r"\]\(\s*<?([^)\s>]+)|^\s*\[[^\]]+\]:\s*(\S+)|(?:href|src)=[\"']([^\"']+)|<([a-z]+:[^>\s]+)>",
    re.MULTILINE,
)


def _targets(text: str) -> list[str]:
    return [next(group for group in match.groups() if group) for match in TARGETS.finditer(text)]


def test_the_readme_of_the_package_is_its_page() -> None:
    assert PAGE_PATH == REPOSITORY / "docs" / "package.md"


def test_the_link_finder_sees_relative_links() -> None:
    sample = "[a](docs/x.md) ![b](../p.png)\n[c]: ./y.md\n<a href='z.html'>z</a>"
    assert _targets(sample) == ["docs/x.md", "../p.png", "./y.md", "z.html"]


def test_every_link_is_absolute_and_points_home() -> None:
    home = PROJECT["urls"]["Source"]
    targets = _targets(PAGE)
    assert len(targets) >= 5
    for target in targets:
        assert target.startswith(f"{home}/") or target == home, target


def test_the_page_shows_the_install_and_no_developer_steps() -> None:
    assert re.search(r"^    pip install focal$", PAGE, re.MULTILINE)
    assert "compiler" in PAGE
    for developer in ("make ", ".venv", "pytest", "git clone"):
        assert developer not in PAGE, developer


def test_the_example_runs_and_prints_its_measures() -> None:
    (example,) = re.findall(r"```python\n(.*?)```", PAGE, re.DOTALL)
    assert len(example.strip().splitlines()) <= 6
    done = subprocess.run(
        [sys.executable, "-c", example], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()[0], done.stdout.splitlines()[-1]
    assert header.split() == ["AP", "nDCG@10", "P@1"] and row.split()[0] == "bm25"
