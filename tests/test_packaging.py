"""The wheel: it lists every package, and installed outside the checkout it serves the assessor
and runs the Python API.

The second test is the check CI runs on every change: build the wheel from this checkout, install
it into a fresh virtualenv in a temporary folder (dependencies come from the package index, or
pip's cache), then `focal init-db` and `focal serve` from that folder, where the checkout's
`templates/` and `static/` cannot be found; `/login` and `/static/assess/main.js` (a file in a
subfolder of static/) must answer 200.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
import urllib.error
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from .conftest import serving
from .distributions import build_wheel

REPOSITORY = Path(__file__).resolve().parents[1]
ASSET_PACKAGES = {
    "focal.assessor.web.templates": "templates",
    "focal.assessor.web.static": "static",
    "focal.assessor.demo_material": "demo",
}


def _setuptools() -> dict[str, object]:
    config = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))
    section: dict[str, object] = config["tool"]["setuptools"]
    return section


def test_every_package_of_the_tree_is_listed_and_nothing_else() -> None:
    on_disk = set()
    for top in ("focal",):
        for folder in [REPOSITORY / top, *(REPOSITORY / top).rglob("*")]:
            if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py")):
                on_disk.add(".".join(folder.relative_to(REPOSITORY).parts))
    listed = set(_setuptools()["packages"])  # type: ignore[arg-type]
    assets = {name for name in listed if name.startswith(tuple(ASSET_PACKAGES))}
    assert listed - assets == on_disk  # asset folders are listed, so setuptools ships them
    assert _setuptools()["package-dir"] == ASSET_PACKAGES


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _wheel(tmp_path: Path) -> Path:
    """A wheel built by pip from the checkout's sdist (tests/distributions.py)."""
    return build_wheel(tmp_path)


@pytest.mark.slow
def test_the_wheel_ships_the_license_and_focal_demo_keeps_its_data_outside(
    tmp_path: Path,
) -> None:
    wheel = _wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert b"Classifier: License" not in metadata and b"License-Expression: MIT" in metadata
    assert "focal/assessor/demo_material/collection/1001.xml" in names
    # Fast: the wheel alone in a new environment that sees this one's packages (a path entry,
    # not a site folder, so this checkout's editable install is not among them).
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    ours = sysconfig.get_path("purelib")
    (Path(site) / "dependencies.pth").write_text(ours + "\n", encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON", "XDG_"))}
    env["HOME"] = str(home)
    done = subprocess.run(
        [str(environment / "bin" / "focal"), "demo", "--no-serve"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    # The default instance folder is the per-user data folder, printed, never in the venv.
    instance = home / ".local" / "share" / "focal"
    assert f"instance folder (database, secret key, uploads): {instance}" in done.stdout
    assert "demo ready: 44 documents, 5 topics, 4 runs" in done.stdout
    assert (instance / "focal.sqlite").is_file() and (instance / "secret_key").is_file()
    assert not any(environment.rglob("*.sqlite"))


@pytest.mark.slow
def test_a_wheel_installed_outside_the_checkout_serves_the_assessor(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path)
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"{wheel}[assessor]"],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON"))}
    env["FOCAL_DATABASE_URL"] = f"sqlite:///{elsewhere / 'focal.sqlite'}"
    env["FOCAL_SECRET_KEY"] = "wheel-test"
    where = subprocess.run(
        [str(python), "-c", "import focal.assessor.web.app as a; print(a.asset_dir('templates'))"],
        cwd=elsewhere,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(environment), where  # not the checkout's templates/
    session = (  # the Python API with pandas, installed as a dependency of the wheel
        "import focal, pandas as pd; q = pd.DataFrame({'query_id': ['1', '1'], 'doc_id': ['a', "
        "'b'], 'relevance': [1, 0]}); r = pd.DataFrame({'query_id': ['1', '1'], 'doc_id': ['b', "
        "'a'], 'score': [2.0, 1.0]}); print(focal.evaluate(q, r, ['AP'])['value'].item())"
    )
    api = subprocess.run(
        [str(python), "-c", session], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert api.returncode == 0 and api.stdout.strip() == "0.5", api.stderr
    focal = environment / "bin" / "focal"
    init = subprocess.run(
        [str(focal), "init-db"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert init.returncode == 0, init.stderr
    with serving(env, focal=focal, cwd=elsewhere) as served:
        base = served.base
        status, page = _get(base + "/login")
        assert status == 200 and b'name="csrf-token"' in page
        status, script = _get(base + "/static/assess/main.js")
        shipped = REPOSITORY / "static" / "assess" / "main.js"
        assert status == 200 and script == shipped.read_bytes()
        status, _ = _get(base + "/static/vendor/htmx-2.0.11.min.js")
        assert status == 200
