"""Request inputs bounded before any query: URL ids, body sizes, fields.

Every `<int:...>` in a route is an id column (32-bit on PostgreSQL, and SQLite's driver refuses
integers beyond 64 bits with an OverflowError), and every other URL variable is an article or
topic id: an id no column can hold, or one with a NUL or another control character (which
PostgreSQL refuses in text), matches no route, so the answer is 404 before the database is
asked. A JSON body nested deeper than the parser's recursion limit is malformed JSON (400 on the
API), not a server error.

Every request then passes one boundary (`_check_request`, the first `before_request` hook, ahead
of log-in and CSRF) before any view or query sees it:

- The body is at most `BODY_LIMIT` bytes (default 1 MiB), 413 above it; only views marked
  `accepts_uploads` (the organiser's imports) take up to `MAX_CONTENT_LENGTH` (1 GiB).
- Every query and form field (name and value) and every string of a JSON body is valid Unicode
  without lone surrogates (JSON may escape them, `"\\ud800"`) and without NUL (which
  PostgreSQL cannot store in text), and at most `FIELD_LENGTH` characters; every JSON number
  is finite (no `NaN`, `Infinity` or `1e999`) and an integer is within +/-2^53 (JavaScript's
  exact integers, and what 64-bit columns and drivers hold). A field that fails is answered
  400 naming it, as JSON on `/api/`.

What each field means (an id that exists, a keyword of at most 200 characters, a threshold the
column holds) is checked by its use case, which answers 404 or 422.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import IntegerConverter, UnicodeConverter

from focal.evaluation.formats.bounds import ARTICLE_ID_LENGTH, MAX_COUNT

if TYPE_CHECKING:
    from flask import Flask
    from flask.typing import ResponseReturnValue

F = TypeVar("F", bound=Callable[..., Any])

BODY_LIMIT = 1024**2
FIELD_LENGTH = 100_000
JSON_INTEGER = 2**53


class IdNumber(IntegerConverter):
    """A non-negative integer id that fits a 32-bit column."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_COUNT)
        super().__init__(*args, **kwargs)


class IdText(UnicodeConverter):
    """A URL segment of at most the id length, without control characters."""

    regex = "[^/\\x00-\\x1f\\x7f]{1,%d}" % ARTICLE_ID_LENGTH  # noqa: UP031 (a regex, not a message)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.regex = type(self).regex


class BoundedJSON(DefaultJSONProvider):
    """JSON whose nesting overflows the parser is a ValueError, which Flask answers 400."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return json.loads(s, parse_constant=_no_constant, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class BadInput(ValueError):
    """A request field outside the boundary: the message names the field and what was wrong."""


def accepts_uploads(view: F) -> F:
    """Mark a view whose request body may be as large as `MAX_CONTENT_LENGTH` (an upload)."""
    view.accepts_uploads = True  # type: ignore[attr-defined]
    return view


def check_text(field: str, value: str) -> None:
    """BadInput unless `value` is valid Unicode without NUL and at most `FIELD_LENGTH`
    characters long (other control characters are each use case's to refuse or keep)."""
    if len(value) > FIELD_LENGTH:
        raise BadInput(f"{field}: at most {FIELD_LENGTH} characters, found {len(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{field}: not valid Unicode (a lone surrogate)") from None
    if "\x00" in value:
        raise BadInput(f"{field}: the NUL character (U+0000) is not allowed")


def check_json(value: Any, where: str = "body") -> None:
    """BadInput for the first string (key or value) or number of a JSON document outside the
    boundary: `check_text` for strings, finite numbers, integers within +/-2^53."""
    for field, item in _json_leaves(value, where):
        if isinstance(item, str):
            check_text(field, item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise BadInput(f"{field}: not a finite number")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > JSON_INTEGER:
            raise BadInput(f"{field}: an integer between -2^53 and 2^53, found {item}")


def _json_leaves(value: Any, where: str) -> Iterator[tuple[str, Any]]:
    stack = [(where, value)]
    while stack:
        field, item = stack.pop()
        if isinstance(item, dict):
            for key, member in item.items():
                yield f"{field} key", key
                stack.append((f"{field}.{key}"[:200], member))
        elif isinstance(item, list):
            stack.extend((f"{field}[{index}]", member) for index, member in enumerate(item))
        else:
            yield field, item


def _body_limit() -> int | None:
    from flask import current_app, request

    view = current_app.view_functions.get(request.endpoint or "")
    if getattr(view, "accepts_uploads", False):
        limit: int | None = current_app.config.get("MAX_CONTENT_LENGTH")
        return limit
    return int(current_app.config.get("BODY_LIMIT") or BODY_LIMIT)


def _check_request() -> ResponseReturnValue | None:
    """The boundary every request passes first: body size, then every field."""
    from flask import abort, jsonify, request

    limit = _body_limit()
    request.max_content_length = limit
    if limit is not None and (request.content_length or 0) > limit:
        message = f"the request body is larger than {limit} bytes, the limit of this address"
        if request.path.startswith("/api/"):
            return jsonify(error=message, code="too_large"), 413
        abort(413, description=message)
    try:
        for source, fields in (("query", request.args), ("form", request.form)):
            for name, value in fields.items(multi=True):
                check_text(f"{source} field name", name)
                check_text(f"{source} field {name!r}", value)
        if request.is_json and request.get_data(cache=True):
            data = request.get_json(silent=True)
            if data is not None:
                check_json(data)
    except BadInput as error:
        if request.path.startswith("/api/"):
            return jsonify(error=str(error), code="invalid_input"), 400
        abort(400, description=str(error))
    return None


def init_app(app: Flask) -> None:
    """Bound `app`'s URL variables and JSON bodies (before its routes are registered)."""
    app.url_map.converters["int"] = IdNumber
    app.url_map.converters["default"] = IdText
    app.json = BoundedJSON(app)
    app.config.setdefault("BODY_LIMIT", BODY_LIMIT)
    app.before_request(_check_request)
