"""Log-in attempts are limited per name and per address, charged first.

The counting is the `limits` library's, in Flask-Limiter's storage.

Every attempt is charged to both limits *before* its password is checked, in one atomic
increment of the store, so attempts sent at once are counted as they arrive, not after their
scrypt checks end (which would let every concurrent guess through). An attempt that succeeds is
refunded afterwards, so assessors who type their password right are never held up by their own
log-ins; once a limit is reached every attempt, right or wrong, is answered 429 with
`Retry-After` until the window has passed, and each refusal is logged.

Config keys: `LOGIN_LIMIT_PER_NAME` (for one account name, whatever the address) and
`LOGIN_LIMIT_PER_ADDRESS` (from one client address, whatever the names), limits strings of the
`limits` library, filled and checked from the settings of the same names (`focal.settings`,
which holds their defaults: 10 and 50 per 15 minutes); `RATELIMIT_STORAGE_URI` (default:
`REDIS_URL` when it is set, so that every worker process and every machine of a scaled-out
server counts in one store; else `memory://`, per process), `RATELIMIT_ENABLED`, and
`TRUSTED_PROXIES` (default 0): behind that many reverse proxies the address is the client's from
`X-Forwarded-For` (werkzeug's ProxyFix), not the proxy's, which would otherwise share one limit
among everyone.

A shared store that stops answering (Redis restarting) must not stop log-ins: each process then
counts in its own memory (`_Outage`), says so once in the log at the switch and, while it lasts,
on the organiser's Users page (`fallback_notice`). When the store answers again, each process
carries its counts over: it adds them to the store's, in a window that begins then, so that a
store restarted empty still holds the attempts made meanwhile, and none is forgotten
(docs/security.md, "Log-in limits while Redis is away").
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, RateLimiter

if TYPE_CHECKING:
    from flask import Flask

log = logging.getLogger("focal.assessor.web.rate_limits")

limiter = Limiter(key_func=get_remote_address, headers_enabled=True)


@dataclass
class _Outage:
    """How this process counts while the shared store does not answer: since when (None: it
    answers), why, its own counter, and the limits and keys charged to it meanwhile."""

    counter: RateLimiter = field(default_factory=lambda: FixedWindowRateLimiter(MemoryStorage()))
    since: float | None = None
    reason: str = ""
    charged: dict[str, tuple[RateLimitItem, tuple[str, ...]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, error: BaseException) -> None:
        """Count in this process from now (logged once, at the switch)."""
        with self.lock:
            if self.since is not None:
                return
            self.since, self.reason = time.time(), str(error).splitlines()[0][:200]
        log.warning(
            "log-in limits are counted by this process alone: the shared store does not "
            "answer (%s); each server process now allows the configured attempts on its own",
            self.reason,
        )

    def remember(self, charged: list[tuple[RateLimitItem, tuple[str, ...]]]) -> None:
        """The limits and keys an attempt was charged to meanwhile (to carry them over)."""
        with self.lock:
            self.charged.update({item.key_for(*keys): (item, keys) for item, keys in charged})

    def end(self, shared: RateLimiter) -> None:
        """The store answers again: add this process's counts to it, then count there."""
        with self.lock:
            if self.since is None:
                return
            carried = 0
            for key, (item, _) in self.charged.items():
                count = int(self.counter.storage.get(key))
                if count > 0:
                    shared.storage.incr(key, item.get_expiry(), amount=count)
                    carried += count
            self.counter.storage.reset()
            self.since, self.reason, self.charged = None, "", {}
        log.warning(
            "log-in limits are counted in the shared store again; %d attempt(s) counted by this "
            "process meanwhile were carried over",
            carried,
        )


_OUTAGE = _Outage()

DEFAULTS = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    # A shared store that stops answering (Redis restarting) must not stop log-ins: each
    # process counts in its own memory meanwhile, and goes back to the store when it answers.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_SWALLOW_ERRORS": True,
    "RATELIMIT_ENABLED": True,  # set here: Flask-Limiter would inherit the last app's choice
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
        from focal.assessor.campaign.errors import CampaignError

        raise CampaignError(
            f"the rate limits are to be kept in Redis ({storage.split('://')[0]}://...) but the "
            "redis client is not installed: pip install 'focal[redis]'"
        ) from None


@dataclass(frozen=True)
class Charge:
    """The charges of one log-in attempt: (limit, key) pairs, to refund if it succeeds, and
    the counter they were charged to."""

    charged: tuple[tuple[RateLimitItem, tuple[str, ...]], ...]
    counter: RateLimiter | None = None


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
    try:
        _OUTAGE.end(limiter.limiter)  # nothing to do unless the store was away
        return _charge(name, limiter.limiter)
    except Exception as error:  # the shared store does not answer: count in this process
        _OUTAGE.begin(error)
        charge = _charge(name, _OUTAGE.counter)
        _OUTAGE.remember(_limits(name))
        return charge


def fallback_notice() -> str | None:
    """What the Users page says while this process counts log-ins on its own because the
    shared store does not answer (None when it answers, or when there is none: `memory://`).

    The page asks the store itself, so that it tells the outage before any log-in fails and
    stops telling it, counts carried over, once the store is back."""
    try:
        storage = limiter.storage
    except AssertionError:  # the limiter of no app yet
        return None
    if isinstance(storage, MemoryStorage):
        return None
    try:
        answers = bool(storage.check())
    except Exception:  # a store that fails even to say it is away
        answers = False
    if answers:
        try:
            _OUTAGE.end(limiter.limiter)
        except Exception as error:  # away again at once
            _OUTAGE.begin(error)
    else:
        _OUTAGE.begin(ConnectionError(f"{type(storage).__name__} does not answer"))
    since = _OUTAGE.since
    if since is None:
        return None
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(since))
    return (
        f"Log-in limits are counted by each server process on its own since {began}: the "
        f"shared store does not answer ({_OUTAGE.reason}). Until it does, every process allows "
        "the configured attempts, so more password guesses get through; the counts are "
        "carried over when it answers again."
    )


def _charge(name: str, counter: RateLimiter) -> Charge | Refused:
    charged: list[tuple[RateLimitItem, tuple[str, ...]]] = []
    for item, keys in _limits(name):
        if not counter.hit(item, *keys):
            _undo(counter, item, keys)
            for done in charged:
                _undo(counter, *done)
            reset = counter.get_window_stats(item, *keys).reset_time
            log.warning(
                "log-in refused (too many attempts): name %r from %s, limit %s",
                name[:100],
                _address(),
                item,
            )
            return Refused(max(1, math.ceil(reset - time.time())))
        charged.append((item, keys))
    return Charge(tuple(charged), counter)


def refund(charge: Charge) -> None:
    """Give back the charges of an attempt whose password was right."""
    if charge.counter is None:
        return
    try:
        for item, keys in charge.charged:
            _undo(charge.counter, item, keys)
    except Exception as error:  # the store stopped answering since: the charge stays
        log.warning("a log-in's charge was not refunded: the store failed (%s)", error)


def _undo(counter: RateLimiter, item: RateLimitItem, keys: tuple[str, ...]) -> None:
    storage = counter.storage
    key = item.key_for(*keys)
    decrement = getattr(storage, "decr", None)
    if decrement is not None:
        decrement(key)
    else:  # Redis and the other stores: a negative increment
        storage.incr(key, item.get_expiry(), amount=-1)
