"""Archives of an uploaded collection unpacked member by member, within bounds of size and time.

No Flask. An entry with an absolute path or a `..` component, a link or a device is refused;
only `*.xml` files are written, flattened into one folder (the importer reads `DIR/*.xml`).
Bounds, counted as the bytes come out of the decompressor (an archive can lie about sizes):

- the number of entries and the bytes written (`UploadLimits.entries`, `unpacked_bytes`);
- the bytes decompressed but not written, those of skipped members (`skipped_bytes`, 1 GiB):
  a zip is read at random, so its skipped members are never decompressed at all; a compressed
  tar is one stream, so reaching the next member means decompressing the one before, and a
  small `.tar.gz` whose skipped member expands to gigabytes is stopped at this bound. All the
  bytes decompressed are thus at most `unpacked_bytes + skipped_bytes`;
- the time spent (`seconds`), checked at every block read.

A zip member that is encrypted, or compressed by a method Python's zipfile cannot read
(Deflate64, Zstandard, PPMd, ...), is refused by name before anything is decompressed, in words
rather than as the library's exception. The caller removes the folder on any refusal
(`uploads.removed_on_failure`), so a refused archive leaves nothing behind.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import time
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import IO

from focal.assessor.campaign.setup.uploads import (
    CHUNK,
    UploadError,
    UploadLimits,
    disk_full,
    save_stream,
)

READABLE_METHODS = {
    zipfile.ZIP_STORED: "stored",
    zipfile.ZIP_DEFLATED: "Deflate",
    zipfile.ZIP_BZIP2: "bzip2",
    zipfile.ZIP_LZMA: "LZMA",
}
OTHER_METHODS = {
    9: "Deflate64",
    93: "Zstandard",
    95: "xz",
    96: "JPEG",
    97: "WavPack",
    98: "PPMd",
    99: "AES encryption",
}
ENCRYPTED_FLAG = 0x1


class _Budget:
    """Bytes decompressed but not written, and time spent, by one archive, refused beyond
    their bounds (`written` tells how many of the bytes read were written)."""

    def __init__(self, archive: str, limits: UploadLimits, written: Callable[[], int]) -> None:
        self.archive, self.limits, self.written = archive, limits, written
        self.read = 0
        self.deadline = time.monotonic() + limits.seconds

    def spend(self, count: int) -> None:
        self.read += count
        # A block being written is read before it is written: one block (1 MiB) of slack.
        if self.read - self.written() > self.limits.skipped_bytes + CHUNK:
            raise UploadError(
                f"{self.archive}: the members that are not imported (not *.xml) hold more than "
                f"{self.limits.skipped_bytes} bytes once decompressed; nothing was imported"
            )
        if time.monotonic() > self.deadline:
            raise UploadError(
                f"{self.archive}: unpacking took longer than {self.limits.seconds:g} seconds; "
                "nothing was imported"
            )


class _Metered:
    """A readable stream whose every read is charged to a `_Budget`."""

    def __init__(self, stream: IO[bytes] | io.BufferedIOBase, budget: _Budget) -> None:
        self.stream, self.budget = stream, budget

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = 1 << 20  # never everything at once: the bound is checked block by block
        data = self.stream.read(size)
        self.budget.spend(len(data))
        return data


def _member_parts(archive: str, name: str) -> tuple[str, ...]:
    """The path of an archive entry as parts; refuses one that would leave the folder."""
    cleaned = name.replace("\\", "/")
    path = PurePosixPath(cleaned)
    absolute = cleaned.startswith("/") or (len(cleaned) > 1 and cleaned[1] == ":")
    if absolute or ".." in path.parts or "\x00" in cleaned:
        raise UploadError(
            f"{archive}: entry {name!r} points outside the archive (an absolute path or ..); "
            "nothing was imported"
        )
    return tuple(part for part in path.parts if part not in ("", "."))


class _Unpacker:
    """Writes the `*.xml` members of one archive into one folder, within the limits."""

    def __init__(self, archive: str, directory: Path, limits: UploadLimits) -> None:
        self.archive, self.directory, self.limits = archive, directory, limits
        self.entries = 0
        self.budget = limits.unpacked_bytes
        self.written: list[Path] = []
        self.spent = _Budget(archive, limits, lambda: limits.unpacked_bytes - self.budget)

    def entry(self, name: str) -> str | None:
        """Check one member; the file name to write it as, or None when it is skipped."""
        self.entries += 1
        if self.entries > self.limits.entries:
            raise UploadError(f"{self.archive}: more than {self.limits.entries} entries")
        parts = _member_parts(self.archive, name)
        if not parts or not parts[-1].endswith(".xml") or parts[-1].startswith("."):
            return None
        return parts[-1]

    def write(self, base: str, stream: IO[bytes], shown: str) -> None:
        target = self.directory / base
        if target.exists():
            raise UploadError(f"{self.archive}: two entries named {base} ({shown})")
        self.budget -= save_stream(stream, target, self.budget, f"{self.archive}: {shown}")
        self.written.append(target)


def unpack_archive(archive: Path, shown: str, directory: Path, limits: UploadLimits) -> int:
    """Unpack the `*.xml` files of a zip or tar archive into `directory`; how many."""
    unpacker = _Unpacker(shown, directory, limits)
    try:
        if zipfile.is_zipfile(archive):
            _unpack_zip(archive, unpacker)
        else:
            _unpack_tar(archive, unpacker)
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError) as error:
        raise UploadError(f"{shown}: not a readable .zip or .tar.gz archive ({error})") from None
    except OSError as error:  # gzip's and bz2's own complaints about their streams
        full = disk_full(error, shown)  # unless the disk filled up
        if full is not None:
            raise full from None
        raise UploadError(f"{shown}: not a readable .zip or .tar.gz archive ({error})") from None
    if not unpacker.written:
        raise UploadError(f"{shown}: the archive holds no *.xml file")
    return len(unpacker.written)


def _unreadable(info: zipfile.ZipInfo) -> str | None:
    """Why zipfile cannot read a member, in words (None when it can)."""
    if info.flag_bits & ENCRYPTED_FLAG:
        return "is encrypted (password-protected); upload an archive without a password"
    if info.compress_type not in READABLE_METHODS:
        method = OTHER_METHODS.get(info.compress_type, f"method number {info.compress_type}")
        readable = ", ".join(READABLE_METHODS.values())
        return f"is compressed with {method}, which Focal cannot read (it reads {readable})"
    return None


def _unpack_zip(archive: Path, unpacker: _Unpacker) -> None:
    with zipfile.ZipFile(archive) as opened:
        members = opened.infolist()
        for info in members:  # every entry is checked before anything is decompressed
            base = unpacker.entry(info.filename)
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                raise UploadError(
                    f"{unpacker.archive}: entry {info.filename!r} is a link; nothing was imported"
                )
            reason = None if base is None or info.is_dir() else _unreadable(info)
            if reason is not None:
                raise UploadError(
                    f"{unpacker.archive}: entry {info.filename!r} {reason}; nothing was imported"
                )
        unpacker.entries = 0
        for info in members:  # skipped members are never opened, so never decompressed
            base = unpacker.entry(info.filename)
            if info.is_dir() or base is None:
                continue
            with opened.open(info) as stream:
                unpacker.write(base, _Metered(stream, unpacker.spent), info.filename)  # type: ignore[arg-type]


def _decompressed(archive: Path) -> io.BufferedIOBase:
    """The archive's bytes after its compression (gzip, bzip2, xz, or none), by magic number."""
    with archive.open("rb") as probe:
        magic = probe.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.open(archive, "rb")
    if magic.startswith(b"BZh"):
        return bz2.open(archive, "rb")
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.open(archive, "rb")
    return archive.open("rb")


def _unpack_tar(archive: Path, unpacker: _Unpacker) -> None:
    """One pass over the tar stream: each member is checked as it comes, and only `*.xml`
    files are written (a refusal later removes what was written, with the folder)."""
    with _decompressed(archive) as raw:
        metered = _Metered(raw, unpacker.spent)
        with tarfile.open(fileobj=metered, mode="r|") as opened:  # type: ignore[call-overload]
            for member in opened:
                base = unpacker.entry(member.name)
                if not (member.isfile() or member.isdir()):
                    raise UploadError(
                        f"{unpacker.archive}: entry {member.name!r} is a link or a device; "
                        "nothing was imported"
                    )
                if not member.isfile() or base is None:
                    continue
                stream = opened.extractfile(member)
                if stream is not None:
                    with stream:
                        unpacker.write(base, stream, member.name)
