"""Static files under a content-hashed URL (focal.assessor.web.assets): immutable there, a
different URL for different bytes, revalidated at the plain `/static/` address."""

from __future__ import annotations

import os
from pathlib import Path

from flask import url_for

from focal.assessor.web.app import asset_dir
from focal.assessor.web.assets import IMMUTABLE, tree_hash

from ..conftest import make_test_app


def test_pages_name_hashed_urls_that_are_kept_immutable(tmp_path: Path) -> None:
    app = make_test_app(tmp_path)
    digest = tree_hash(asset_dir("static"))
    with app.test_request_context():
        script = url_for("static", filename="assess/main.js")
    assert script == f"/v/{digest}/static/assess/main.js"
    client = app.test_client()
    shipped = (asset_dir("static") / "assess" / "main.js").read_bytes()
    with client.get(script) as hashed:  # a file answer: closed when read
        assert hashed.status_code == 200 and hashed.headers["Cache-Control"] == IMMUTABLE
        assert hashed.get_data() == shipped
    # Another release's hash is not this release's file.
    with client.get("/v/000000000000/static/assess/main.js") as other:
        assert other.status_code == 404
    with client.get("/static/assess/main.js") as plain:
        assert plain.status_code == 200 and plain.get_data() == shipped
        assert plain.headers["Cache-Control"] == "no-cache"
    # The log-in page links its style sheet by the hashed URL.
    assert f'href="/v/{digest}/static/focal.css"' in client.get("/login").get_data(as_text=True)


def test_the_hash_follows_the_bytes_of_every_file(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    (folder / "assess").mkdir(parents=True)
    module = folder / "assess" / "main.js"
    module.write_text("export const a = 1;\n", encoding="utf-8")
    (folder / "focal.css").write_text("body {}\n", encoding="utf-8")
    first = tree_hash(folder)
    assert tree_hash(folder) == first  # the same bytes, the same hash
    module.write_text("export const a = 2;\n", encoding="utf-8")
    later = module.stat().st_mtime_ns + 1_000_000_000  # a later time, whatever the resolution
    os.utime(module, ns=(later, later))
    second = tree_hash(folder)
    assert second != first
    (folder / "assess" / "new.js").write_text("", encoding="utf-8")
    assert tree_hash(folder) not in (first, second)  # a file added changes it too
