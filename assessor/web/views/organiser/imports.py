"""The organiser's Import page: a collection, topics and runs, uploaded or from a server path.

The importing is `assessor.campaign.setup.upload_imports`, which calls the importers of `focal
import` (docs/assessor.md, "Organiser screens"), all or nothing. The request keeps the uploaded
files (or checks the server path) and starts an import job (`assessor.campaign.setup.import_jobs`);
the answer is the job's progress block, which htmx polls every second until the job is done or
failed. Without JavaScript the post redirects to the job's page, which reloads itself (a
`refresh` meta element) while the job runs. Uploads are bounded by `MAX_CONTENT_LENGTH`
(default 1 GiB here when unset; the only views marked `accepts_uploads`, every other body is
bounded by `assessor.web.inputs`) and by Flask's `MAX_FORM_PARTS` (1000 files a request: upload
a larger collection as one archive).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from assessor.campaign.errors import CampaignError
from assessor.campaign.setup import upload_imports as imports
from assessor.campaign.setup.import_jobs import Work, find_job, start_job
from assessor.campaign.setup.importing import imported_counts
from assessor.campaign.setup.profiles import get_profile, profile_names
from assessor.campaign.setup.upload_imports import Upload
from assessor.campaign.setup.uploads import allowed_path, data_directory, import_roots
from assessor.store.db import get_session, session_factory
from assessor.store.models import ImportJob
from assessor.web.auth import current_user, organiser_required
from assessor.web.inputs import accepts_uploads
from assessor.web.views.htmx import page_or_fragment, wants_fragment
from evaluation.errors import FormatError

blueprint = Blueprint("imports", __name__, url_prefix="/organiser/import")

UPLOAD_LIMIT = 1024**3


@blueprint.record_once
def _bound_uploads(state: BlueprintSetupState) -> None:
    if state.app.config.get("MAX_CONTENT_LENGTH") is None:
        state.app.config["MAX_CONTENT_LENGTH"] = UPLOAD_LIMIT


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # "info" or "error"
    message: str


def _roots() -> list[Path]:
    return import_roots(current_app.config.get("IMPORT_ROOTS"))


def _uploads() -> list[Upload]:
    return [
        (storage.filename or "", storage.stream)
        for storage in request.files.getlist("files")
        if storage.filename
    ]


def _counts() -> dict[str, int]:
    return imported_counts(get_session())


def _page(
    outcome: Outcome | None = None, status: int = 200, job: ImportJob | None = None
) -> ResponseReturnValue:
    return page_or_fragment(
        "organiser/imports/imports.html",
        "result",
        status,
        outcome=outcome,
        job=job,
        counts=_counts(),
        roots=_roots(),
        profiles=profile_names(),
    )


@blueprint.errorhandler(413)
def too_large(_error: Exception) -> ResponseReturnValue:
    """An upload over `MAX_CONTENT_LENGTH` or `MAX_FORM_PARTS`: said on the page, not a bare 413."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    message = (
        f"the upload is too large: at most {limit} bytes and "
        f"{current_app.config.get('MAX_FORM_PARTS')} files a request (send a large collection "
        "as one .zip or .tar.gz archive, or import it from a path on the server)"
    )
    if wants_fragment():
        return _page(Outcome("error", message), 422)
    return _page(Outcome("error", message), 413)


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """The three import forms, and what the database holds."""
    return _page()


def _data_dir() -> Path:
    return data_directory(current_app.instance_path)


def _start(kind: str, prepare: Callable[[], Work]) -> ResponseReturnValue:
    """Check and keep the material (`prepare`, within the request), then start the job.

    A refusal found here (a path outside the roots, a file that is no article) is answered at
    once; what the importer finds is the job's message.
    """
    try:
        work = prepare()
    except (FormatError, CampaignError, LookupError, OSError) as error:
        message = str(error.args[0] if isinstance(error, KeyError) and error.args else error)
        if wants_fragment():
            return _page(Outcome("error", message), 422)
        flash(message, "error")
        return redirect(url_for(".page"), 303)
    user = current_user()
    job_id = start_job(
        session_factory(current_app), kind, user.id if user is not None else None, work
    )
    if wants_fragment():
        return _page(job=find_job(get_session(), job_id))
    return redirect(url_for(".job", job_id=job_id), 303)


def _from_server() -> bool:
    return request.form.get("source") == "path"


@blueprint.post("/collection")
@accepts_uploads
@organiser_required
def collection() -> ResponseReturnValue:
    """Import a collection: uploaded `*.xml` files or one archive, or a folder on the server."""
    name = request.form.get("name", "").strip() or None
    profile = request.form.get("profile", "").strip() or None

    def done(imported: tuple[str, int]) -> str:
        return f"Imported {imported[1]} documents into the collection {imported[0]}."

    def prepare() -> Work:
        if profile is not None:
            get_profile(profile)  # an unknown name is refused before anything is kept
        if _from_server():
            folder = imports.server_collection_folder(request.form.get("path", ""), _roots())
            return lambda session, progress: done(
                imports.server_collection(session, folder, name, progress, profile)
            )
        received = imports.receive(_data_dir(), "collection", _uploads())
        return lambda session, progress: done(
            imports.import_received_collection(session, received, name, progress, profile=profile)
        )

    return _start("collection", prepare)


@blueprint.post("/topics")
@accepts_uploads
@organiser_required
def topics() -> ResponseReturnValue:
    """Import an INEX topics file, uploaded or on the server."""

    def prepare() -> Work:
        if _from_server():
            path = allowed_path(request.form.get("path", ""), _roots())
            return lambda session, _progress: (
                f"Imported {imports.server_topics(session, path)} topics."
            )
        received = imports.receive(_data_dir(), "topics", _uploads())
        return lambda session, _progress: (
            f"Imported {imports.import_received_topics(session, received)} topics."
        )

    return _start("topics", prepare)


def _runs_message(summary: list[tuple[str, int]]) -> str:
    listed = ", ".join(f"{run_id} ({count} results)" for run_id, count in summary)
    return f"Imported {len(summary)} run(s): {listed}."


@blueprint.post("/runs")
@accepts_uploads
@organiser_required
def runs() -> ResponseReturnValue:
    """Import run files (uploaded, or paths on the server one per line); all or none."""

    def prepare() -> Work:
        if _from_server():
            lines = request.form.get("path", "").splitlines()
            files = imports.server_run_files(lines, _roots())
            return lambda session, progress: _runs_message(
                imports.server_runs(session, files, progress)
            )
        received = imports.receive(_data_dir(), "runs", _uploads())
        return lambda session, progress: _runs_message(
            imports.import_received_runs(session, received, progress)
        )

    return _start("runs", prepare)


@blueprint.get("/jobs/<int:job_id>")
@organiser_required
def job(job_id: int) -> ResponseReturnValue:
    """How far an import job got (htmx polls the block every second while it runs)."""
    found = find_job(get_session(), job_id)
    if found is None:
        abort(404)
    return page_or_fragment("organiser/imports/job.html", "job", job=found, counts=_counts())
