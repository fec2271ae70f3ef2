"""The article engine's C part for its tests: built apart from the install, loaded, and the
arrays of its tables.

`make sanitize` builds it once with the address and undefined-behaviour sanitizers into a
temporary folder (`python kernel_build.py FOLDER --sanitize` prints the module's path) and runs
the C part's tests against that build: `FOCAL_TEST_KERNEL=PATH` makes `kernel()` (and so every
test of this folder, through its conftest.py) use the module at PATH instead of the installed
one. test_kernel_fuzz.py builds the portable variant (`FOCAL_KERNEL_PORTABLE`: plain C for the
bit scans, byte-wise words, no SSE2) to check those ways on this machine too. The sources and
macros are setup.py's (`KERNEL`), so the build is the install's but for the flags.
docs/trec_eval.md, "The C part".
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[4]
NAME = "focal.evaluation.measures.trec_eval.kernel._article_kernel"
CHECKED = ["-O1", "-g", "-Wall", "-Wextra", "-Werror"]
SANITIZERS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
              "-fno-sanitize-recover=undefined"]  # fmt: skip


def extension() -> dict[str, Any]:
    """setup.py's declaration of the C part (`KERNEL`): its name, sources and macros (setup.py
    read as a module: its `setup()` runs only as the build's `__main__`)."""
    spec = importlib.util.spec_from_file_location("focal_setup", REPOSITORY / "setup.py")
    assert spec is not None and spec.loader is not None
    declared = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(declared)
    entry: dict[str, Any] = declared.KERNEL
    assert entry["name"] == NAME
    return entry


def compiler() -> list[str]:
    """The C compiler Python was built with (or $CC), as a command; [] when there is none."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    return command if command and shutil.which(command[0]) else []


def build(folder: Path, flags: list[str]) -> Path:
    """The C part compiled and linked into `folder` with `flags` added to CHECKED (warnings
    are errors); its path. Raises RuntimeError with the compiler's output when it fails."""
    entry = extension()
    command = compiler()
    if not command:
        raise RuntimeError("no C compiler (set CC)")
    macros = [f"-D{name}={value}" for name, value in entry.get("define_macros", [])]
    include = sysconfig.get_paths()["include"]
    output = folder / "_article_kernel.abi3.so"
    sources = [str(REPOSITORY / source) for source in entry["sources"]]
    done = subprocess.run(
        [*command, "-shared", "-fPIC", *CHECKED, *flags, *macros, f"-I{include}", *sources,
         "-o", str(output)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"building the C part failed:\n{done.stdout}{done.stderr}")
    return output


def load(path: Path | str, name: str = NAME) -> ModuleType:
    """The extension module at `path`, loaded under `name` (not put in sys.modules)."""
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def kernel() -> ModuleType:
    """The C part the tests use: the module at $FOCAL_TEST_KERNEL when set, else the installed
    one (ImportError when the install has none)."""
    given = os.environ.get("FOCAL_TEST_KERNEL")
    if given:
        return sys.modules.get(NAME) or load(given)
    from focal.evaluation.measures.trec_eval.kernel import _article_kernel

    return _article_kernel


def kernel_or_skip() -> ModuleType:
    """`kernel()`, or the calling test module skipped, with the reason, when the install has
    no C part (built without a C compiler): for the modules that test the C part alone."""
    try:
        return kernel()
    except ImportError:
        import pytest

        pytest.skip("the C part is not built in this install (no C compiler at install)",
                    allow_module_level=True)  # fmt: skip


def tables(pairs: list[tuple[int, bytes]], topics: int) -> dict[str, np.ndarray]:
    """The arrays of index_pairs for `pairs`, with empty slots (as trec_keys.PairIndex sizes
    them: a power of two at least twice each topic's rows)."""
    codes = np.array([c for c, _ in pairs], dtype=np.int32)
    ends = np.cumsum([0] + [len(d) for _, d in pairs]).astype(np.int32)
    sizes = np.bincount(codes, minlength=topics)
    spans = [1 << (2 * max(1, int(n)) - 1).bit_length() for n in sizes]
    bases = np.zeros(topics + 1, dtype=np.int64)
    np.cumsum(spans, out=bases[1:])
    data = np.frombuffer(b"".join(d for _, d in pairs), dtype=np.uint8)
    slots = np.zeros(int(bases[-1]), np.uint32)
    return {"codes": codes, "offsets": ends, "bytes": data, "bases": bases, "slots": slots}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where the module goes (an existing folder)")
    parser.add_argument("--sanitize", action="store_true", help="with ASan and UBSan")
    arguments = parser.parse_args()
    if not arguments.folder.is_dir():
        parser.error(f"{arguments.folder} is not a folder")
    try:
        print(build(arguments.folder, SANITIZERS if arguments.sanitize else []))
    except RuntimeError as error:
        print(f"kernel_build: {error}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
