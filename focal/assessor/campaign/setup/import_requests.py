"""What an import job imports, kept as JSON in its row, so that any process can run it again.

No Flask. The Import page checks the material within the request (an allowed server path, or
uploaded files kept in a folder of their own: `upload_imports.receive`) and describes it as an
`ImportRequest`; the task queue's worker, in whichever process, turns the request back into
the call of `upload_imports` that `focal import` makes too (`perform`), and a retry after an
interruption does the same from the same row.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from focal.assessor.campaign.setup import upload_imports as imports
from focal.assessor.campaign.setup.converted.stored import Converted
from focal.assessor.campaign.setup.importing import Progress
from focal.assessor.campaign.setup.upload_imports import Received
from focal.evaluation.formats.collections.detect import checked_format

KINDS = ("collection", "topics", "runs")


@dataclass(frozen=True, slots=True)
class ImportRequest:
    """An import: its kind, and either uploaded files kept in `upload` or server paths.

    `files` are absolute paths (the kept uploads, or the allowed server files and folders);
    `archive` is an uploaded archive's name as sent, still to unpack; `name` and `profile`
    are the collection's name and display profile (None: the defaults). A collection in
    another format than XML articles (docs/collections.md) has its `format` and the `store`
    folder its documents are written under.
    """

    kind: str
    files: tuple[str, ...]
    upload: str | None = None
    archive: str | None = None
    name: str | None = None
    profile: str | None = None
    format: str | None = None
    store: str | None = None

    def converted(self) -> Converted | None:
        """How a collection in another format is read and stored (None: XML articles)."""
        if self.store is None:
            return None
        return Converted(Path(self.store), checked_format(self.format) if self.format else None)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ImportRequest:
        values = json.loads(text)
        values["files"] = tuple(values["files"])
        return cls(**values)

    @classmethod
    def uploaded(
        cls, kind: str, received: Received, name: str | None = None, profile: str | None = None
    ) -> ImportRequest:
        """A request for files kept by `upload_imports.receive`."""
        return cls(
            kind,
            tuple(str(path) for path in received.files),
            str(received.directory),
            received.archive,
            name,
            profile,
        )

    def collection_name(self) -> str | None:
        """The name asked for, else an uploaded archive's (whether or not it is unpacked yet)."""
        if self.name or self.archive is None:
            return self.name
        return Received(Path(), (), self.archive).archive_stem

    def received(self) -> Received:
        """The kept upload, as it is now: a retried job may find its archive unpacked.

        The importer removes an archive only once it is wholly unpacked, so an archive that is
        gone left complete `*.xml` files (imported as loose files), while one still there may
        have left some (removed, to unpack it again).
        """
        assert self.upload is not None  # only asked of uploaded material
        directory, files = Path(self.upload), tuple(Path(f) for f in self.files)
        if self.archive is None:
            return Received(directory, files)
        if not files[0].exists():
            return Received(directory, tuple(sorted(directory.glob("*.xml"))))
        for partial in directory.glob("*.xml"):
            partial.unlink()
        return Received(directory, files, self.archive)


def perform(session: Session, request: ImportRequest, progress: Progress) -> str:
    """Import what `request` names, commit, and say what was imported (the job's message)."""
    if request.kind == "collection":
        if request.upload is not None:
            named, count = imports.import_received_collection(
                session,
                request.received(),
                request.collection_name(),
                progress,
                profile=request.profile,
                source=request.converted(),
            )
        else:
            folder = Path(request.files[0])
            named, count = imports.server_collection(
                session, folder, request.name, progress, request.profile, request.converted()
            )
        return f"Imported {count} documents into the collection {named}."
    if request.kind == "topics":
        if request.upload is not None:
            count = imports.import_received_topics(session, request.received())
        else:
            count = imports.server_topics(session, Path(request.files[0]))
        return f"Imported {count} topics."
    if request.upload is not None:
        summary = imports.import_received_runs(session, request.received(), progress)
    else:
        summary = imports.server_runs(session, [Path(f) for f in request.files], progress)
    listed = ", ".join(f"{run_id} ({count} results)" for run_id, count in summary)
    message = f"Imported {len(summary)} run(s): {listed}."
    unknown = imports.articles_not_in_collection(session, [run_id for run_id, _ in summary])
    if unknown:  # an assessor can never be shown these: say so beside the form
        named = ", ".join(f"{run_id} names {count}" for run_id, count in unknown.items())
        message += (
            f" Warning: articles absent from the collection ({named}); pools leave them out,"
            " so import the collection first or check the run's article ids."
        )
    return message
