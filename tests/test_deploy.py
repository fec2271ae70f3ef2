"""The deployment recipe of deploy/, run: Debian's nginx with TLS in front of `focal serve
--workers 2` (gunicorn) configured by deploy/focal.env.

The site file and the environment file are used as shipped, with only what names this machine
replaced: the server name, ports, the certificate (self-signed, made here by openssl), the
instance folder, a SQLite database and the session's throw-away Redis; the per-address limit is
lowered to 2 so that it is reached quickly. Through nginx, an assessor logs in and highlights
(the operations API), an organiser exports the qrels with that highlight in them, https gives
`Secure` cookies and HSTS, plain http is redirected to https, and the log-in limit counts the
real client's address: clients connect from different loopback addresses (127.0.0.2, .3), and
a forged `X-Forwarded-For` changes nothing.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import REPOSITORY, serving, wait_until

NGINX = Path("/usr/sbin/nginx")
OPENSSL = Path("/usr/bin/openssl")
DEPLOY = REPOSITORY / "deploy"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def deploy_env(tmp_path: Path, redis_url: str) -> dict[str, str]:
    """deploy/focal.env read as systemd reads it, with this machine's paths put in."""
    settings = {}
    for line in (DEPLOY / "focal.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key] = value
    assert settings["FOCAL_TRUSTED_PROXIES"] == "1"
    assert "FOCAL_SESSION_COOKIE_SECURE" not in settings  # https follows from the proxy's word
    settings |= {
        "FOCAL_INSTANCE": str(tmp_path / "instance"),
        "FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'focal.sqlite'}",
        "FOCAL_REDIS_URL": redis_url,
        "FOCAL_IMPORT_ROOTS": str(tmp_path),
        "FOCAL_LOGIN_LIMIT_PER_ADDRESS": "2 per 15 minutes",
    }
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON"))}
    return kept | settings


def site(tmp_path: Path, https: int, plain: int, upstream: int) -> str:
    """deploy/nginx/focal.conf with this machine's ports and a self-signed certificate."""
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    text = (DEPLOY / "nginx" / "focal.conf").read_text(encoding="utf-8")
    text = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", text)  # no IPv6 here
    text = text.replace("listen 80;", f"listen 127.0.0.1:{plain};")
    text = text.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")
    text = text.replace("/etc/letsencrypt/live/focal.example.org/fullchain.pem", str(certificate))
    text = text.replace("/etc/letsencrypt/live/focal.example.org/privkey.pem", str(key))
    return text.replace("focal.example.org", "localhost")


@contextmanager
def nginx(tmp_path: Path, site_text: str, port: int) -> Iterator[None]:
    """Debian's nginx with only this site, in the foreground, stopped on leaving."""
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    (prefix / "focal.conf").write_text(site_text, encoding="utf-8")
    (prefix / "nginx.conf").write_text(
        "user root;\nworker_processes 1;\npid nginx.pid;\nerror_log logs/error.log;\n"
        "events { worker_connections 64; }\n"
        "http {\n  access_log logs/access.log;\n"
        "  client_body_temp_path tmp_body; proxy_temp_path tmp_proxy;\n"
        "  fastcgi_temp_path tmp_fastcgi; uwsgi_temp_path tmp_uwsgi; scgi_temp_path tmp_scgi;\n"
        "  include focal.conf;\n}\n",
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [str(NGINX), "-p", str(prefix), "-c", "nginx.conf", "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )

    def up() -> bool:
        if process.poll() is not None:
            pytest.fail(f"nginx ended: {process.communicate()[1]!r}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    try:
        wait_until(up, 30, "nginx's port")
        yield
    finally:
        process.send_signal(signal.SIGQUIT)
        process.communicate(timeout=30)


@dataclass
class Browser:
    """An https client of one loopback address, keeping the session cookie."""

    port: int
    address: str
    cookies: dict[str, str] = field(default_factory=dict)
    last_set_cookie: list[str] = field(default_factory=list)

    def request(
        self, method: str, path: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        connection = http.client.HTTPSConnection(
            "localhost", self.port, context=context, source_address=(self.address, 0), timeout=30
        )
        sent = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection.request(method, path, body, sent)
        response = connection.getresponse()
        data = response.read()
        self.last_set_cookie = response.headers.get_all("Set-Cookie") or []
        for cookie in self.last_set_cookie:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";")[0]
        connection.close()
        return response.status, dict(response.headers), data

    def csrf(self, path: str = "/login") -> str:
        status, _, page = self.request("GET", path)
        found = re.search(rb'name="csrf-token" content="([^"]+)"', page)
        assert status == 200 and found is not None, (status, page[:300])
        return found.group(1).decode()

    def log_in(self, name: str, password: str, **headers: str) -> tuple[int, dict[str, str]]:
        form = {"name": name, "password": password, "csrf_token": self.csrf()}
        status, answer, _ = self.request(
            "POST",
            "/login",
            urllib.parse.urlencode(form).encode(),
            Content_Type="application/x-www-form-urlencoded",
            **headers,
        )
        return status, answer


def _first_assignment(database_url: str) -> tuple[int, str, str]:
    """The demo assessor's first assignment, its first pooled article and that article's text."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from focal.assessor.store import db
    from focal.assessor.store.models import Assignment, Document, Pool, PoolEntry, User
    from focal.evaluation.text.document import Document as Parsed

    engine = db.make_engine(database_url)
    with Session(engine) as session:
        assignment = session.scalars(
            select(Assignment).join(User).where(User.name == "assessor").order_by(Assignment.id)
        ).first()
        assert assignment is not None
        entry = session.scalars(
            select(PoolEntry)
            .join(Pool)
            .where(Pool.topic_id == assignment.topic_id)
            .order_by(PoolEntry.position)
        ).first()
        assert entry is not None
        document = session.get_one(Document, entry.article)
        assert document.file is not None
        found = (assignment.id, document.id, Parsed.from_file(document.file).text)
    engine.dispose()
    return found


@pytest.mark.slow
def test_nginx_in_front_of_focal_serve_as_deploy_sets_it_up(tmp_path: Path, redis_url: str) -> None:
    for program in (NGINX, OPENSSL):
        if not program.exists():
            pytest.skip(f"the deployment test needs {program} (make system-packages installs it)")
    env = deploy_env(tmp_path, redis_url)
    focal = Path(sys.executable).with_name("focal")
    demo = subprocess.run(
        [str(focal), "demo", "--no-serve"], env=env, capture_output=True, text=True, timeout=300
    )
    assert demo.returncode == 0, demo.stderr
    assignment, article, text = _first_assignment(env["FOCAL_DATABASE_URL"])
    https, plain = _free_port(), _free_port()
    with (
        serving(env, "--workers", "2") as served,
        nginx(tmp_path, site(tmp_path, https, plain, served.port), https),
    ):
        # Plain http is sent to https.
        connection = http.client.HTTPConnection("127.0.0.1", plain, timeout=30)
        connection.request("GET", "/login?x=1", headers={"Host": "localhost"})
        moved = connection.getresponse()
        assert (moved.status, moved.getheader("Location")) == (
            301,
            "https://localhost/login?x=1",
        )
        connection.close()

        # An assessor logs in over https: Secure cookies, HSTS, a redirect staying on https.
        assessor = Browser(https, "127.0.0.2")
        status, answer = assessor.log_in("assessor", "assessor")
        assert status in (302, 303)
        location = answer["Location"]
        assert location.startswith(("/", "https://")), location
        assert assessor.last_set_cookie and all(
            "; Secure" in cookie for cookie in assessor.last_set_cookie
        )
        assert answer.get("Strict-Transport-Security") == "max-age=31536000"

        # ... and highlights 11 characters of an article (the operations API), from its first
        # word (a passage never starts or ends with whitespace: it would be trimmed).
        token = assessor.csrf("/topics")
        start = len(text) - len(text.lstrip())
        end = start + len(text[start : start + 11].rstrip())
        operation = {"op_id": "deploy-1", "op": "highlight", "start": start, "end": end,
                     "exact": text[start:end]}  # fmt: skip
        status, _, body = assessor.request(
            "POST",
            f"/api/assignments/{assignment}/documents/{article}/ops",
            json.dumps(operation).encode(),
            Content_Type="application/json",
            X_CSRF_Token=token,
        )
        assert status == 200, body
        assert json.loads(body)["passages"] == [[start, end]]

        # An organiser exports the qrels through the proxy: the highlight is in them.
        organiser = Browser(https, "127.0.0.2")
        assert organiser.log_in("organiser", "organiser")[0] in (302, 303)
        # (the demo's first topic is double-judged: the assessor's judgements are asked for)
        status, _, qrels = organiser.request("GET", "/organiser/export.qrels?assessor=assessor")
        assert status == 200
        lines = [line.split() for line in qrels.decode().splitlines()]
        passage = f"{start}:{end - start}"
        assert [line for line in lines if line[2] == article and passage in line[5:]], lines

        # The per-address limit (2 refused attempts) counts the real client's address.
        intruder, neighbour = Browser(https, "127.0.0.3"), Browser(https, "127.0.0.4")
        assert [intruder.log_in(f"nobody{n}", "wrong")[0] for n in range(2)] == [401, 401]
        assert intruder.log_in("nobody2", "wrong")[0] == 429
        # Another address is not held up, even claiming to be the first one.
        assert neighbour.log_in("nobody3", "wrong", X_Forwarded_For="127.0.0.3")[0] == 401
    assert b"Traceback" not in served.errors, served.errors.decode(errors="replace")
