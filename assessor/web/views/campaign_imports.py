"""The organiser's Import page: a collection, topics and runs, uploaded or from a server path.

The importing is `assessor.campaign.upload_imports`, which calls the importers of `focal
import` (docs/assessor.md, "Organiser screens"). Each import runs within the request, all or
nothing: an htmx post shows "Importing…" (`hx-indicator`) until the answer replaces the result
block; a plain post gets the message flashed after a redirect, so the page works without
JavaScript. Uploads are bounded by `MAX_CONTENT_LENGTH` (default 1 GiB here when unset) and by
Flask's `MAX_FORM_PARTS` (1000 files a request: upload a larger collection as one archive).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, current_app, flash, redirect, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from sqlalchemy import func, select

from assessor.campaign import upload_imports
from assessor.campaign.errors import CampaignError
from assessor.campaign.upload_imports import Upload
from assessor.campaign.uploads import data_directory, import_roots
from assessor.store.db import get_session
from assessor.store.models import Collection, Document, Run, Topic
from assessor.web.auth import organiser_required
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
    session = get_session()
    return {
        name: int(session.scalar(select(func.count()).select_from(model)) or 0)
        for name, model in (
            ("collections", Collection),
            ("documents", Document),
            ("topics", Topic),
            ("runs", Run),
        )
    }


def _page(outcome: Outcome | None = None, status: int = 200) -> ResponseReturnValue:
    return page_or_fragment(
        "organiser/imports.html",
        "result",
        status,
        outcome=outcome,
        counts=_counts(),
        roots=_roots(),
    )


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """The three import forms, and what the database holds."""
    return _page()


def _answer(work: Callable[[], str]) -> ResponseReturnValue:
    """Run one import; its message (or the importer's error) as a fragment or a flash."""
    session = get_session()
    try:
        outcome = Outcome("info", work())
    except (FormatError, CampaignError, LookupError, OSError) as error:
        session.rollback()
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        outcome = Outcome("error", str(message))
    if wants_fragment():
        return _page(outcome, 200 if outcome.kind == "info" else 422)
    flash(outcome.message, outcome.kind)
    return redirect(url_for(".page"), 303)


def _from_server() -> bool:
    return request.form.get("source") == "path"


def _data_dir() -> Path:
    return data_directory(current_app.instance_path)


@blueprint.post("/collection")
@organiser_required
def collection() -> ResponseReturnValue:
    """Import a collection: uploaded `*.xml` files or one archive, or a folder on the server."""
    name = request.form.get("name", "").strip() or None

    def work() -> str:
        if _from_server():
            path = request.form.get("path", "")
            chosen, count = upload_imports.server_collection(get_session(), _roots(), path, name)
        else:
            chosen, count = upload_imports.upload_collection(
                get_session(), _data_dir(), _uploads(), name
            )
        return f"Imported {count} documents into the collection {chosen}."

    return _answer(work)


@blueprint.post("/topics")
@organiser_required
def topics() -> ResponseReturnValue:
    """Import an INEX topics file, uploaded or on the server."""

    def work() -> str:
        if _from_server():
            path = request.form.get("path", "")
            count = upload_imports.server_topics(get_session(), _roots(), path)
        else:
            count = upload_imports.upload_topics(get_session(), _data_dir(), _uploads())
        return f"Imported {count} topics."

    return _answer(work)


@blueprint.post("/runs")
@organiser_required
def runs() -> ResponseReturnValue:
    """Import run files (uploaded, or paths on the server one per line); all or none."""

    def work() -> str:
        if _from_server():
            paths = request.form.get("path", "")
            summary = upload_imports.server_runs(get_session(), _roots(), paths)
        else:
            summary = upload_imports.upload_runs(get_session(), _data_dir(), _uploads())
        listed = ", ".join(f"{run_id} ({count} results)" for run_id, count in summary)
        return f"Imported {len(summary)} run(s): {listed}."

    return _answer(work)
