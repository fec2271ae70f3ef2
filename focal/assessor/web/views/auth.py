"""Log in and log out (pages); API clients use bearer tokens instead."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from focal.assessor.campaign.people import users
from focal.assessor.store.db import get_session
from focal.assessor.web import auth
from focal.assessor.web import rate_limits as limits

blueprint = Blueprint("auth", __name__)


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    """The log-in form; on success a fresh session and a redirect to `next` (or `/`).

    The attempt is charged to the log-in limits before the password is checked
    (`focal.assessor.web.rate_limits`), and refunded when it succeeds.
    """
    if request.method == "POST":
        name = request.form.get("name", "").strip()
        password = request.form.get("password", "")
        charge = limits.charge_attempt(name)
        if isinstance(charge, limits.Refused):
            flash("Too many log-in attempts; try again later.", "error")
            page = render_template("login.html", next=request.form.get("next", ""), name=name)
            return page, 429, {"Retry-After": str(charge.retry_after)}
        user = users.authenticate(get_session(), name, password)
        if user is not None:
            limits.refund(charge)
            auth.log_in(user)
            return redirect(auth.safe_redirect(request.form.get("next")))
        flash("Unknown name or wrong password.", "error")
        page = render_template("login.html", next=request.form.get("next", ""), name=name)
        return page, 401
    return render_template("login.html", next=request.args.get("next", ""), name="")


@blueprint.route("/logout", methods=["POST"])
def logout() -> Response:
    """End the session (POST with the CSRF token, so no link can log someone out)."""
    auth.log_out()
    return redirect(url_for("auth.login"))
