"""A full disk is said as such ("no space left on device", errno 28) wherever it surfaces in an
import: unpacking an archive, saving an uploaded file, and the database's own write; never as
"not a readable archive" or an unexpected failure."""

from __future__ import annotations

import errno
import io
import sqlite3
import zipfile
from pathlib import Path
from typing import IO, Any

import pytest
from flask import Flask
from sqlalchemy.exc import OperationalError

from focal.assessor.campaign.setup import archives, uploads
from focal.assessor.campaign.setup.archives import unpack_archive
from focal.assessor.campaign.setup.import_jobs import create_job, describe, run_requested
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.campaign.setup.upload_imports import LIMITS, receive
from focal.assessor.campaign.setup.uploads import DiskFull, save_stream
from focal.assessor.store import db
from focal.assessor.store.models import Document, ImportJob

from ...conftest import DEMO

NAMES = ["1001.xml", "1002.xml"]


def zipped(folder: Path) -> Path:
    """A readable zip of two demo articles."""
    path = folder / "two.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name in NAMES:
            archive.writestr(name, (DEMO / "collection" / name).read_bytes())
    return path


def no_space(*_: Any, **__: Any) -> int:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_while_unpacking_is_not_a_bad_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archives, "save_stream", no_space)
    target = tmp_path / "out"
    target.mkdir()
    with pytest.raises(DiskFull) as refused:
        unpack_archive(zipped(tmp_path), "two.zip", target, LIMITS)
    message = str(refused.value)
    assert "no space left on device (errno 28)" in message and "not a readable" not in message
    assert message.startswith("two.zip: ")


def test_a_real_enospc_from_the_kernel_while_saving_an_upload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/dev/full answers every write with ENOSPC: the file an upload is saved to is it."""
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full (Linux) to fill a disk without filling one")
    opened = Path.open

    def full_disk(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> IO[Any]:
        if self.name == "article.xml":
            return opened(Path("/dev/full"), mode.replace("x", "w"), *args, **kwargs)
        return opened(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", full_disk)
    stream = io.BytesIO(b"<article>" + b"x" * (3 << 20) + b"</article>")
    with pytest.raises(DiskFull, match=r"article\.xml: no space left on device"):
        save_stream(stream, tmp_path / "article.xml", 1 << 30, "article.xml")


def test_an_import_job_whose_disk_fills_says_so_and_keeps_nothing(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = zipped(tmp_path)
    with archive.open("rb") as stream:
        received = receive(tmp_path / "data", "collection", [("two.zip", stream)])
    monkeypatch.setattr(archives, "save_stream", no_space)
    job_id = create_job(
        db.session_factory(app), ImportRequest.uploaded("collection", received), None
    )
    run_requested(db.session_factory(app), job_id)
    with db.session_factory(app)() as session:
        job = session.get_one(ImportJob, job_id)
        assert job.status == "failed"
        assert "no space left on device" in job.message and "readable" not in job.message
        assert session.query(Document).count() == 0
    assert not received.directory.exists()


@pytest.mark.parametrize(
    "cause",
    [
        pytest.param("sqlite", id="sqlite-full"),
        pytest.param("postgresql", id="postgresql-disk-full"),
    ],
)
def test_the_database_full_is_said_as_such(cause: str) -> None:
    orig: Exception
    if cause == "sqlite":
        orig = sqlite3.OperationalError("database or disk is full")
        orig.sqlite_errorcode = 13  # type: ignore[attr-defined]  # as sqlite3 sets it
    else:
        orig = type("DiskFull", (Exception,), {"sqlstate": "53100"})("could not extend file")
    error = OperationalError("INSERT INTO documents ...", {}, orig)
    message = describe(error)
    assert message.startswith("no space left on device: the database could not store")
    assert db.out_of_space(error) and not db.out_of_space(OperationalError("x", {}, Exception()))
    assert uploads.disk_full(OSError(errno.EACCES, "Permission denied"), "a.xml") is None
