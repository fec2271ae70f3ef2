"""The organiser's Settings page: the campaign's choices about what assessors see and store.

Two switches, stored as the campaign's one row of settings (`focal.assessor.store.settings`):
whether highlights separated only by whitespace and punctuation merge into one passage (the ATOM
rule as a person reads it, seed 003 §4.2.2; on by default), and whether assessors may outline what
the runs retrieved (`r` on the article screen), which can steer their judgement (spec section 6).
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.store.db import get_session
from focal.assessor.store.settings import (
    DONE_RULES,
    CampaignSettings,
    read_settings,
    save_settings,
)
from focal.assessor.web.auth import organiser_required
from focal.assessor.web.views.htmx import page_or_fragment

blueprint = Blueprint("campaign_settings", __name__, url_prefix="/organiser/settings")


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """The campaign's settings as a form."""
    return page_or_fragment(
        "organiser/settings.html", "settings", settings=read_settings(get_session())
    )


@blueprint.post("")
@organiser_required
def save() -> ResponseReturnValue:
    """Store the two switches (an unticked box is off); the next operation uses them."""
    session = get_session()
    chosen = CampaignSettings(
        merge_across_punctuation=request.form.get("merge_across_punctuation") == "1",
        runs_outline=request.form.get("runs_outline") == "1",
        done_without_passage=_done_rule(request.form.get("done_without_passage")),
    )
    save_settings(session, chosen)
    session.commit()
    flash("Settings saved: they apply to the next highlight and the next article opened.", "info")
    return redirect(url_for(".page"), 303)


def _done_rule(value: str | None) -> str:
    """What "Done" does on an article with no passage (`DONE_RULES`; else the default)."""
    return value if value in DONE_RULES else DONE_RULES[0]
