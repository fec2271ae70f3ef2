"""Imports of uploaded material and of server paths, with the importers `focal import` uses.

No Flask: the organiser's Import page (assessor/web/views/campaign_imports.py) calls these, and
they call `assessor.campaign.importing` exactly as the CLI does. Each one commits its session
itself, inside `stored_upload`, so a refused file or a failed commit removes the kept upload
again: either everything is stored (rows and files) or nothing is.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO

from sqlalchemy.orm import Session

from assessor.campaign.importing import import_collection, import_runs, import_topics
from assessor.campaign.uploads import (
    UploadError,
    UploadLimits,
    allowed_path,
    is_archive,
    run_files,
    save_stream,
    save_xml_files,
    stored_upload,
    unpack_archive,
    upload_name,
)

Upload = tuple[str, IO[bytes]]  # (the name the browser sent, its content)


def _archive_stem(name: str) -> str:
    base = upload_name(name)
    for suffix in (".tar.gz", ".tgz", ".zip", ".tar"):
        if base.lower().endswith(suffix):
            return base[: -len(suffix)]
    return base


def _one_file(files: Sequence[Upload], what: str) -> Upload:
    if len(files) != 1:
        raise UploadError(f"expected one {what} file, got {len(files)}")
    return files[0]


def upload_collection(
    session: Session,
    data_dir: Path,
    files: Sequence[Upload],
    name: str | None,
    limits: UploadLimits = UploadLimits(),  # noqa: B008 (frozen, never changed)
) -> tuple[str, int]:
    """Keep the uploaded articles (`*.xml` files, or one archive of them) and import them.

    Returns the collection's name and the number of documents. The name defaults to the
    archive's name without its suffix, or `uploaded` for loose files.
    """
    if not files:
        raise UploadError("choose the collection's *.xml files or one .zip or .tar.gz archive")
    with stored_upload(data_dir, "collections") as directory:
        if len(files) == 1 and is_archive(files[0][0]):
            shown, stream = files[0]
            archive = directory / "archive.upload"
            save_stream(stream, archive, limits.unpacked_bytes, shown)
            unpack_archive(archive, upload_name(shown), directory, limits)
            archive.unlink()
            chosen = name or _archive_stem(shown)
        else:
            save_xml_files(files, directory, limits)
            chosen = name or "uploaded"
        count = import_collection(session, directory, chosen)
        session.commit()
    return chosen, count


def upload_topics(
    session: Session,
    data_dir: Path,
    files: Sequence[Upload],
    limits: UploadLimits = UploadLimits(),  # noqa: B008
) -> int:
    """Keep an uploaded INEX topics file and import its topics; how many."""
    shown, stream = _one_file(files, "topics")
    with stored_upload(data_dir, "topics") as directory:
        target = directory / upload_name(shown)
        save_stream(stream, target, limits.unpacked_bytes, shown)
        count = import_topics(session, target)
        session.commit()
    return count


def upload_runs(
    session: Session,
    data_dir: Path,
    files: Sequence[Upload],
    limits: UploadLimits = UploadLimits(),  # noqa: B008
) -> list[tuple[str, int]]:
    """Keep uploaded run files and import them (all or none); (run id, results) per run."""
    if not files:
        raise UploadError("choose one or more run files")
    with stored_upload(data_dir, "runs") as directory:
        paths, budget = [], limits.unpacked_bytes
        for shown, stream in files:
            target = directory / upload_name(shown)
            if target.exists():
                raise UploadError(f"{shown}: a second file of that name")
            budget -= save_stream(stream, target, budget, shown)
            paths.append(target)
        summary = import_runs(session, paths)
        session.commit()
    return summary


def server_collection(
    session: Session, roots: Sequence[Path], path: str, name: str | None
) -> tuple[str, int]:
    """Import the collection folder `path` on the server (allowed only under `roots`)."""
    directory = allowed_path(path, roots)
    chosen = name or directory.name
    count = import_collection(session, directory, chosen)
    session.commit()
    return chosen, count


def server_topics(session: Session, roots: Sequence[Path], path: str) -> int:
    """Import the topics file `path` on the server (allowed only under `roots`)."""
    count = import_topics(session, allowed_path(path, roots))
    session.commit()
    return count


def server_runs(session: Session, roots: Sequence[Path], paths: str) -> list[tuple[str, int]]:
    """Import runs named one per line (a folder: each of its files), allowed only under `roots`."""
    files: list[Path] = []
    for line in paths.splitlines():
        if line.strip():
            files.extend(run_files(allowed_path(line, roots)))
    if not files:
        raise UploadError("give the path of a run file or of a folder of runs, one per line")
    summary = import_runs(session, files)
    session.commit()
    return summary
