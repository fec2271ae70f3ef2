"""Server paths allowed only under the configured roots, and names of uploaded files."""

from __future__ import annotations

from pathlib import Path

import pytest

from focal.assessor.campaign.setup.upload_imports import server_collection_folder, server_run_files
from focal.assessor.campaign.setup.uploads import (
    UploadError,
    allowed_path,
    import_roots,
    upload_name,
)


def test_a_path_under_a_root_is_allowed_and_resolved(tmp_path: Path) -> None:
    (tmp_path / "root" / "runs").mkdir(parents=True)
    assert (
        allowed_path(f"{tmp_path}/root/runs/../runs", [tmp_path / "root"])
        == (tmp_path / "root" / "runs").resolve()
    )


def test_a_link_out_of_a_root_and_relative_paths_are_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "out").symlink_to(outside)
    with pytest.raises(UploadError, match="is outside the folders imports may read"):
        allowed_path(str(root / "out"), [root])
    with pytest.raises(UploadError, match="expected an absolute path"):
        allowed_path("root/out", [root])
    with pytest.raises(UploadError, match="no such file or folder"):
        allowed_path(str(root / "missing"), [root])


def test_roots_come_from_a_list_or_a_path_separated_string(tmp_path: Path) -> None:
    assert import_roots(f"{tmp_path}/a:{tmp_path}/b") == [tmp_path / "a", tmp_path / "b"]
    assert import_roots([str(tmp_path)]) == [tmp_path]
    assert import_roots(None) == [] and import_roots("") == []


def test_upload_names_lose_their_folders_and_hidden_names_are_refused() -> None:
    assert upload_name("C:\\Users\\me\\1001.xml") == "1001.xml"
    assert upload_name("../../1001.xml") == "1001.xml"
    for bad in ("..", "", ".hidden.xml", "a/"):
        with pytest.raises(UploadError):
            upload_name(bad)


def test_a_collection_folder_with_an_article_linked_from_outside_is_refused(
    tmp_path: Path,
) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "collection").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.xml").write_text("<article/>", encoding="utf-8")
    (root / "collection" / "1.xml").write_text("<article/>", encoding="utf-8")
    assert (
        server_collection_folder(str(root / "collection"), [root])
        == (root / "collection").resolve()
    )
    (root / "collection" / "2.xml").symlink_to(outside / "secret.xml")
    with pytest.raises(UploadError, match=r"2\.xml is outside the folders imports may read"):
        server_collection_folder(str(root / "collection"), [root])
    (root / "runs").mkdir()
    (root / "runs" / "a.run").symlink_to(outside / "secret.xml")
    with pytest.raises(UploadError, match=r"a\.run is outside"):
        server_run_files([str(root / "runs")], [root])
