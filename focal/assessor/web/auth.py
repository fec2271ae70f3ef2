"""Who is asking: session log-in, bearer tokens, roles and CSRF.

- Passwords and tokens are checked by `focal.assessor.campaign.people.users` (scrypt; SHA-256
  of tokens).
- Every request loads `g.user` (or None) from `Authorization: Bearer <token>` or the session.
  A session counts only while the user is enabled and the epoch it was begun in is still the
  user's `session_epoch`: log-out raises the epoch, so a cookie copied before it is worthless.
- Every non-GET request that is not bearer-authenticated must carry the session's CSRF token,
  as form field `csrf_token` or header `X-CSRF-Token`; otherwise it is refused with 400.
  Bearer requests are exempt because a browser never adds that header on its own.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from focal.assessor.campaign.people.users import end_sessions, user_for_token
from focal.assessor.store.models import User

if TYPE_CHECKING:
    from flask import Flask

P = ParamSpec("P")
R = TypeVar("R")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_SESSION_KEY = "csrf_token"
CSRF_FORM_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
EPOCH_SESSION_KEY = "epoch"


def log_in(user: User) -> None:
    """Start a session for `user` (a fresh session and CSRF token against fixation)."""
    from flask import session

    session.clear()
    session["user_id"] = user.id
    session[EPOCH_SESSION_KEY] = user.session_epoch
    session[CSRF_SESSION_KEY] = secrets.token_urlsafe(32)


def log_out() -> None:
    """End the session here and on the server: every session of the user begun so far ends."""
    from flask import session

    from focal.assessor.store.db import get_session

    user = current_user()
    if user is not None and not _bearer():
        end_sessions(user)
        get_session().commit()
    session.clear()


def _bearer() -> bool:
    from flask import g

    return bool(g.get("bearer"))


def safe_redirect(target: str | None, fallback: str = "/") -> str:
    """`target` if it is a path of this site, else `fallback` (no open redirects).

    Browsers drop tabs and newlines from a URL and read a backslash as a slash, so "/", tab,
    "/evil.example" leads to another host: any control character or backslash, a scheme,
    a host, or a start other than one `/` is refused.
    """
    if not target:
        return fallback
    if any(ord(character) < 0x20 or character in "\\\x7f" for character in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return fallback
    return target


def current_user() -> User | None:
    """The user of this request (None when anonymous)."""
    from flask import g

    user: User | None = g.get("user")
    return user


def signed_in_user() -> User:
    """The user of a request that `login_required` let through (401 should there be none: the
    check only narrows the type for the views)."""
    from flask import abort

    user = current_user()
    if user is None:
        abort(401)
    return user


def csrf_token() -> str:
    """The session's CSRF token (created on first use); a Jinja global of the same name."""
    from flask import session

    token = session.get(CSRF_SESSION_KEY)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF_SESSION_KEY] = token
    return token


def login_required(view: Callable[P, R]) -> Callable[P, R]:
    """Anonymous page requests are redirected to the login page, API requests get 401."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        from flask import abort, redirect, request, url_for

        if current_user() is None:
            if request.path.startswith("/api/"):
                abort(401)
            abort(redirect(url_for("auth.login", next=request.full_path.rstrip("?"))))
        return view(*args, **kwargs)

    return wrapped


def role_required(role: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Like `login_required`, and the user must have `role` (else 403)."""

    def decorator(view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            from flask import abort

            user = current_user()
            if user is not None and user.role != role:
                abort(403)
            return view(*args, **kwargs)

        return login_required(wrapped)

    return decorator


organiser_required = role_required("organiser")


def _load_user() -> None:
    from flask import abort, g, request, session

    from focal.assessor.store.db import get_session

    g.user = None
    g.bearer = False
    header = request.headers.get("Authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer":
        g.user = user_for_token(get_session(), credentials.strip())
        if g.user is None:
            abort(401, description="unknown API token")
        g.bearer = True
        return
    user_id = session.get("user_id")
    if isinstance(user_id, int):
        user = get_session().get(User, user_id)
        epoch = session.get(EPOCH_SESSION_KEY)
        if user is None or user.disabled_at is not None or epoch != user.session_epoch:
            session.clear()  # ended on the server (log-out elsewhere, new password, disabled)
            return
        g.user = user


def _check_csrf() -> None:
    from flask import abort, g, request, session

    if request.method in SAFE_METHODS or g.get("bearer"):
        return
    expected = session.get(CSRF_SESSION_KEY)
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FORM_FIELD)
    # Compared as UTF-8 bytes: `compare_digest` refuses str with non-ASCII characters.
    if (
        not isinstance(expected, str)
        or not sent
        or not hmac.compare_digest(expected.encode(), sent.encode("utf-8", "replace"))
    ):
        abort(400, description="missing or wrong CSRF token; reload the page and try again")


def init_app(app: Flask) -> None:
    """Load the user before every request, check CSRF, and offer `csrf_token()` to templates."""
    app.before_request(_load_user)
    app.before_request(_check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.context_processor
    def _user_in_templates() -> dict[str, Any]:
        return {"current_user": current_user()}
