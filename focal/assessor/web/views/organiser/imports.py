"""The organiser's Import page: a collection, topics and runs, uploaded or from a server path.

The importing is `focal.assessor.campaign.setup.upload_imports`, which calls the importers of `focal
import` (docs/assessor.md, "Organiser screens"), all or nothing. The request keeps the uploaded
files (or checks the server path), records an import job for them
(`focal.assessor.campaign.setup.import_jobs`) and puts it on the task queue
(`focal.assessor.web.jobs`); the answer is the job's progress block, which htmx polls every second
until the job has ended. A waiting or running job can be cancelled, an interrupted one retried.
Without JavaScript the post redirects to the job's page, which reloads itself (a
`refresh` meta element) while the job runs. Uploads are bounded by `MAX_CONTENT_LENGTH`
(default 1 GiB here when unset; the only views marked `accepts_uploads`, every other body is
bounded by `focal.assessor.web.inputs`) and by Flask's `MAX_FORM_PARTS` (1000 files a request:
upload a larger collection as one archive).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup import upload_imports as imports
from focal.assessor.campaign.setup.converted.options import collections_folder, converted_at
from focal.assessor.campaign.setup.import_jobs import (
    cancel_job,
    create_job,
    end_job,
    find_job,
    retry_job,
)
from focal.assessor.campaign.setup.import_requests import ImportRequest
from focal.assessor.campaign.setup.importing import imported_counts
from focal.assessor.campaign.setup.profiles import get_profile, profile_names
from focal.assessor.campaign.setup.upload_imports import Upload
from focal.assessor.campaign.setup.uploads import (
    allowed_folder_files,
    allowed_path,
    data_directory,
    import_roots,
    removed_on_failure,
)
from focal.assessor.store.db import get_session, session_factory
from focal.assessor.store.models import ImportJob
from focal.assessor.web.auth import current_user, organiser_required
from focal.assessor.web.inputs import accepts_uploads
from focal.assessor.web.jobs import queue_of
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment
from focal.evaluation.errors import FormatError

log = logging.getLogger("focal.assessor.web.views.organiser.imports")
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
    outcome: Outcome | None = None,
    status: int = 200,
    job: ImportJob | None = None,
    result_for: str | None = None,
) -> ResponseReturnValue:
    """The page, or (htmx) the answer to one form, shown beside that form (`result_for`)."""
    return page_or_fragment(
        "organiser/imports/imports.html",
        "result",
        status,
        outcome=outcome,
        job=job,
        result_for=result_for,
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


def _start(kind: str, prepare: Callable[[], ImportRequest]) -> ResponseReturnValue:
    """Check and keep the material (`prepare`, within the request), then queue the job.

    A refusal found here (a path outside the roots, a file that is no article) is answered at
    once; what the importer finds is the job's message.
    """
    try:
        request_ = prepare()
    except (FormatError, CampaignError, LookupError, OSError) as error:
        message = str(error.args[0] if isinstance(error, KeyError) and error.args else error)
        if wants_fragment():
            return _page(Outcome("error", message), 422, result_for=kind)
        flash(message, "error")
        return redirect(url_for(".page"), 303)
    user = current_user()
    factory = session_factory(current_app)
    job_id = create_job(factory, request_, user.id if user is not None else None)
    _enqueue(job_id)
    if wants_fragment():
        return _page(job=find_job(get_session(), job_id), result_for=kind)
    return redirect(url_for(".job", job_id=job_id), 303)


def _enqueue(job_id: int) -> None:
    """Hand the job to the queue and keep its task id (to revoke it while it waits).

    A queue that cannot be reached (Redis down, say) fails the job with that message, so the
    organiser sees why and may try again; nothing was imported."""
    try:
        task_id = queue_of(current_app).submit(job_id)
    except Exception as error:  # the queue's storage, not the request, failed
        log.exception("import job %s could not be queued", job_id)
        end_job(
            session_factory(current_app),
            job_id,
            "failed",
            f"The task queue could not take the import ({type(error).__name__}: {error}); "
            "nothing was imported. Try again later.",
        )
        return
    session = get_session()
    job = session.get_one(ImportJob, job_id)
    if job.task_id is None or job.status == "queued":
        job.task_id = task_id
        session.commit()


def _from_server() -> bool:
    return request.form.get("source") == "path"


@blueprint.post("/collection")
@accepts_uploads
@organiser_required
def collection() -> ResponseReturnValue:
    """Import a collection: uploaded `*.xml` files, one archive or one collection file of
    another format (docs/collections.md), or a folder or file on the server."""
    name = request.form.get("name", "").strip() or None
    profile = request.form.get("profile", "").strip() or None
    format_name = request.form.get("format", "").strip() or None
    store = collections_folder(current_app.instance_path)

    def prepare() -> ImportRequest:
        if profile is not None:
            get_profile(profile)  # an unknown name is refused before anything is kept
        if _from_server():
            path = allowed_path(request.form.get("path", ""), _roots())
            source = converted_at(path, format_name, store)  # docs/collections.md
            if source is None:
                folder = imports.server_collection_folder(str(path), _roots())
                return ImportRequest("collection", (str(folder),), name=name, profile=profile)
            if path.is_dir():  # each page or text file is inside the roots too
                allowed_folder_files(path, "*", _roots())
            return ImportRequest("collection", (str(path),), name=name, profile=profile,
                                 format=source.format, store=str(source.store))  # fmt: skip
        received = imports.receive(_data_dir(), "collection", _uploads())
        asked = ImportRequest.uploaded("collection", received, name, profile)
        if received.archive is not None or received.files[0].suffix.lower() == ".xml":
            return asked
        with removed_on_failure(received.directory):  # one file of another format
            source = converted_at(received.files[0], format_name, store)
            if source is None:
                raise CampaignError("expected *.xml articles, an archive or a collection file")
        return replace(asked, format=source.format, store=str(source.store))

    return _start("collection", prepare)


@blueprint.post("/topics")
@accepts_uploads
@organiser_required
def topics() -> ResponseReturnValue:
    """Import an INEX topics file, uploaded or on the server."""

    def prepare() -> ImportRequest:
        if _from_server():
            path = allowed_path(request.form.get("path", ""), _roots())
            return ImportRequest("topics", (str(path),))
        return ImportRequest.uploaded("topics", imports.receive(_data_dir(), "topics", _uploads()))

    return _start("topics", prepare)


@blueprint.post("/runs")
@accepts_uploads
@organiser_required
def runs() -> ResponseReturnValue:
    """Import run files (uploaded, or paths on the server one per line); all or none."""

    def prepare() -> ImportRequest:
        if _from_server():
            lines = request.form.get("path", "").splitlines()
            files = imports.server_run_files(lines, _roots())
            return ImportRequest("runs", tuple(str(f) for f in files))
        return ImportRequest.uploaded("runs", imports.receive(_data_dir(), "runs", _uploads()))

    return _start("runs", prepare)


def _job_page(found: ImportJob, status: int = 200) -> ResponseReturnValue:
    return page_or_fragment(
        "organiser/imports/job.html", "job", status, job=found, counts=_counts()
    )


@blueprint.post("/jobs/<int:job_id>/cancel")
@organiser_required
def cancel(job_id: int) -> ResponseReturnValue:
    """Cancel a waiting, running or interrupted job (a running one stops at its next step)."""
    try:
        found, ended = cancel_job(get_session(), job_id)
    except CampaignError as error:
        return _refused(job_id, str(error))
    if ended and found.task_id:
        queue_of(current_app, inline=False).revoke(found.task_id)
    return _after_action(found)


@blueprint.post("/jobs/<int:job_id>/retry")
@organiser_required
def retry(job_id: int) -> ResponseReturnValue:
    """Queue an interrupted job again, from the request and files it kept."""
    try:
        found = retry_job(get_session(), job_id)
    except CampaignError as error:
        return _refused(job_id, str(error))
    _enqueue(found.id)
    return _after_action(found)


def _refused(job_id: int, message: str) -> ResponseReturnValue:
    found = find_job(get_session(), job_id)
    if found is None:
        abort(404)
    if wants_fragment():
        return _page(Outcome("error", message), 409, job=found)
    flash(message, "error")
    return redirect(url_for(".job", job_id=job_id), 303)


def _after_action(found: ImportJob) -> ResponseReturnValue:
    if wants_fragment():
        return _job_page(found)
    return redirect(url_for(".job", job_id=found.id), 303)


@blueprint.get("/jobs/<int:job_id>")
@organiser_required
def job(job_id: int) -> ResponseReturnValue:
    """How far an import job got (htmx polls the block every second while it runs).

    With inline workers, a poll starts this process's worker threads when none runs (after a
    restart, jobs queued before it are taken up again)."""
    queue_of(current_app)
    found = find_job(get_session(), job_id)
    if found is None:
        abort(404)
    return _job_page(found)
