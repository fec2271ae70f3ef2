"""Log-in attempts are limited per name and per address (Flask-Limiter).

Only refused attempts (answered 401) count, so assessors who type their password right are never
held up; once a limit is reached every attempt, right or wrong, is answered 429 with
`Retry-After` until the window has passed, and each refusal is logged. Config keys:
`LOGIN_LIMIT_PER_NAME` and `LOGIN_LIMIT_PER_ADDRESS` (limits strings such as "10 per 15
minutes"), `RATELIMIT_STORAGE_URI` (default: `REDIS_URL` when it is set, so that every worker
process and every machine of a scaled-out server counts in one store; else `memory://`, per
process), `RATELIMIT_ENABLED`, and
`TRUSTED_PROXIES` (default 0): behind that many reverse proxies the address is the client's
from `X-Forwarded-For` (werkzeug's ProxyFix), not the proxy's, which would otherwise share one
limit among everyone.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

log = logging.getLogger("assessor.web.rate_limits")

limiter = Limiter(key_func=get_remote_address, headers_enabled=True)

DEFAULTS = {
    "LOGIN_LIMIT_PER_NAME": "10 per 15 minutes",
    "LOGIN_LIMIT_PER_ADDRESS": "50 per 15 minutes",
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    # A shared store that stops answering (Redis restarting) must not stop log-ins: each
    # process counts in its own memory meanwhile, and goes back to the store when it answers.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_SWALLOW_ERRORS": True,
}


def init_app(app: Flask) -> None:
    """Attach the limiter to `app` (its storage and limits come from the app's config).

    A Redis storage without the redis client installed is refused in one line.
    """
    if app.config.get("REDIS_URL") and not app.config.get("RATELIMIT_STORAGE_URI"):
        app.config["RATELIMIT_STORAGE_URI"] = app.config["REDIS_URL"]
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    _check_client(str(app.config["RATELIMIT_STORAGE_URI"]))
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    limiter.init_app(app)


def _check_client(storage: str) -> None:
    if not storage.startswith(("redis://", "rediss://", "redis+")):
        return
    try:
        import redis  # noqa: F401  # the client the limiter's Redis storage needs
    except ModuleNotFoundError:
        from assessor.campaign.errors import CampaignError

        raise CampaignError(
            f"the rate limits are to be kept in Redis ({storage.split('://')[0]}://...) but the "
            "redis client is not installed: pip install 'focal[redis]'"
        ) from None


def _per_name() -> str:
    from flask import request

    return "login-name:" + request.form.get("name", "").strip().casefold()


def _limit(key: str) -> str:
    from flask import current_app

    value: str = current_app.config[key]
    return value


def _refused(response: Response) -> bool:
    return response.status_code == 401


def _log_breach(limit: RequestLimit) -> None:
    from flask import request

    log.warning(
        "log-in refused (too many attempts): name %r from %s, limit %s",
        request.form.get("name", "")[:100],
        get_remote_address(),
        limit.limit,
    )


per_name = limiter.limit(
    lambda: _limit("LOGIN_LIMIT_PER_NAME"),
    key_func=_per_name,
    methods=["POST"],
    deduct_when=_refused,
    on_breach=_log_breach,
)
per_address = limiter.limit(
    lambda: _limit("LOGIN_LIMIT_PER_ADDRESS"),
    methods=["POST"],
    deduct_when=_refused,
    on_breach=_log_breach,
)
