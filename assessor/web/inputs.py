"""Request inputs bounded before any query: URL ids and JSON bodies.

Every `<int:...>` in a route is an id column (32-bit on PostgreSQL, and SQLite's driver refuses
integers beyond 64 bits with an OverflowError), and every other URL variable is an article or
topic id: an id no column can hold, or one with a NUL or another control character (which
PostgreSQL refuses in text), matches no route, so the answer is 404 before the database is
asked. A JSON body nested deeper than the parser's recursion limit is malformed JSON (400 on the
API), not a server error.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import IntegerConverter, UnicodeConverter

from evaluation.formats.bounds import ARTICLE_ID_LENGTH, MAX_COUNT

if TYPE_CHECKING:
    from flask import Flask


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
            return json.loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def init_app(app: Flask) -> None:
    """Bound `app`'s URL variables and JSON bodies (before its routes are registered)."""
    app.url_map.converters["int"] = IdNumber
    app.url_map.converters["default"] = IdText
    app.json = BoundedJSON(app)
