"""Focal's settings: every `FOCAL_` environment variable in one registry (docs/deploy.md,
"The environment file").

Each `Setting` gives a variable's meaning, the form of its value, its default and the one parser
that reads it wherever it is read: by the web app, `focal serve` and `focal worker`, by the
evaluation commands (`FOCAL_KERNEL`, `FOCAL_START_METHOD`), the install and the tests. Every
`focal` command checks the whole environment as it starts (`check`, `unknown`): a bad value is
one line naming the setting, the value and the form, and a `FOCAL_` name that is no setting a
warning naming the closest one. Unset and blank (`FOCAL_X=`) mean the default. A leaf: it
imports nothing of Focal (an import-linter contract), so that every stage may read it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import timedelta

PREFIX = "FOCAL_"
KERNELS = ("auto", "c", "numpy")
START_METHODS = ("auto", "fork", "spawn", "forkserver")
JOB_WORKERS = ("inline", "external")
BUILD_C = ("auto", "1", "0")  # setup.py's own copy: it runs before focal can be imported
LIFETIME_FORM = "a number of days or hours, such as 30d or 12h, or `never`"
RATE_FORM = "one rate limit such as '10 per 15 minutes' or '10/hour'"
BOOLEAN_FORM = "true or false (or 1/0, yes/no, on/off)"
# Names that were settings once, and the setting that took their place.
RENAMED = {"FOCAL_RATELIMIT_STORAGE_URI": "FOCAL_REDIS_URL"}


class SettingError(ValueError):
    """A setting's value is not of its form: one line naming the setting, the value (its
    password hidden) and the form expected."""


class _Refused(ValueError):
    """A parser's reason for refusing a value, shown before the expected form."""


@dataclass(frozen=True)
class Setting:
    """One `FOCAL_` variable. `default` is a value in the setting's own form (None: the reader
    decides, as `meaning` says); `config` is the web app's configuration key it fills."""

    name: str
    meaning: str
    form: str
    default: str | None
    parse: Callable[[str], object]
    config: str | None = None
    secret: bool = False

    def read(self, text: str) -> object:
        """`text` parsed, or SettingError."""
        try:
            return self.parse(text.strip())
        except ValueError as error:
            reason = f"{error}; " if isinstance(error, _Refused) else ""
            shown = "(hidden)" if self.secret else repr(hide_password(text))
            raise SettingError(f"{self.name}={shown}: {reason}expected {self.form}") from None


def hide_password(url: str) -> str:
    """`url` with any password replaced by `***` (for messages)."""
    return re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", url)


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value.lower() not in choices:
            raise ValueError(value)
        return value.lower()

    return parse


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(value: str) -> int:
        if not re.fullmatch(r"[0-9]{1,18}", value):  # no sign, no `_`, no exponent
            raise ValueError(value)
        number = int(value)
        if number < low or (high is not None and number > high):
            raise ValueError(value)
        return number

    return parse


def _seconds(value: str) -> float:
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]+)?", value):
        raise ValueError(value)
    return float(value)


def _boolean(value: str) -> bool:
    words = {"1": True, "true": True, "yes": True, "on": True}
    words |= {"0": False, "false": False, "no": False, "off": False}
    if value.lower() not in words:
        raise ValueError(value)
    return words[value.lower()]


def _folder(value: str) -> Path:
    path = Path(value).expanduser().resolve()
    if path.exists() and not path.is_dir():
        raise _Refused(f"{path} is not a folder")
    return path


def split_folders(value: str) -> list[str]:
    """The folders of a list separated by the system's path separator (`:`, `;` on Windows)."""
    return [part.strip() for part in value.split(os.pathsep) if part.strip()]


def _folders(value: str) -> list[str]:
    folders = split_folders(value)
    for folder in folders:
        if not os.path.isabs(folder):
            raise _Refused(f"{folder!r} is not an absolute path")
    if not folders:
        raise ValueError(value)
    return folders


def _database_url(value: str) -> str:
    """The shape of a SQLAlchemy URL; which databases it may name is SQLAlchemy's to say, as
    the app is made (`focal.assessor.cli.support.make_app`)."""
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", value):
        raise ValueError(value)
    if value.lower().startswith("sqlite") and not re.match(r"sqlite://(/|$)", value, re.I):
        raise ValueError(value)
    return value


def _redis_url(value: str) -> str:
    from urllib.parse import urlsplit  # (here: every command imports this module)

    parts = urlsplit(value)
    if parts.scheme == "unix":
        if not parts.path.startswith("/"):
            raise ValueError(value)
        return value
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        raise ValueError(value)
    _ = parts.port  # a port that is not a number from 0 to 65535 is a ValueError
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise _Refused(f"the database {database!r} is not a number")
    return value


def _rate_limit(value: str) -> str:
    """A limit as Flask-Limiter's `limits` package reads it, the way the log-in limits are
    counted (`focal.assessor.web.rate_limits`); without that package (an install without the
    web app) nothing reads the setting, and the text is kept as it is."""
    try:
        from limits import parse_many
    except ModuleNotFoundError:
        return value
    items = parse_many(value)
    if len(items) != 1:
        raise _Refused(f"{len(items)} limits given")
    if items[0].amount < 1:
        raise _Refused("a limit of 0 would refuse every log-in")
    return value


def token_lifetime(text: str) -> timedelta | None:
    """`30d` or `12h` as a timedelta; `never` as None (a token that does not expire). ValueError
    for anything else: the one grammar of token lifetimes, for the setting and `--expires`."""
    chosen = text.strip().lower()
    if chosen == "never":
        return None
    found = re.fullmatch(r"([1-9][0-9]{0,4})([dh])", chosen)
    if found is None:
        raise ValueError(f"token lifetime {text!r}: expected {LIFETIME_FORM}")
    from datetime import timedelta  # (here: every command imports this module)

    amount = int(found.group(1))
    return timedelta(days=amount) if found.group(2) == "d" else timedelta(hours=amount)


def _lifetime(value: str) -> str:
    token_lifetime(value)
    return value.lower()


_WEB = (
    Setting("FOCAL_INSTANCE", "the instance folder: SQLite database, secret key, uploaded "
            "material, the task queue without Redis (default: the per-user data folder, "
            "~/.local/share/focal on Linux)", "a folder", None, _folder),
    Setting("FOCAL_DATABASE_URL", "the database of the judgements (default: focal.sqlite in "
            "the instance folder)", "a database URL such as sqlite:///PATH or "
            "postgresql://USER@HOST/DATABASE", None, _database_url, "DATABASE_URL"),
    Setting("FOCAL_SECRET_KEY", "the key that signs session cookies (default: made once into "
            "secret_key in the instance folder)", "a string", None, str, "SECRET_KEY", True),
    Setting("FOCAL_SESSION_COOKIE_SECURE", "mark session cookies Secure on every request, even "
            "over plain http", BOOLEAN_FORM, "false", _boolean, "SESSION_COOKIE_SECURE"),
    Setting("FOCAL_TRUSTED_PROXIES", "reverse proxies in front whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed", "a whole number from 0 to 10", "0",
            _whole(0, 10), "TRUSTED_PROXIES"),
    Setting("FOCAL_REDIS_URL", "the Redis server where every worker counts the log-in limits "
            "and the task queue waits (default: each process's memory, and a queue in the "
            "instance folder); `focal serve`, `demo` and `worker` refuse to start when it does "
            "not answer", "a Redis URL: redis://HOST:PORT/DB, rediss://... or unix:///PATH",
            None, _redis_url, "REDIS_URL"),
    Setting("FOCAL_JOB_WORKER", "who runs long jobs (imports): inline, threads of each server "
            "process; external, a separate `focal worker`", "one of inline, external",
            "inline", _choice(*JOB_WORKERS), "JOB_WORKER"),
    Setting("FOCAL_JOB_THREADS", "the jobs an inline worker runs at once",
            "a whole number from 1 to 16", "1", _whole(1, 16), "JOB_THREADS"),
    Setting("FOCAL_JOB_TIME_LIMIT", "seconds an import may spend reading its files before it "
            "is stopped (0: no limit)", "a number of seconds, 0 or more", "3600", _seconds,
            "JOB_TIME_LIMIT"),
    Setting("FOCAL_IMPORT_ROOTS", "the folders the Import page may read server paths under "
            "(default: none, uploads only)", f"absolute folders separated by {os.pathsep!r}",
            None, _folders, "IMPORT_ROOTS"),
    Setting("FOCAL_LOGIN_LIMIT_PER_NAME", "refused log-in attempts for one account name before "
            "it must wait", RATE_FORM, "10 per 15 minutes", _rate_limit, "LOGIN_LIMIT_PER_NAME"),
    Setting("FOCAL_LOGIN_LIMIT_PER_ADDRESS", "refused log-in attempts from one client address "
            "before it must wait", RATE_FORM, "50 per 15 minutes", _rate_limit,
            "LOGIN_LIMIT_PER_ADDRESS"),
    Setting("FOCAL_TOKEN_LIFETIME", "the lifetime of new API tokens", LIFETIME_FORM, "90d",
            _lifetime, "TOKEN_LIFETIME"),
    Setting("FOCAL_MAX_CONTENT_LENGTH", "the largest upload, in bytes (default 1 GiB)",
            "a whole number of bytes", None, _whole(1), "MAX_CONTENT_LENGTH"),
    Setting("FOCAL_BODY_LIMIT", "the largest body of any other request, in bytes (default "
            "1 MiB)", "a whole number of bytes", None, _whole(1), "BODY_LIMIT"),
)  # fmt: skip
_OTHERS = (
    Setting("FOCAL_KERNEL", "which implementation reads plain TREC files for the article "
            "engine: auto, the compiled C part when the install built it; c, that part or an "
            "error; numpy, never the C part", "one of auto, c, numpy", "auto", _choice(*KERNELS)),
    Setting("FOCAL_START_METHOD", "how worker processes start (`-j`): auto, fork on Linux and "
            "spawn elsewhere", "one of auto, fork, spawn, forkserver", "auto",
            _choice(*START_METHODS)),
    Setting("FOCAL_BUILD_C", "read by the install (setup.py): auto builds the C part where a "
            "compiler works, 1 builds it or fails, 0 never builds it (the numpy path answers)",
            "one of auto, 1, 0", "auto", _choice(*BUILD_C)),
    Setting("FOCAL_TEST_POSTGRES_URL", "read by the tests: a PostgreSQL server to create their "
            "databases in", "a URL such as postgresql://USER@HOST/DATABASE", None, _database_url),
    Setting("FOCAL_TEST_REDIS_URL", "read by the tests: a Redis server to use instead of "
            "starting one", "a Redis URL: redis://HOST:PORT/DB", None, _redis_url),
    Setting("FOCAL_FUZZ_EXAMPLES", "read by the tests: examples per fuzz test",
            "a whole number, 1 or more", None, _whole(1)),
    Setting("FOCAL_SCREENSHOTS", "read by the tests: set, the browser tests save the "
            "screenshots of docs/", "any value", None, str),
)  # fmt: skip
SETTINGS: tuple[Setting, ...] = _WEB + _OTHERS
BY_NAME = {setting.name: setting for setting in SETTINGS}


def _given(environ: Mapping[str, str] | None, name: str) -> str | None:
    text = (os.environ if environ is None else environ).get(name, "")
    return text if text.strip() else None


def value(name: str, environ: Mapping[str, str] | None = None) -> object:
    """The setting `name` from `environ` (default: this process's), parsed; its default when
    unset or blank (None when the reader decides). SettingError for a bad value."""
    setting = BY_NAME[name]
    text = _given(environ, name)
    if text is None:
        return None if setting.default is None else setting.read(setting.default)
    return setting.read(text)


def check(environ: Mapping[str, str] | None = None) -> dict[str, object]:
    """Every setting given in `environ`, parsed: SettingError for the first bad one, in the
    registry's order."""
    return {
        setting.name: setting.read(text)
        for setting in SETTINGS
        if (text := _given(environ, setting.name)) is not None
    }


def unknown(environ: Mapping[str, str] | None = None) -> list[str]:
    """A warning for each `FOCAL_` name (in any case) that is no setting, with the setting it
    probably meant."""
    import difflib

    warnings = []
    for name in sorted(os.environ if environ is None else environ):
        upper = name.upper()
        if not upper.startswith(PREFIX) or name in BY_NAME:
            continue
        close = difflib.get_close_matches(upper, list(BY_NAME), n=1)
        meant = RENAMED.get(upper) or (close[0] if close else None)
        hint = f"; did you mean {meant}?" if meant else " (docs/deploy.md lists the settings)"
        warnings.append(f"{name} is not a setting of Focal and is ignored{hint}")
    return warnings


def app_config(environ: Mapping[str, str] | None = None) -> dict[str, object]:
    """The web app's configuration from the settings: each key that a setting fills, with its
    value (None where the reader decides)."""
    return {s.config: value(s.name, environ) for s in SETTINGS if s.config is not None}
