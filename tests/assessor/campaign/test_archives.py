"""Archives refused in words (encrypted members, compression methods zipfile cannot read), and
unpacking bounded in bytes decompressed and time, skipped members included."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from focal.assessor.campaign.setup.archives import unpack_archive
from focal.assessor.campaign.setup.uploads import UploadError, UploadLimits

ARTICLE = b"<article><title>A</title><bdy><p>Text.</p></bdy></article>"
MIB = 1024**2


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _patch_headers(path: Path, offset_local: int, offset_central: int, value: bytes) -> None:
    """Overwrite a field of every local and central header (zipfile writes neither encrypted
    members nor Deflate64 ones, so the test archives are made by patching a normal one)."""
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", offset_local), (b"PK\x01\x02", offset_central)):
        start = data.find(signature)
        while start != -1:
            data[start + offset : start + offset + len(value)] = value
            start = data.find(signature, start + 4)
    path.write_bytes(bytes(data))


def test_an_encrypted_zip_member_is_refused_in_words(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "c.zip", {"1.xml": ARTICLE})
    # The general-purpose flags: offset 6 in a local header, 8 in a central one; bit 0 encrypted.
    _patch_headers(archive, 6, 8, b"\x01\x00")
    with pytest.raises(UploadError, match=r"'1.xml' is encrypted \(password-protected\)"):
        unpack_archive(archive, "c.zip", tmp_path, UploadLimits())
    assert not (tmp_path / "1.xml").exists()


def test_a_member_compressed_with_deflate64_is_refused_in_words(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "c.zip", {"1.xml": ARTICLE})
    # The compression method: offset 8 in a local header, 10 in a central one; 9 is Deflate64.
    _patch_headers(archive, 8, 10, b"\x09\x00")
    with pytest.raises(UploadError, match="compressed with Deflate64, which Focal cannot read"):
        unpack_archive(archive, "c.zip", tmp_path, UploadLimits())


def test_an_unreadable_member_that_is_skipped_does_not_matter(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "c.zip", {"notes.txt": b"x", "1.xml": ARTICLE})
    data = bytearray(archive.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        first = data.find(signature)  # only the first member, notes.txt
        data[first + offset] = 1
    archive.write_bytes(bytes(data))
    (tmp_path / "out").mkdir()
    assert unpack_archive(archive, "c.zip", tmp_path / "out", UploadLimits()) == 1


def _tar_gz(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_skipped_tar_gz_member_is_bounded_as_it_is_decompressed(tmp_path: Path) -> None:
    # 32 MiB of zeros compress to about 32 KiB: the skipped member alone is 32 times the bound.
    archive = _tar_gz(tmp_path / "c.tar.gz", {"big.bin": bytes(32 * MIB), "1.xml": ARTICLE})
    assert archive.stat().st_size < MIB
    limits = UploadLimits(skipped_bytes=MIB)
    (tmp_path / "out").mkdir()
    with pytest.raises(UploadError, match=r"not imported .* more than 1048576 bytes once decomp"):
        unpack_archive(archive, "c.tar.gz", tmp_path / "out", limits)


def test_a_skipped_zip_member_is_never_decompressed(tmp_path: Path) -> None:
    # The same 32 MiB member in a zip: read at random, it is never opened, so a bound of
    # 1 MiB decompressed lets the one article through.
    archive = _zip(tmp_path / "c.zip", {"big.bin": bytes(32 * MIB), "1.xml": ARTICLE})
    (tmp_path / "out").mkdir()
    limits = UploadLimits(skipped_bytes=MIB)
    assert unpack_archive(archive, "c.zip", tmp_path / "out", limits) == 1
    assert (tmp_path / "out" / "1.xml").read_bytes() == ARTICLE


@pytest.mark.parametrize("name", ["c.zip", "c.tar.gz"])
def test_unpacking_is_bounded_in_time(tmp_path: Path, name: str) -> None:
    members = {"1.xml": ARTICLE}
    archive = (_zip if name.endswith(".zip") else _tar_gz)(tmp_path / name, members)
    (tmp_path / "out").mkdir()
    with pytest.raises(UploadError, match="unpacking took longer than 0 seconds"):
        unpack_archive(archive, name, tmp_path / "out", UploadLimits(seconds=0))
