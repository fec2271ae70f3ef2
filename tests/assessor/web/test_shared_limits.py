"""Log-in limits shared by several server processes through Redis (`FOCAL_REDIS_URL`).

Two `focal serve` processes on one database stand for two workers behind one proxy. With the
limit at 3 refused attempts per name, three wrong passwords through the first make the second
answer 429 too; with each process's own memory (no Redis) the second still answers 401, which
shows the first case could fail. The Redis server is the session's throw-away `redis-server`.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from focal.assessor.campaign.people.users import add_user
from focal.assessor.store import db

from ...conftest import serving
from ..conftest import PASSWORD


def _database(tmp_path: Path, migrated_sqlite: Path) -> str:
    database = tmp_path / "served.sqlite"
    database.write_bytes(migrated_sqlite.read_bytes())
    engine = db.make_engine(f"sqlite:///{database}")
    with Session(engine) as session:
        add_user(session, "olga", "organiser", PASSWORD)
        session.commit()
    engine.dispose()
    return f"sqlite:///{database}"


def _login(base: str, password: str) -> int:
    """The status of one log-in attempt as olga (a fresh browser each time)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with opener.open(f"{base}/login", timeout=10) as page:
        token = re.search(r'name="csrf-token" content="([^"]+)"', page.read().decode())
    assert token is not None
    form = {"name": "olga", "password": password, "csrf_token": token.group(1)}
    try:
        with opener.open(f"{base}/login", urllib.parse.urlencode(form).encode(), timeout=10) as a:
            return int(a.status)
    except urllib.error.HTTPError as error:
        return error.code


def _attempts(env: dict[str, str]) -> tuple[list[int], int]:
    """Three wrong passwords through one process, then one through the other."""
    with serving(env) as first, serving(env) as second:
        through_first = [_login(first.base, "wrong") for _ in range(3)]
        return through_first, _login(second.base, "wrong")


@pytest.mark.slow
def test_a_limit_reached_through_one_worker_holds_on_the_other(
    tmp_path: Path, migrated_sqlite: Path, redis_url: str
) -> None:
    env = {
        **os.environ,
        "FOCAL_DATABASE_URL": _database(tmp_path, migrated_sqlite),
        "FOCAL_SECRET_KEY": "shared-limits",
        "FOCAL_LOGIN_LIMIT_PER_NAME": "3 per 15 minutes",
    }
    env.pop("FOCAL_RATELIMIT_STORAGE_URI", None)
    shared = {**env, "FOCAL_REDIS_URL": redis_url}
    assert _attempts(shared) == ([401, 401, 401], 429)
    # Each process counting on its own: the second has seen no attempt yet.
    assert _attempts(env) == ([401, 401, 401], 401)


def test_a_redis_url_without_the_redis_client_is_one_line(tmp_path: Path) -> None:
    blocker = (
        "import importlib.abc, sys\n"
        "class Absent(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'redis':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Absent())\n"
        "from focal.assessor.cli.main import main\n"
        "sys.exit(main(['serve']))\n"
    )
    env = {
        **os.environ,
        "FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite'}",
        "FOCAL_SECRET_KEY": "x",
        "FOCAL_REDIS_URL": "redis://127.0.0.1:1/0",
    }
    done = subprocess.run(
        [sys.executable, "-c", blocker], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "focal: the rate limits are to be kept in Redis (redis://...) but the redis client is "
        "not installed: pip install 'focal[redis]'"
    ]
