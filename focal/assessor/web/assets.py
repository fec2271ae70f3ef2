"""Static files under a content-hashed URL, kept by browsers for a year.

Every page names its scripts and styles with `url_for("static", ...)`, which gives
`/v/<hash>/static/<file>`: `<hash>` is a digest of the whole static tree (every file's path and
bytes), so a release that changes any file changes every URL, and an unchanged file is never
asked for again (`Cache-Control: immutable`). The hash is one prefix for the tree rather than
one per file because the article screen's ES modules import each other by relative paths
(`./page.js`): under one prefix they resolve to the same release without a build step. A
later article page then loads its modules from the browser's cache, with no request.
`/static/<file>` keeps answering, revalidated on every use (`no-cache`), for links from
outside the pages (docs, scripts, an old page in a tab).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

HASH_LENGTH = 12  # hex digits of the tree's SHA-256: enough to tell releases apart
IMMUTABLE = "public, max-age=31536000, immutable"
PLAIN_ENDPOINT = "static_plain"


def tree_hash(folder: Path) -> str:
    """A digest of every file under `folder` (relative path and bytes), recomputed only when a
    file's size or modification time changed."""
    files = sorted(path for path in folder.rglob("*") if path.is_file())
    stamp = tuple(
        (path.relative_to(folder).as_posix(), path.stat().st_mtime_ns, path.stat().st_size)
        for path in files
    )
    return _digest(folder, stamp)


@lru_cache(maxsize=8)
def _digest(folder: Path, stamp: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for name, _, _ in stamp:
        digest.update(name.encode("utf-8") + b"\0")
        digest.update((folder / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:HASH_LENGTH]


def static_url_path(folder: Path) -> str:
    """The URL prefix of the static files in `folder` as this release serves them."""
    return f"/v/{tree_hash(folder)}/static"


def init_app(app: Flask) -> None:
    """Serve `/static/<file>` too (revalidated), and mark the hashed URLs immutable."""
    from flask import request

    app.add_url_rule(
        "/static/<path:filename>", endpoint=PLAIN_ENDPOINT, view_func=app.send_static_file
    )

    @app.after_request
    def _static_caching(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 304):
            response.headers["Cache-Control"] = IMMUTABLE
        elif request.endpoint == PLAIN_ENDPOINT:
            response.headers["Cache-Control"] = "no-cache"
        return response
