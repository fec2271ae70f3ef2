"""`focal serve --workers 2` is gunicorn with two worker processes serving the app."""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

import pytest

from ...conftest import serving


@pytest.mark.slow
def test_serve_with_workers_answers_from_several_processes(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    database = tmp_path / "served.sqlite"
    database.write_bytes(migrated_sqlite.read_bytes())
    env = {**os.environ, "FOCAL_DATABASE_URL": f"sqlite:///{database}", "FOCAL_SECRET_KEY": "k"}
    with serving(env, "--workers", "2") as served:
        with urllib.request.urlopen(f"{served.base}/login", timeout=10) as page:
            assert page.status == 200
            assert page.headers["X-Frame-Options"] == "DENY"
        assert len(served.children(at_least=2)) == 2  # gunicorn's master forked two workers
    err = served.errors
    assert b"Booting worker" in err and b"Traceback" not in err
