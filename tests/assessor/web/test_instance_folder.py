"""Where a server keeps its database: the per-user data folder, and the folder an earlier Focal
used (its package was then the top-level `assessor`, whose Flask default was `instance/` of the
checkout or `<venv>/var/assessor-instance`), named only while it holds a database the current
folder lacks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from focal.assessor.web import app


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(the current instance folder, an installed package's earlier one), both empty."""
    monkeypatch.delenv("FOCAL_INSTANCE", raising=False)
    current = tmp_path / "data"
    monkeypatch.setattr(app, "instance_folder", lambda: current)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    earlier = tmp_path / "venv" / "var" / "assessor-instance"
    earlier.mkdir(parents=True)
    current.mkdir()
    return current, earlier


def test_an_earlier_database_is_named_until_the_current_folder_has_one(
    folders: tuple[Path, Path],
) -> None:
    current, earlier = folders
    assert app.earlier_instance_folder() is None  # nothing there: nothing to say
    (earlier / "focal.sqlite").write_bytes(b"")
    assert app.earlier_instance_folder() == earlier
    (current / "focal.sqlite").write_bytes(b"")
    assert app.earlier_instance_folder() is None


def test_a_chosen_instance_folder_is_never_second_guessed(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, earlier = folders
    (earlier / "focal.sqlite").write_bytes(b"")
    monkeypatch.setenv("FOCAL_INSTANCE", str(earlier.parent / "chosen"))
    assert app.earlier_instance_folder() is None


def test_the_app_is_named_for_its_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOCAL_INSTANCE", str(tmp_path / "instance"))
    flask_app = app.create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    assert flask_app.name == "focal.assessor.web"
    assert Path(flask_app.template_folder or "").is_dir()
