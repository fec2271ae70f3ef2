"""The sdist is the repository: every file git tracks (or will, once added) is in it but the
deliberate exclusions, nothing else is but the metadata the build writes, and its tests collect
where the shared INEX data is absent (MANIFEST.in, docs/packaging.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from .distributions import REPOSITORY, build_sdist

pytestmark = pytest.mark.slow
# Left out on purpose (MANIFEST.in says why): the CI's entry of the repository, git's own file.
EXCLUDED = (".ci/", ".gitignore")
# Written by the build into every sdist.
GENERATED = ("PKG-INFO", "setup.cfg", "focal.egg-info/")


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist unpacked in a temporary folder (whose parent holds no `shared/` data)."""
    folder = tmp_path_factory.mktemp("sdist")
    sdist = build_sdist(folder)
    with tarfile.open(sdist) as archive:
        archive.extractall(folder / "unpacked", filter="data")
    (top,) = (folder / "unpacked").iterdir()
    return top


def _checkout_files() -> set[str]:
    """Files git tracks or would add (not ignored), that exist in the working tree."""
    done = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPOSITORY, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"not a git checkout, nothing to compare the sdist with: {done.stderr.strip()}")
    return {name for name in done.stdout.split("\0") if name and (REPOSITORY / name).is_file()}


def _files(top: Path) -> set[str]:
    return {p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()}


def test_the_sdist_holds_every_tracked_file_and_nothing_else(unpacked: Path) -> None:
    checkout, shipped = _checkout_files(), _files(unpacked)
    wanted = {name for name in checkout if not name.startswith(EXCLUDED)}
    built = {name for name in shipped if not name.startswith(GENERATED)}
    assert sorted(wanted - built) == []  # tracked, but missing from the sdist
    assert sorted(built - wanted) == []  # in the sdist, but not tracked
    assert {"PKG-INFO", "noxfile.py", "Makefile", "LICENSE", "tests/conftest.py"} <= shipped
    assert not any(name.endswith((".so", ".pyc")) for name in shipped)


def test_the_tests_collect_from_the_unpacked_sdist(unpacked: Path) -> None:
    assert not (unpacked.parent / "shared").exists()  # the shared INEX data is absent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTEST_"))}
    done = subprocess.run(
        # -P: the folder's own `focal` (the sdist has no built C part) stays off sys.path; the
        # tests import this environment's.
        [sys.executable, "-P", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=unpacked, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    # a module that skips itself as a whole (a missing optional tool) is listed as skipped (-ra)
    skipped = set(re.findall(r"^SKIPPED \[\d+\] ([^:]+\.py):", done.stdout, re.MULTILINE))
    test_files = {p.relative_to(unpacked).as_posix() for p in unpacked.glob("tests/**/test_*.py")}
    assert collected | skipped == test_files  # every test file collected, none failing to import
    count = re.search(r"(\d+) tests? collected", done.stdout)
    assert count is not None and int(count.group(1)) >= len(test_files)
