"""Imports of uploaded material and of server paths, with the importers `focal import` uses.

No Flask. The organiser's Import page (focal/assessor/web/views/organiser/imports.py) works in two
steps: within the request, `receive` keeps the uploaded files in a new folder of the data
directory (or `allowed_path` checks a server path); then an import job
(`focal.assessor.campaign.setup.import_jobs`) calls one of the `import_*` functions here, which call
`focal.assessor.campaign.setup.importing` exactly as the CLI does and commit. A refused file or a
failed commit removes the kept upload again: either everything is stored (rows and files) or
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.setup.archives import unpack_archive
from focal.assessor.campaign.setup.converted.stored import Converted, collection_name
from focal.assessor.campaign.setup.importing import (
    Progress,
    import_collection,
    import_runs,
    import_topics,
)
from focal.assessor.campaign.setup.uploads import (
    UploadError,
    UploadLimits,
    allowed_folder_files,
    allowed_path,
    is_archive,
    new_upload_folder,
    removed_on_failure,
    run_files,
    save_stream,
    save_xml_files,
    upload_name,
)
from focal.assessor.store.models import Document, Run, RunResult
from focal.evaluation.formats.collections.detect import format_of_name

Upload = tuple[str, IO[bytes]]  # (the name the browser sent, its content)
LIMITS = UploadLimits()


@dataclass(frozen=True, slots=True)
class Received:
    """Uploaded files kept in `directory`: loose files, or one archive still to unpack."""

    directory: Path
    files: tuple[Path, ...]
    archive: str | None = None  # the archive's name as uploaded

    @property
    def archive_stem(self) -> str:
        """The archive's name without its suffix (the default collection name)."""
        name = self.archive or "uploaded"
        for suffix in (".tar.gz", ".tgz", ".zip", ".tar"):
            if name.lower().endswith(suffix):
                return name[: -len(suffix)]
        return name


def receive(
    data_dir: Path, kind: str, files: Sequence[Upload], limits: UploadLimits = LIMITS
) -> Received:
    """Keep uploaded files for an import of `kind` (collection, topics or runs).

    A collection is `*.xml` files or one archive; topics are one file; runs any number.
    """
    if not files:
        raise UploadError(f"choose the file(s) to import as {kind}")
    if kind == "topics" and len(files) != 1:
        raise UploadError(f"expected one topics file, got {len(files)}")
    directory = new_upload_folder(data_dir, kind)
    with removed_on_failure(directory):
        if kind == "collection" and len(files) == 1 and is_archive(files[0][0]):
            shown, stream = files[0]
            archive = directory / "archive.upload"
            save_stream(stream, archive, limits.unpacked_bytes, shown)
            return Received(directory, (archive,), upload_name(shown))
        if kind == "collection" and len(files) == 1 and format_of_name(files[0][0]) != "xml":
            shown, stream = files[0]  # one file of another format (docs/collections.md)
            target = directory / upload_name(shown)
            save_stream(stream, target, limits.unpacked_bytes, shown)
            return Received(directory, (target,))
        if kind == "collection":
            save_xml_files(files, directory, limits)
            return Received(directory, tuple(sorted(directory.glob("*.xml"))))
        saved, budget = [], limits.unpacked_bytes
        for shown, stream in files:
            target = directory / upload_name(shown)
            if target.exists():
                raise UploadError(f"{shown}: a second file of that name")
            budget -= save_stream(stream, target, budget, shown)
            saved.append(target)
        return Received(directory, tuple(saved))


def import_received_collection(
    session: Session,
    received: Received,
    name: str | None,
    progress: Progress | None = None,
    limits: UploadLimits = LIMITS,
    profile: str | None = None,
    source: Converted | None = None,
) -> tuple[str, int]:
    """Unpack (an archive) and import a received collection; its name and document count.

    `profile` is the display profile (docs/profiles.md); None detects it from the articles.
    With `source`, the one file received is a collection in another format.
    """
    with removed_on_failure(received.directory):
        if received.archive is not None:
            (archive,) = received.files
            unpack_archive(archive, received.archive, received.directory, limits)
            archive.unlink()
        path = received.directory if source is None else received.files[0]
        chosen = name or (received.archive_stem if source is None else collection_name(path))
        count = import_collection(
            session, path, chosen, profile=profile, progress=progress, source=source
        ).documents
        session.commit()
    return chosen, count


def import_received_topics(session: Session, received: Received) -> int:
    """Import a received topics file; how many topics."""
    with removed_on_failure(received.directory):
        count = import_topics(session, received.files[0])
        session.commit()
    return count


def import_received_runs(
    session: Session, received: Received, progress: Progress | None = None
) -> list[tuple[str, int]]:
    """Import received run files (all or none); (run id, results) per run."""
    with removed_on_failure(received.directory):
        summary = import_runs(session, list(received.files), progress)
        session.commit()
    return summary


def server_collection(
    session: Session,
    directory: Path,
    name: str | None,
    progress: Progress | None = None,
    profile: str | None = None,
    source: Converted | None = None,
) -> tuple[str, int]:
    """Import a collection folder on the server (checked by `allowed_path`), read in place;
    with `source`, a collection in another format (a file or folder) stored as documents."""
    chosen = name or (directory.name if source is None else collection_name(directory))
    imported = import_collection(
        session, directory, chosen, profile=profile, progress=progress, source=source
    )
    session.commit()
    return chosen, imported.documents


def server_topics(session: Session, path: Path) -> int:
    """Import a topics file on the server (checked by `allowed_path`)."""
    count = import_topics(session, path)
    session.commit()
    return count


def server_collection_folder(text: str, roots: Sequence[Path]) -> Path:
    """A collection folder on the server, allowed with every `*.xml` in it (no link out)."""
    folder = allowed_path(text, roots)
    allowed_folder_files(folder, "*.xml", roots)
    return folder


def server_run_files(texts: Sequence[str], roots: Sequence[Path]) -> list[Path]:
    """The run files named one per line (a folder: each of its files), all allowed."""
    paths = [allowed_path(text, roots) for text in texts if text.strip()]
    files = [allowed_path(str(file), roots) for path in paths for file in run_files(path)]
    if not files:
        raise UploadError("give the path of a run file or of a folder of runs, one per line")
    return files


def server_runs(
    session: Session, files: Sequence[Path], progress: Progress | None = None
) -> list[tuple[str, int]]:
    """Import run files on the server (checked by `allowed_path`); all or none."""
    summary = import_runs(session, list(files), progress)
    session.commit()
    return summary


def articles_not_in_collection(session: Session, run_ids: Sequence[str]) -> dict[str, int]:
    """How many distinct articles each run of `run_ids` names that no imported collection has
    (only runs with some): an assessor can never be shown them, so the Import page warns."""
    query = (
        select(Run.name, func.count(distinct(RunResult.article)))
        .join(RunResult, RunResult.run_id == Run.id)
        .outerjoin(Document, Document.id == RunResult.article)
        .where(Run.name.in_(run_ids), Document.id.is_(None))
        .group_by(Run.name)
    )
    return {name: count for name, count in session.execute(query) if count}
