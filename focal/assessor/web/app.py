"""The app factory: configuration, database, log-in and blueprints wired once per app.

Flask is imported inside `create_app` so that importing the `focal` entry point
(`focal.assessor.cli.main`) stays cheap. Templates and static files live at the top of a checkout
(`templates/`, `static/`); a wheel ships them inside this package (`focal/assessor/web/templates`,
`focal/assessor/web/static`, mapped in pyproject.toml), so both places are looked up.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from focal import settings

if TYPE_CHECKING:
    from flask import Flask

WEB_DIR = Path(__file__).resolve().parent


def asset_dir(name: str) -> Path:
    """`templates` or `static`: inside the installed package, else at the top of the checkout."""
    shipped = WEB_DIR / name
    return shipped if shipped.is_dir() else WEB_DIR.parents[2] / name


def instance_folder() -> Path:
    """Where a server keeps its database, secret key and uploads: `FOCAL_INSTANCE`, else the
    per-user data folder of the platform (platformdirs: `~/.local/share/focal` on Linux).

    Never inside the virtual environment or the checkout, so that recreating either keeps
    a campaign's judgements.
    """
    chosen = settings.value("FOCAL_INSTANCE")
    if isinstance(chosen, Path):
        return chosen
    import platformdirs

    return Path(platformdirs.user_data_dir("focal", appauthor=False))


def earlier_instance_folder() -> Path | None:
    """The instance folder of Focal before `instance_folder()`, when it holds a database that
    the current one lacks: Flask's default for the app when its package was the top-level
    `assessor`, `instance/` of a checkout or `<venv>/var/assessor-instance` of an installed
    package; None otherwise, or with `FOCAL_INSTANCE` set."""
    if settings.value("FOCAL_INSTANCE") is not None:
        return None
    if (instance_folder() / "focal.sqlite").exists():
        return None
    checkout = WEB_DIR.parents[2] / "instance"
    for earlier in (checkout, Path(sys.prefix) / "var" / "assessor-instance"):
        if (earlier / "focal.sqlite").exists():
            return earlier
    return None


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app: defaults in code, then the `FOCAL_` settings of the environment
    (`focal.settings`, each read by its one parser, with its default), then `test_config`.

    The instance folder is `instance_folder()`. Config keys: `DATABASE_URL` (SQLAlchemy URL;
    default a SQLite file `focal.sqlite` in the instance folder, in WAL mode), `SECRET_KEY`
    (default: generated once and kept in `instance/secret_key`), `SESSION_COOKIE_SECURE` (set
    it when serving over https: cookies marked `Secure`, and `Strict-Transport-Security`
    sent), `DOCUMENT_CACHE_SIZE`,
    `TOKEN_LIFETIME` (default lifetime of new API tokens, e.g. `90d`, or `never`), and the
    log-in limits of `focal.assessor.web.rate_limits`.
    """
    from flask import Flask

    from focal.assessor.web import assets

    app = Flask(
        "focal.assessor.web",
        instance_path=str(instance_folder()),
        instance_relative_config=True,
        template_folder=str(asset_dir("templates")),
        static_folder=str(asset_dir("static")),
        static_url_path=assets.static_url_path(asset_dir("static")),
    )
    app.config.from_mapping(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        DOCUMENT_CACHE_SIZE=64,
        JSON_SORT_KEYS=False,
    )
    app.config.from_mapping(settings.app_config())
    if test_config is not None:
        app.config.from_mapping(test_config)

    instance = Path(app.instance_path)
    if not app.config["DATABASE_URL"]:
        instance.mkdir(parents=True, exist_ok=True)
        app.config["DATABASE_URL"] = f"sqlite:///{instance / 'focal.sqlite'}"
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _persistent_secret(instance / "secret_key")

    from focal.assessor.store import db
    from focal.assessor.web import auth, headers, inputs, jobs
    from focal.assessor.web import rate_limits as limits
    from focal.assessor.web.views import register_blueprints

    inputs.init_app(app)
    db.init_app(app)
    auth.init_app(app)
    headers.init_app(app)
    assets.init_app(app)
    limits.init_app(app)
    jobs.init_app(app)
    register_blueprints(app)
    return app


def _persistent_secret(path: Path) -> str:
    """A secret key kept in the instance folder, so sessions survive a restart."""
    from focal.evaluation.output.files import atomic_write

    if path.exists():
        return path.read_text(encoding="ascii").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    atomic_write(path, key, private=True)
    return key
