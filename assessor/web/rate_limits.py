"""Log-in attempts are limited per name and per address, charged first.

The counting is the `limits` library's, in Flask-Limiter's storage.

Every attempt is charged to both limits *before* its password is checked, in one atomic
increment of the store, so attempts sent at once are counted as they arrive, not after their
scrypt checks end (which would let every concurrent guess through). An attempt that succeeds is
refunded afterwards, so assessors who type their password right are never held up by their own
log-ins; once a limit is reached every attempt, right or wrong, is answered 429 with
`Retry-After` until the window has passed, and each refusal is logged.

Config keys: `LOGIN_LIMIT_PER_NAME` (default 10 per 15 minutes for one account name, whatever
the address) and `LOGIN_LIMIT_PER_ADDRESS` (default 50 per 15 minutes from one client address,
whatever the names), limits strings of the `limits` library; `RATELIMIT_STORAGE_URI` (default
`memory://`: per process; give every worker of a scaled-out server one shared store, e.g.
`redis://host:6379`), `RATELIMIT_ENABLED`, and `TRUSTED_PROXIES` (default 0): behind that many
reverse proxies the address is the client's from `X-Forwarded-For` (werkzeug's ProxyFix), not
the proxy's, which would otherwise share one limit among everyone.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse

if TYPE_CHECKING:
    from flask import Flask

log = logging.getLogger("assessor.web.rate_limits")

limiter = Limiter(key_func=get_remote_address, headers_enabled=True)

DEFAULTS = {
    "LOGIN_LIMIT_PER_NAME": "10 per 15 minutes",
    "LOGIN_LIMIT_PER_ADDRESS": "50 per 15 minutes",
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "RATELIMIT_ENABLED": True,  # set here: Flask-Limiter would inherit the last app's choice
}


def init_app(app: Flask) -> None:
    """Attach the limiter to `app` (its storage and limits come from the app's config)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    limiter.init_app(app)


@dataclass(frozen=True)
class Charge:
    """The charges of one log-in attempt: (limit, key) pairs, to refund if it succeeds."""

    charged: tuple[tuple[RateLimitItem, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Refused:
    """An attempt over a limit: seconds until its window ends."""

    retry_after: int


def _limits(name: str) -> list[tuple[RateLimitItem, tuple[str, ...]]]:
    from flask import current_app

    account = name.strip().casefold()
    return [
        (parse(current_app.config["LOGIN_LIMIT_PER_NAME"]), ("login-name", account)),
        (parse(current_app.config["LOGIN_LIMIT_PER_ADDRESS"]), ("login-address", _address())),
    ]


def _address() -> str:
    return get_remote_address() or "unknown"


def charge_attempt(name: str) -> Charge | Refused:
    """Charge one log-in attempt for `name` from this request's address, before the password
    is checked: `Refused` when either limit was already reached (nothing is then charged to
    the other, so one flood cannot exhaust a second limit)."""
    from flask import current_app

    if not current_app.config["RATELIMIT_ENABLED"]:
        return Charge(())
    charged: list[tuple[RateLimitItem, tuple[str, ...]]] = []
    for item, keys in _limits(name):
        if not limiter.limiter.hit(item, *keys):
            _undo(item, keys)
            for done in charged:
                _undo(*done)
            reset = limiter.limiter.get_window_stats(item, *keys).reset_time
            log.warning(
                "log-in refused (too many attempts): name %r from %s, limit %s",
                name[:100],
                _address(),
                item,
            )
            return Refused(max(1, math.ceil(reset - time.time())))
        charged.append((item, keys))
    return Charge(tuple(charged))


def refund(charge: Charge) -> None:
    """Give back the charges of an attempt whose password was right."""
    for item, keys in charge.charged:
        _undo(item, keys)


def _undo(item: RateLimitItem, keys: tuple[str, ...]) -> None:
    storage = limiter.storage
    key = item.key_for(*keys)
    decrement = getattr(storage, "decr", None)
    if decrement is not None:
        decrement(key)
    else:  # Redis and the other stores: a negative increment
        storage.incr(key, item.get_expiry(), amount=-1)
