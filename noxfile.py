"""The core tests on every CPython Focal supports: 3.11, 3.12 and 3.13 (docs/packaging.md).

`make nox` runs them (it installs nox into .venv and puts pyenv's interpreters on PATH); `nox -s
core-3.13` runs one. Each session builds the sdist, installs it (not editable: the installed
package, its C part built for that Python, no extra but the test tools) and runs
`focal --version`, `focal eval` on the demo files and a fast, meaningful part of the tests: the
Python API, the C readers against the Python ones, the article engine against pytrec_eval and
trec_eval 10.0's quicktest (which skips, saying so, without ../shared/data).
"""

from __future__ import annotations

from pathlib import Path

import nox

PYTHONS = ["3.11", "3.12", "3.13"]
ROOT = Path(__file__).resolve().parent
CORE_TESTS = [
    "tests/focal",
    "tests/evaluation/cli/test_trec_eval_quicktest.py",
    "tests/evaluation/measures/trec_eval/test_plain_files.py",
    "tests/evaluation/measures/trec_eval/test_trec_run.py",
]
# What those tests import besides Focal and its dependencies (pyproject.toml's `test` extra
# pins the same tools for the full suite).
TEST_TOOLS = ["pytest>=8", "hypothesis>=6.100", "ir_measures>=0.3", "pytrec_eval-terrier>=0.5"]
# The tests turn warnings into errors (pyproject.toml); ir_measures' name parser still uses
# `ast.Num` and its `n`, which CPython 3.13 deprecates: its warnings, and only they, stay warnings.
WARNINGS = ["-W", "ignore::DeprecationWarning:ir_measures.util"]

nox.options.default_venv_backend = "venv"
nox.options.error_on_missing_interpreters = True  # a missing Python fails, never skips
nox.options.sessions = ["core"]


@nox.session(python=PYTHONS)
def core(session: nox.Session) -> None:
    """Install Focal from its sdist and run the core tests with this Python."""
    session.install("build")
    dist = Path(session.create_tmp()) / "dist"
    for old in dist.glob("focal-*.tar.gz"):
        old.unlink()
    session.run("python", "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT), silent=True)
    (sdist,) = dist.glob("focal-*.tar.gz")
    # the C part must build (FOCAL_BUILD_C=1): its tests here would otherwise skip
    session.install(str(sdist), *TEST_TOOLS, env={"FOCAL_BUILD_C": "1"})
    # From a folder outside the checkout, so that `import focal` cannot find the source tree.
    session.chdir(session.create_tmp())
    session.run(
        "python",
        "-c",
        "import focal, pathlib, sys; "
        "assert pathlib.Path(focal.__file__).is_relative_to(sys.prefix), focal.__file__",
    )
    session.run("focal", "--version")
    demo = ROOT / "demo"
    session.run(
        "focal",
        "eval",
        str(demo / "qrels" / "demo.qrels"),
        *sorted(map(str, demo.glob("runs/*.run"))),
    )
    session.chdir(ROOT)
    session.run("pytest", "-q", "-p", "no:cacheprovider", *WARNINGS, *CORE_TESTS, *session.posargs)
