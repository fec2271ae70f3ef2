"""The organiser's Users page: add users, change roles, disable and enable users, reset
passwords, create and revoke API tokens.

The same functions as `focal users add|token|revoke` (`focal.assessor.campaign.people.users`): a
password has at least `PASSWORD_MIN_LENGTH` characters, and a new one ends the user's sessions and
revokes their tokens. A new token is shown once, in the answer to the request that made it
(never flashed: a flash travels in the session cookie), and only its SHA-256 is stored.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.people import roster
from focal.assessor.campaign.people.account_changes import change_role, set_enabled
from focal.assessor.campaign.people.users import (
    PASSWORD_MIN_LENGTH,
    add_user,
    check_new_password,
    issue_token,
    parse_lifetime,
    revoke_tokens,
    set_password,
    token_record,
    tokens_of,
)
from focal.assessor.store.db import get_session
from focal.assessor.store.models import ROLES, User, utcnow
from focal.assessor.web.auth import current_user, organiser_required
from focal.assessor.web.rate_limits import fallback_notice
from focal.assessor.web.views.htmx import page_or_fragment, wants_fragment

blueprint = Blueprint("accounts", __name__, url_prefix="/organiser/users")

NAME_LENGTH = 100  # the column's length


def _page(status: int = 200, **extra: Any) -> ResponseReturnValue:
    session = get_session()
    users = roster.users(session)
    return page_or_fragment(
        "organiser/accounts.html",
        "accounts",
        status,
        users=[(user, tokens_of(session, user)) for user in users],
        roles=ROLES,
        min_length=PASSWORD_MIN_LENGTH,
        lifetime=current_app.config["TOKEN_LIFETIME"],
        now=utcnow(),
        limits_notice=fallback_notice(),  # log-ins counted per process while Redis is away
        **extra,
    )


def _done(message: str, error: bool = False) -> ResponseReturnValue:
    """A fragment with the message (htmx), else the message flashed after a redirect."""
    if wants_fragment():
        key = "error" if error else "message"
        return _page(422 if error else 200, **{key: message})
    flash(message, "error" if error else "info")
    return redirect(url_for(".page"), 303)


def _user(user_id: int) -> User:
    user = roster.user(get_session(), user_id)
    if user is None:
        abort(404)
    return user


def _password() -> str:
    password = request.form.get("password", "")
    check_new_password(password)
    if request.form.get("confirm", password) != password:
        raise CampaignError("the two passwords differ")
    return password


@blueprint.get("")
@organiser_required
def page() -> ResponseReturnValue:
    """Every user with role, state and API tokens, and the forms to change them."""
    return _page()


@blueprint.post("")
@organiser_required
def add() -> ResponseReturnValue:
    """Add an assessor or organiser (an existing name is refused: reset its password instead)."""
    session = get_session()
    name, role = request.form.get("name", "").strip(), request.form.get("role", "")
    try:
        if not name or len(name) > NAME_LENGTH or any(ord(c) < 0x20 for c in name):
            raise CampaignError(f"a user name has 1 to {NAME_LENGTH} printable characters")
        if role not in ROLES:
            raise CampaignError(f"role: expected {' or '.join(ROLES)}")
        if roster.has_user(session, name):
            raise CampaignError(f"a user {name} exists already: reset the password below")
        add_user(session, name, role, _password())
    except CampaignError as error:
        session.rollback()
        return _done(str(error), error=True)
    session.commit()
    return _done(f"User {name} ({role}) added.")


@blueprint.post("/<int:user_id>/password")
@organiser_required
def reset_password(user_id: int) -> ResponseReturnValue:
    """A new password: the user's sessions end and their API tokens are revoked; the same
    password again changes nothing, and the answer says so."""
    session = get_session()
    user = _user(user_id)
    try:
        revoked = set_password(session, user, _password())
    except CampaignError as error:
        session.rollback()
        return _done(str(error), error=True)
    session.commit()
    if revoked is None:
        return _done(
            f"{user.name} already has this password: nothing changed, their sessions and "
            "API tokens still work."
        )
    tokens = "1 API token" if revoked == 1 else f"{revoked} API tokens"
    return _done(f"New password for {user.name}: sessions ended, {tokens} revoked.")


@blueprint.post("/<int:user_id>/tokens")
@organiser_required
def create_token(user_id: int) -> ResponseReturnValue:
    """A new API token, shown once in this answer (both with and without htmx)."""
    session = get_session()
    user = _user(user_id)
    try:
        given = request.form.get("expires", "").strip()
        lifetime = parse_lifetime(given or str(current_app.config["TOKEN_LIFETIME"]))
    except CampaignError as error:
        return _done(str(error), error=True)
    token = issue_token(session, user, lifetime)
    record = token_record(session, token)
    session.commit()
    return _page(new_token=token, token_user=user.name, token_id=record.id)


@blueprint.post("/<int:user_id>/tokens/<int:token_id>/revoke")
@organiser_required
def revoke(user_id: int, token_id: int) -> ResponseReturnValue:
    """Revoke one of the user's tokens."""
    session = get_session()
    user = _user(user_id)
    try:
        revoke_tokens(session, user, token_id)
    except LookupError as error:
        session.rollback()
        return _done(str(error.args[0]), error=True)
    session.commit()
    return _done(f"Token {token_id} of {user.name} revoked.")


def _by() -> User:
    by = current_user()
    assert by is not None  # organiser_required
    return by


@blueprint.post("/<int:user_id>/role")
@organiser_required
def set_role(user_id: int) -> ResponseReturnValue:
    """Give the user another role: their sessions end (they carried the old role); the last
    organiser who can log in keeps the role."""
    session = get_session()
    user = _user(user_id)
    role = request.form.get("role", "")
    try:
        changed = change_role(session, _by(), user, role)
    except CampaignError as error:
        session.rollback()
        return _done(str(error), error=True)
    session.commit()
    if not changed:
        return _done(f"{user.name} is {role} already: nothing changed.")
    return _done(f"{user.name} is now {role}; their sessions ended.")


@blueprint.post("/<int:user_id>/access")
@organiser_required
def set_access(user_id: int) -> ResponseReturnValue:
    """Disable the user (no log-in, sessions ended, tokens revoked) or let them log in again;
    the last organiser who can log in cannot be disabled."""
    session = get_session()
    user = _user(user_id)
    enabled = request.form.get("enabled", "") == "1"
    try:
        changed = set_enabled(session, _by(), user, enabled)
    except CampaignError as error:
        session.rollback()
        return _done(str(error), error=True)
    session.commit()
    state = "can log in" if enabled else "is disabled: sessions ended, API tokens revoked"
    return _done(f"{user.name} {state}." if changed else f"Nothing changed: {user.name} {state}.")
