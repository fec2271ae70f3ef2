"""gunicorn embedded: `focal serve --workers N` runs the app in N worker processes.

Each worker builds its own app (`make_app`) after the fork, so no database connection is shared
between processes, and compiles its page templates (`warm`) before its first request.
Requests are logged to stderr in gunicorn's access-log format. The log-in rate limits count
per worker with the default `memory://` storage; set `FOCAL_REDIS_URL` to count them across
workers (and machines).

An idle keep-alive connection is kept `keep_alive` seconds (gunicorn's default is 2 s): a
client or proxy that reuses a connection after a few idle seconds, as browsers and nginx's
upstream `keepalive` do, would otherwise find it closed under its request. `focal serve`'s
default, 75 s, outlasts nginx's upstream `keepalive_timeout` (60 s), so nginx always closes first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gunicorn.app.base import BaseApplication

if TYPE_CHECKING:
    from flask import Flask


class FocalServer(BaseApplication):  # type: ignore[misc]  # gunicorn ships no types
    """A gunicorn application whose workers each load the configured Focal app."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """The worker's app, prepared before its first request (`warm`)."""
        from focal.assessor.cli.support import make_app

        app = make_app()
        warm(app)
        return app


def warm(app: Flask) -> None:
    """Prepare a worker before its first request: compile every page template and configure
    the ORM's mappers, work its first request would otherwise pay (the agreement overview's six
    templates and the mappers are about 65 ms of CPU; docs/performance.md, "Assessors at
    once"). Done as a worker starts, never in `create_app`, which the tests call hundreds of
    times, nor for Werkzeug's server, which tests start again and again."""
    from sqlalchemy.orm import configure_mappers

    environment = app.jinja_env
    for name in environment.list_templates(extensions=["html"]):
        environment.get_template(name)  # compiled once, kept by the environment's cache
    configure_mappers()


def serve_with_gunicorn(host: str, port: int, workers: int, keep_alive: int) -> None:
    """Serve until interrupted (Ctrl+C or SIGTERM stop the workers gracefully)."""
    FocalServer(
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "worker_class": "gthread",
            "threads": 4,
            "accesslog": "-",
            "graceful_timeout": 10,
            "timeout": 60,
            "keepalive": keep_alive,
        }
    ).run()
