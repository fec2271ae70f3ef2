"""Material that reaches an import through the web: files kept, archives unpacked, paths checked.

No Flask. The collection importer keeps each document's path and re-reads the text from it
later, so uploaded files are kept in the data folder (`instance/data/uploads/KIND/STAMP-HEX/`),
never in a temporary folder that disappears. `removed_on_failure` removes that folder again when the
import fails, so a refused upload leaves nothing behind, and names a bad file as it was uploaded.

Archives (`.zip`, `.tar.gz`, `.tgz`, `.tar`) are unpacked by `archives`, member by member,
within the bounds of `UploadLimits`. A disk that fills up while files are written is said as
such (`DiskFull`: "no space left on device", errno 28), never as a bad upload or archive. XML
is parsed later by the importers, which never fetch anything from the network.

A path on the server is read only under the folders of the `IMPORT_ROOTS` setting
(`FOCAL_IMPORT_ROOTS`, separated by the system's path separator); the path is resolved first,
so neither `..` nor a symbolic link leads outside them.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.store.db import out_of_space
from focal.evaluation.errors import FormatError
from focal.settings import split_folders

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
CHUNK = 1 << 20


class UploadError(CampaignError):
    """An upload or a server path that cannot be imported (the message names it and why)."""


class DiskFull(UploadError):
    """No space left where the upload is written: the disk's fault, not the material's."""


def disk_full(error: OSError, shown: str) -> DiskFull | None:
    """The refusal to give when `error` is a full disk (None for any other error)."""
    if not out_of_space(error):
        return None
    return DiskFull(
        f"{shown}: no space left on device (errno {error.errno}) while writing the uploaded "
        "files into the instance folder; nothing was imported: free some space and import again"
    )


@dataclass(frozen=True, slots=True)
class UploadLimits:
    """Bounds on what one upload may write into the data folder."""

    entries: int = 200_000  # members of an archive
    unpacked_bytes: int = 4 * 1024**3  # bytes written, all files together
    skipped_bytes: int = 1024**3  # bytes decompressed from members that are not written
    seconds: float = 600.0  # time spent unpacking one archive


def data_directory(instance_path: str | Path) -> Path:
    """The folder where uploaded material is kept: `instance/data`."""
    return Path(instance_path) / "data"


def new_upload_folder(data_dir: Path, kind: str) -> Path:
    """A new, empty folder for one upload of `kind` under `data_dir/uploads`."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    directory = data_dir / "uploads" / kind / f"{stamp}-{secrets.token_hex(4)}"
    directory.mkdir(parents=True)
    return directory


@contextmanager
def removed_on_failure(directory: Path) -> Iterator[Path]:
    """Remove `directory` if the body raises; a FormatError names the file as uploaded."""
    try:
        yield directory
    except FormatError as error:
        shutil.rmtree(directory, ignore_errors=True)
        raise FormatError(_as_uploaded(error.file, directory), error.line, error.message) from None
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _as_uploaded(file: str, directory: Path) -> str:
    for prefix in {str(directory), str(directory.resolve())}:
        if file.startswith(prefix + os.sep):
            return file[len(prefix) + 1 :]
    return file


def upload_name(name: str) -> str:
    """The file name of an upload without any folder part; refuses names that are no file name."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if base in ("", ".", "..") or "\x00" in base or base.startswith("."):
        raise UploadError(f"{name!r}: expected a file name")
    return base


def is_archive(name: str) -> bool:
    """True for the archive names an upload may unpack."""
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def save_stream(stream: IO[bytes], target: Path, budget: int, shown: str) -> int:
    """Copy `stream` into a new file `target` (at most `budget` bytes); the bytes written."""
    written = 0
    try:
        with target.open("xb") as output:
            while chunk := stream.read(CHUNK):
                written += len(chunk)
                if written > budget:
                    raise UploadError(f"{shown}: more than {budget} bytes; the upload is too large")
                output.write(chunk)
    except OSError as error:
        full = disk_full(error, shown)
        if full is not None:
            raise full from None
        raise
    return written


def save_xml_files(
    files: Sequence[tuple[str, IO[bytes]]], directory: Path, limits: UploadLimits
) -> int:
    """Save uploaded `*.xml` files into `directory`; how many (another name is refused)."""
    budget = limits.unpacked_bytes
    for name, stream in files:
        base = upload_name(name)
        if not base.endswith(".xml"):
            raise UploadError(f"{name}: expected an XML article (*.xml) or one archive")
        if (directory / base).exists():
            raise UploadError(f"{name}: a second file of that name")
        budget -= save_stream(stream, directory / base, budget, name)
    return len(files)


def import_roots(setting: object) -> list[Path]:
    """The folders of the `IMPORT_ROOTS` setting: a list, or one string split at `os.pathsep`."""
    if setting is None or setting == "":
        return []
    if isinstance(setting, str):
        values = split_folders(setting)
    elif isinstance(setting, list | tuple):
        values = [str(value) for value in setting]
    else:
        raise UploadError(f"IMPORT_ROOTS: expected folders separated by {os.pathsep!r} or a list")
    return [Path(value) for value in values if value.strip()]


def allowed_path(text: str, roots: Sequence[Path]) -> Path:
    """`text` as a resolved absolute path inside one of `roots` (UploadError otherwise)."""
    if not roots:
        raise UploadError(
            "importing from a path on the server is switched off: the setting "
            "FOCAL_IMPORT_ROOTS must list the folders it may read"
        )
    given = text.strip()
    if not given or "\x00" in given or not os.path.isabs(given):
        raise UploadError(f"{given!r}: expected an absolute path on the server")
    resolved = Path(given).resolve()
    for root in roots:
        base = root.resolve()
        if resolved == base or base in resolved.parents:
            if not resolved.exists():
                raise UploadError(f"{given}: no such file or folder")
            return resolved
    shown = ", ".join(str(root) for root in roots)
    raise UploadError(
        f"{given} is outside the folders imports may read ({shown}); FOCAL_IMPORT_ROOTS lists them"
    )


def allowed_folder_files(directory: Path, pattern: str, roots: Sequence[Path]) -> list[Path]:
    """The files of an allowed `directory` matching `pattern`, each one allowed too.

    A file may be a symbolic link: the one that leads outside the roots is refused by name.
    """
    return [allowed_path(str(path), roots) for path in sorted(directory.glob(pattern))]


def run_files(path: Path) -> list[Path]:
    """A run file, or every file of a folder of runs (sorted; hidden files left out)."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            raise UploadError(f"{path}: the folder holds no run file")
        return files
    return [path]
