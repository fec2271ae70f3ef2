"""A gunicorn worker compiles every page template before its first request (`gunicorn_app.warm`,
as it loads its app); `create_app` alone (what tests call) compiles none."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from focal.assessor.cli import support
from focal.assessor.cli.gunicorn_app import FocalServer, warm

from ..conftest import make_test_app


def compiled(app: Flask) -> set[str]:
    """The names of the templates the app's Jinja environment holds compiled."""
    cache = app.jinja_env.cache
    assert cache is not None
    return {template.name for template in cache.values() if template.name is not None}


def pages(app: Flask) -> set[str]:
    return set(app.jinja_env.list_templates(extensions=["html"]))


def test_create_app_compiles_nothing_and_warm_compiles_every_page(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    app = make_test_app(tmp_path, template=migrated_sqlite)
    assert compiled(app) == set()
    warm(app)
    assert len(pages(app)) > 20 and "organiser/agreement/topics.html" in pages(app)
    assert compiled(app) == pages(app)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a template compiled after warm")

    app.jinja_env.compile = refuse  # type: ignore[method-assign]
    app.jinja_env.get_template("organiser/agreement/topics.html")  # from the cache


def test_a_gunicorn_worker_loads_a_warmed_app(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_test_app(tmp_path, template=migrated_sqlite)
    monkeypatch.setattr(support, "make_app", lambda: app)
    loaded = FocalServer({"workers": 1}).load()
    assert loaded is app
    assert compiled(app) == pages(app)
