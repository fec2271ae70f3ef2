"""Focal's assessor: the web app, its database and the organiser's commands.

Depends on `evaluation` and `pooling`, never the reverse. Flask is imported inside
`create_app` so that `assessor.cli` (the `focal` entry point) stays cheap to import.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

PACKAGE_DIR = Path(__file__).resolve().parent
REPOSITORY_DIR = PACKAGE_DIR.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app: defaults in code, then `FOCAL_*` environment, then `test_config`.

    Config keys: `DATABASE_URL` (SQLAlchemy URL; default a SQLite file `focal.sqlite` in the
    instance folder, in WAL mode), `SECRET_KEY` (default: generated once and kept in
    `instance/secret_key`), `SESSION_COOKIE_SECURE`, `DOCUMENT_CACHE_SIZE`.
    """
    from flask import Flask

    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(REPOSITORY_DIR / "templates"),
        static_folder=str(REPOSITORY_DIR / "static"),
    )
    app.config.from_mapping(
        DATABASE_URL=None,
        SECRET_KEY=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,
        DOCUMENT_CACHE_SIZE=64,
        JSON_SORT_KEYS=False,
    )
    app.config.from_prefixed_env("FOCAL")
    if test_config is not None:
        app.config.from_mapping(test_config)

    instance = Path(app.instance_path)
    if not app.config["DATABASE_URL"]:
        instance.mkdir(parents=True, exist_ok=True)
        app.config["DATABASE_URL"] = f"sqlite:///{instance / 'focal.sqlite'}"
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _persistent_secret(instance / "secret_key")

    from assessor import auth, db
    from assessor.views import register_blueprints

    db.init_app(app)
    auth.init_app(app)
    register_blueprints(app)
    return app


def _persistent_secret(path: Path) -> str:
    """A secret key kept in the instance folder, so sessions survive a restart."""
    if path.exists():
        return path.read_text(encoding="ascii").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(key, encoding="ascii")
    temporary.chmod(0o600)
    temporary.replace(path)
    return key
