"""gunicorn embedded: `focal serve --workers N` runs the app in N worker processes.

Each worker builds its own app (`make_app`) after the fork, so no database connection is shared
between processes. Requests are logged to stderr in gunicorn's access-log format. The log-in
rate limits count per worker with the default `memory://` storage; set
`FOCAL_RATELIMIT_STORAGE_URI` to a shared store to count across workers.
"""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication


class FocalServer(BaseApplication):  # type: ignore[misc]  # gunicorn ships no types
    """A gunicorn application whose workers each load the configured Focal app."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from assessor.cli.support import make_app

        return make_app()


def serve_with_gunicorn(host: str, port: int, workers: int) -> None:
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
        }
    ).run()
