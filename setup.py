"""How an install builds Focal's optional C part, and what that part is (`KERNEL`).

The C part only makes the article engine faster; without it Focal reads files with pyarrow and
looks pairs up with numpy, giving the same results (docs/trec_eval.md, "The C part"). So an
install goes on without it when it cannot be built, with one line saying why instead of a
compiler's errors, and `FOCAL_BUILD_C` decides at build time:

- `auto` (the default): build it when a working C compiler and the Python headers are there;
- `0`: never build it (the install is pure Python and numpy);
- `1`: build it or fail (wheels that must carry it).

The C part is built under CPython 3.11's limited API, so one build, in a wheel tagged
`cp311-abi3`, serves every CPython from 3.11 on (docs/packaging.md). It is declared here rather
than in pyproject.toml, whose `ext-modules` and `[tool.distutils]` tables setuptools still calls
experimental (a warning in every install's output); everything else is in pyproject.toml.
`setup()` runs only as the build runs this file (its `__main__`), so tests may read `KERNEL`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, LinkError, PlatformError

_FOLDER = "focal/evaluation/measures/trec_eval/kernel/"
# The C part: plain TREC files read, pairs looked up (docs/trec_eval.md, "The C part").
KERNEL: dict[str, Any] = {
    "name": "focal.evaluation.measures.trec_eval.kernel._article_kernel",
    "sources": [
        _FOLDER + name
        for name in (
            "_article_kernel.c",
            "_kernel_index.c",
            "_kernel_pairs.c",
            "_kernel_plain.c",
            "_kernel_qrels.c",
            "_kernel_score.c",
            "_kernel_measures.c",
            "_kernel_measure_topics.c",
            "_kernel_rows.c",
            "_kernel_gains.c",
            "_kernel_gain_table.c",
            "_kernel_evaluate.c",
            "_kernel_topics.c",
            "_kernel_groups.c",
            "_kernel_ids.c",
            "_kernel_merge.c",
            "_kernel_text_rows.c",
        )
    ],
    "depends": [
        _FOLDER + "_article_kernel.h",
        _FOLDER + "_kernel_portable.h",
        _FOLDER + "_kernel_measures.h",
        _FOLDER + "_kernel_gains.h",
        _FOLDER + "_kernel_families.h",
        _FOLDER + "_kernel_pass.h",
    ],
    "define_macros": [("Py_LIMITED_API", "0x030B0000")],
}
LIMITED_API = "cp311"  # the wheel's tag: the oldest CPython whose limited API the C part uses
CHOICES = {"auto": "auto", "": "auto", "1": "1", "0": "0"}
SKIPPED = "focal: the optional C speed-up was not built ({why}); Focal uses its numpy path"
NO_COMPILER = (
    "no working C compiler: install gcc (or clang) and the Python headers for it, e.g. "
    "Debian's gcc and python3-dev"
)
# the optimisation docs/performance.md measured, and the warnings the C part is kept free of,
# in each compiler's spelling; no fused multiply-adds (where the target has them, a contracted
# a·b + c rounds once, and the C families' values would differ from numpy's in the last bit)
FLAGS = {
    "unix": ["-O2", "-Wall", "-Wextra", "-ffp-contract=off"],
    "mingw32": ["-O2", "-Wall", "-Wextra", "-ffp-contract=off"],
    "msvc": ["/O2", "/W3"],
}
PROBE = "#include <Python.h>\nint focal_probe(void) { return PY_VERSION_HEX > 0; }\n"


def build_choice() -> str:
    """`FOCAL_BUILD_C`, checked: an unknown value stops the build (exit code 2), naming the
    values it takes."""
    value = os.environ.get("FOCAL_BUILD_C", "auto").strip().lower()
    if value not in CHOICES:
        print(f"focal: FOCAL_BUILD_C must be auto, 1 or 0, not {value!r}", file=sys.stderr)
        raise SystemExit(2)
    return CHOICES[value]


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """Standard output and error, of this process and the compiler it starts, to nowhere."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    try:
        with open(os.devnull, "w") as nowhere:
            os.dup2(nowhere.fileno(), 1)
            os.dup2(nowhere.fileno(), 2)
            yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


class OptionalBuild(build_ext):
    """`build_ext` that builds the C part only when `FOCAL_BUILD_C` and the compiler allow,
    and otherwise says so in one line (docs/trec_eval.md, "The C part")."""

    def build_extension(self, ext: Any) -> None:
        choice = build_choice()
        if choice == "0":
            print(SKIPPED.format(why="FOCAL_BUILD_C=0"), file=sys.stderr)
            return
        if choice == "auto" and not self._compiler_works(ext):
            print(SKIPPED.format(why=NO_COMPILER), file=sys.stderr)
            return
        ext.extra_compile_args = [
            *ext.extra_compile_args,
            *FLAGS.get(self.compiler.compiler_type, []),
        ]
        if choice == "1":
            ext.optional = False  # a failure stops the build
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, LinkError, PlatformError) as error:
            if not ext.optional:
                raise
            print(SKIPPED.format(why=f"the C compiler failed on it: {error}"), file=sys.stderr)

    def _compiler_works(self, ext: Any) -> bool:
        """Whether the compiler builds a file that includes Python.h, with the C part's own
        include folders and macros (its errors, which may be many lines, unseen)."""
        with tempfile.TemporaryDirectory(prefix="focal-probe-") as folder:
            source = os.path.join(folder, "probe.c")
            with open(source, "w", encoding="ascii") as stream:
                stream.write(PROBE)
            try:
                with silenced():
                    self.compiler.compile(
                        [source],
                        output_dir=folder,
                        macros=ext.define_macros,
                        include_dirs=[*self.include_dirs, *ext.include_dirs],
                    )
            except Exception:  # any failure to compile means: no working compiler here
                return False
        return True


if __name__ == "__main__":
    setup(
        cmdclass={"build_ext": OptionalBuild},
        ext_modules=[Extension(**KERNEL, py_limited_api=True, optional=True)],
        options={"bdist_wheel": {"py_limited_api": LIMITED_API}},
    )
